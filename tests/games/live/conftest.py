"""Fixtures for live play: stake levels from the data migration, funded players, tables."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from tables.models import Table
from tests.factories import funded_user, table_at

_names = itertools.count(1)
START_COINS = 10_000_000  # 100,000.00 coins


@pytest.fixture
def funded() -> Callable[..., User]:
    def make(name: str | None = None, coins: int = START_COINS) -> User:
        name = name or f"player{next(_names)}"
        return funded_user(name, coins, display_name=name.title())

    return make


@pytest.fixture
def table_for() -> Callable[..., Table]:
    def make(game: str, mode: str = "", unit: int | None = None, **rules: Any) -> Table:
        return table_at(game, mode, unit=unit, name=f"{game} {mode} test", **rules)

    return make
