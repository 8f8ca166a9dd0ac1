"""The history tests' live tables and people, shared with the dispute tests; messages in English."""

from collections.abc import Iterator

import pytest
from django.utils import translation

from tests.history.conftest import _postgres_only, live, people  # noqa: F401


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield
