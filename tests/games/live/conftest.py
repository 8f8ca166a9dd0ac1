"""Fixtures for live play: stake levels from the data migration, funded players, tables."""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from tables.models import StakeLevel, Table
from wallet import services as wallet

_names = itertools.count(1)
START_COINS = 10_000_000  # 100,000.00 coins


@pytest.fixture
def funded() -> Callable[..., User]:
    def make(name: str | None = None, coins: int = START_COINS) -> User:
        name = name or f"player{next(_names)}"
        user = User.objects.create_user(username=name, password="x" * 12, display_name=name.title())
        wallet.wallet_grant(user=user, amount=coins, idempotency_key=f"test-grant:{name}", actor=None, memo="test")
        return user

    return make


def ensure_stake_levels() -> None:
    """Transactional tests flush the data migration's rows: load them again."""
    if not StakeLevel.objects.exists():
        from django.apps import apps

        importlib.import_module("tables.migrations.0002_stake_levels").load(apps, None)


@pytest.fixture
def table_for() -> Callable[..., Table]:
    ensure_stake_levels()

    def make(game: str, mode: str = "", unit: int | None = None, **rules: Any) -> Table:
        levels = StakeLevel.objects.filter(game=game, mode=mode).order_by("unit")
        level = levels.get(unit=unit) if unit else levels.first()
        assert level is not None
        if rules:
            level.rules = {**level.rules, **rules}
            level.save()
        return Table.objects.create(stake_level=level, name=f"{game} {mode} test")

    return make
