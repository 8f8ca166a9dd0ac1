"""Builders shared by the test suites: funded players and tables at the data migration's
stake levels."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from datetime import timedelta
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


def hand_play_out(hand: Any, users: Any) -> Any:
    """Every dealt-in seat plays the engine's own move through ``hand_act`` until the hand is
    over (each action must be applied); returns the hand, refreshed."""
    from games.adapters import engine
    from games.models import Hand
    from games.services.hands import hand_act

    by_id = {u.pk: u for u in users}
    eng = engine(hand.game)
    for _ in range(40):
        hand.refresh_from_db()
        if hand.status != Hand.Status.ACTIVE:
            return hand
        seat = next(s for s in range(len(hand.players)) if eng.legal_actions(hand.state, s))
        reply = hand_act(table_id=hand.table_id, user=by_id[hand.players[seat]["user"]],
                         action=dict(eng.auto_action(hand.state, seat)))
        assert reply["status"] == "applied", reply
    raise AssertionError("the hand did not end")


def hand_time_out(hand_id: int, present: Iterable[int] = ()) -> Any:
    """Nobody acts: every phase of the hand runs out and the server plays it, the sweeper's clock
    ticking (a jump in time is no outage) and the ``present`` players (user ids) beating at each
    deadline, their tabs open; returns the hand, ended."""
    import time_machine
    from django.utils import timezone

    from games.models import Clock, Hand
    from games.presence import presence_beat
    from games.services.hands import hand_expire
    from games.services.store import SWEEPER_CLOCK

    present = list(present)
    hand = Hand.objects.get(pk=hand_id)
    for _ in range(20):
        if hand.status != Hand.Status.ACTIVE:
            return hand
        assert hand.deadline is not None
        with time_machine.travel(hand.deadline + timedelta(seconds=1), tick=False):
            Clock.objects.update_or_create(name=SWEEPER_CLOCK, defaults={"last_tick": timezone.now()})
            for user_id in present:
                presence_beat(hand.table_id, user_id)
            assert hand_expire(hand_id=hand.pk, phase_seq=hand.phase_seq)
        hand.refresh_from_db()
    raise AssertionError("the hand did not end")
