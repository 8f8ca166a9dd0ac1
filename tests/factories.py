"""Builders shared by the test suites: funded players and tables at the data migration's
stake levels."""

from __future__ import annotations

import importlib
from typing import Any


def ensure_stake_levels() -> None:
    """Transactional tests flush the data migration's rows: load them again."""
    from django.apps import apps

    from tables.models import StakeLevel

    if not StakeLevel.objects.exists():
        importlib.import_module("tables.migrations.0002_stake_levels").load(apps, None)


def funded_user(username: str, coins: int, **fields: Any) -> Any:
    """A player with ``coins`` (minor units) granted through the wallet."""
    from accounts.models import User
    from wallet import services as wallet

    user = User.objects.create_user(username=username, password="x" * 12, **fields)
    wallet.wallet_grant(user=user, amount=coins, idempotency_key=f"test-grant:{username}", actor=None, memo="test")
    return user


def table_at(game: str, mode: str = "", *, unit: int | None = None, name: str = "", **rules: Any) -> Any:
    """A table at the cheapest stake level of a game and mode (or the one of ``unit``), with
    optional rule overrides on that level."""
    from tables.models import StakeLevel, Table

    ensure_stake_levels()
    levels = StakeLevel.objects.filter(game=game, mode=mode).order_by("unit")
    level = levels.get(unit=unit) if unit else levels.first()
    assert level is not None
    if rules:
        level.rules = {**level.rules, **rules}
        level.save()
    return Table.objects.create(stake_level=level, name=name or f"{game} {mode}".strip())
