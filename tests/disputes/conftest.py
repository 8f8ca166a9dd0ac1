"""The history tests' live tables and people, shared with the dispute tests; messages in English."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from disputes.services import dispute_open
from tests.history.conftest import _postgres_only, live, people, records_of  # noqa: F401


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


@pytest.fixture
def setup(live: Any, people: dict[str, Any]) -> dict[str, Any]:  # noqa: F811 - the fixtures imported above
    """Two 三公 hands played by two players; the player has opened a dispute on the first and
    may dispute the second (``record``)."""
    table = live("samgong", "all_compare", 2, seed=71)
    table.play(2)
    first, second = records_of(table.table)[:2]
    dispute = dispute_open(player=table.users[0], record=first, category="result", text="check it")
    return {**people, "player": table.users[0], "record": second, "dispute": dispute}
