"""A ledger with every game and mode in it, for the dashboard's tests: hands played to
settlement through the real services at a table of every game and mode (the registry's), on two
days, then every other way coins reach or leave the house (a grant, an adjustment either way, a
dispute compensation, a charge of commission and of a penalty outside a hand, a reversal), in the
order of time, as a ledger grows; and the figures computed by hand from the ledger's rows."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import time_machine

from games.adapters import engine, player_limits
from games.engine.registry import games
from games.models import Hand
from games.presence import presence_beat
from games.services.hands import hand_act, hand_start_if_ready
from games.services.seating import seat_join
from tables.models import StakeLevel, Table
from tests.factories import funded_user, table_at
from wallet import services as wallet
from wallet.models import Entry

#: The dashboard's "now": late on a day, so its window holds that day and the day before.
NOW = dt.datetime(2026, 3, 10, 20, 0, tzinfo=dt.UTC)
YESTERDAY = dt.datetime(2026, 3, 9, 10, 0, tzinfo=dt.UTC)
TODAY = dt.datetime(2026, 3, 10, 9, 0, tzinfo=dt.UTC)


@dataclass
class Ledger:
    levels: dict[tuple[str, str], StakeLevel] = field(default_factory=dict)  # (game, mode) -> its level
    hands: list[int] = field(default_factory=list)


def _game_modes() -> list[tuple[str, str]]:
    return [(engine.name, mode) for engine in games() for mode in engine.modes]


def _sit(game: str, mode: str, tag: int) -> tuple[Table, list[Any]]:
    """A table of the game and mode with three players, or as many as its rules need."""
    table = table_at(game, mode, name=f"{game} {mode}")
    level = table.stake_level
    low, high = player_limits(level)
    n = max(low, min(3, high))
    users = [funded_user(f"dash{tag}x{i}", 10_000_000) for i in range(n)]
    for u in users:
        seat_join(table_id=table.pk, user=u, buy_in=level.min_buy_in * 4, request_id=f"join-{u.pk}")
    return table, users


#: What each seat stakes at a house-banked table (minor units): the house wins some, pays others.
HOUSE_BETS = ({"player": 600}, {"banker": 200}, {"tie": 200})


def _move(hand: Hand, seat: int) -> dict[str, Any]:
    """The engine's own move, except that a seat at a house-banked table bets (it would bet nothing)."""
    eng = engine(hand.game)
    if any("bets" in template for template in eng.legal_actions(hand.state, seat)):
        return {"type": "bet", "bets": HOUSE_BETS[seat % len(HOUSE_BETS)]}
    return dict(eng.auto_action(hand.state, seat))


def _play(table: Table, users: list[Any], at: dt.datetime) -> Hand:
    by_id = {u.pk: u for u in users}
    with time_machine.travel(at, tick=False):
        for u in users:  # at the table: heard from (a table deals to connected players only)
            presence_beat(table.pk, u.pk)
        hand = hand_start_if_ready(table_id=table.pk)
        assert hand is not None, (table.name, at)
        for _ in range(40):
            if hand.status != Hand.Status.ACTIVE:
                break
            seat = next(s for s in range(len(hand.players)) if engine(hand.game).legal_actions(hand.state, s))
            reply = hand_act(table_id=table.pk, user=by_id[hand.players[seat]["user"]], action=_move(hand, seat))
            assert reply["status"] == "applied", reply
            hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED, hand.result
    return hand


def ledger_of_every_game(*, yesterday: dt.datetime = YESTERDAY, today: dt.datetime = TODAY) -> Ledger:
    """Two hands at every game and mode (one ``yesterday``, one ``today``), then the other house
    movements of ``today``; everything in the order of time."""
    ledger = Ledger()
    seated: dict[tuple[str, str], tuple[Table, list[Any]]] = {}
    with time_machine.travel(yesterday - dt.timedelta(hours=1), tick=False):
        for tag, (game, mode) in enumerate(_game_modes()):
            seated[(game, mode)] = _sit(game, mode, tag)
            ledger.levels[(game, mode)] = seated[(game, mode)][0].stake_level
    for i, day in enumerate((yesterday, today)):
        for j, (table, users) in enumerate(seated.values()):
            ledger.hands.append(_play(table, users, day + dt.timedelta(minutes=10 * j + i)).pk)
    table, users = next(iter(seated.values()))
    with time_machine.travel(today + dt.timedelta(hours=2), tick=False):
        wallet.wallet_grant(user=users[0], amount=12_345, idempotency_key="dash:grant", actor=None)
        wallet.wallet_adjust(user=users[0], amount=500, reason="goodwill", idempotency_key="dash:adj+", actor=None)
        wallet.wallet_adjust(user=users[1], amount=-200, reason="mistake", idempotency_key="dash:adj-", actor=None)
        wallet.wallet_compensate(user=users[2], amount=777, dispute_ref="dispute:1", idempotency_key="dash:comp",
                                 actor=None, memo="upheld")
        for kind, amount in (("commission", 30), ("penalty", 40)):
            wallet.wallet_charge(user=users[0], table_ref=table.wallet_ref, amount=amount, kind=kind,
                                 reference=f"table:{table.pk}", idempotency_key=f"dash:charge:{kind}")
        granted = wallet.wallet_grant(user=users[1], amount=999, idempotency_key="dash:grant2", actor=None)
        wallet.wallet_reverse(transaction_id=granted.pk, idempotency_key="dash:rev", actor=None, reason="twice")
    return ledger


@dataclass
class Expected:
    hands_by_level: dict[int, int]
    lines_by_level: dict[int, dict[str, int]]
    hands_by_day: dict[dt.date, int]
    house_by_kind: dict[tuple[str, str], int]
    players_moved: int  # what every player account gained in the window


def expected_from_ledger(*, since: dt.datetime, until: dt.datetime) -> Expected:
    """The figures summed row by row in Python from the hands and the ledger's entries."""
    hands = {h.ledger_transaction_id: h for h in Hand.objects.filter(status=Hand.Status.SETTLED)
             .select_related("table") if since <= h.finished_at < until}
    hands_by_level: dict[int, int] = defaultdict(int)
    hands_by_day: dict[dt.date, int] = defaultdict(int)
    for h in hands.values():
        assert h.finished_at is not None
        hands_by_level[h.table.stake_level_id] += 1
        hands_by_day[h.finished_at.date()] += 1  # the site's time zone is UTC in the tests
    lines: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    by_kind: dict[tuple[str, str], int] = defaultdict(int)
    moved = 0
    for e in Entry.objects.select_related("transaction"):
        hand = hands.get(e.transaction_id)
        in_window = hand is not None or since <= e.transaction.created_at < until
        if not in_window:
            continue
        if not e.house:
            moved += e.amount
        elif hand is not None:
            lines[hand.table.stake_level_id][e.house] += e.amount
            by_kind[(e.house, "settlement")] += e.amount
        else:
            by_kind[(e.house, e.transaction.kind)] += e.amount
    return Expected(dict(hands_by_level), {k: dict(v) for k, v in lines.items()}, dict(hands_by_day),
                    {k: v for k, v in by_kind.items() if v}, moved)
