"""Fixtures for live play: stake levels from the data migration, funded players, tables."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from tables.models import Table
from tests.factories import funded_user, table_at

_names = itertools.count(1)
START_COINS = 10_000_000  # 100,000.00 coins


@pytest.fixture(autouse=True)
def _fresh_connection_pool() -> Any:
    """Each test runs its consumers on an event loop of its own, whose executor threads are
    dropped with it; a thread's pooled connection that was still checked out then never goes
    back to the pool, and over a whole run the pool would run dry. A fresh pool per test
    keeps every test's connections its own (PostgreSQL only; SQLite has no pool)."""
    yield
    if getattr(connection, "pool", None) is not None:
        connection.close()
        connection.close_pool()


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
