"""Wallet test helpers: players with coins, and the ``postgres`` marker's skip on SQLite."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings

from wallet import services

_keys = itertools.count(1)


def on_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


@pytest.fixture(autouse=True)
def _postgres_only(request: pytest.FixtureRequest) -> None:
    """Tests marked ``postgres`` (triggers, row locks, concurrency) skip on SQLite."""
    if request.node.get_closest_marker("postgres") and not on_postgres():
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://... (row locks, triggers, concurrency)")


def key(prefix: str = "k") -> str:
    """A fresh idempotency key."""
    return f"{prefix}-{next(_keys)}"


@pytest.fixture
def player(make_user: Callable[..., Any]) -> Callable[..., Any]:
    """``player("lin", coins=10_000)``: a user whose wallet was granted ``coins`` minor units."""

    def make(username: str, coins: int = 0) -> Any:
        user = make_user(username)
        if coins:
            services.wallet_grant(user=user, amount=coins, idempotency_key=key("grant"), actor=None)
        return user

    return make


@pytest.fixture
def seated(player: Callable[..., Any]) -> Callable[..., Any]:
    """``seated("lin", table="t1", table_money=5_000)``: a player who bought in at a table."""

    def make(username: str, *, table: str = "t1", table_money: int = 5_000, wallet: int = 0) -> Any:
        user = player(username, coins=table_money + wallet)
        services.wallet_buy_in(user=user, table_ref=table, amount=table_money, minimum=1, idempotency_key=key("buy"))
        return user

    return make
