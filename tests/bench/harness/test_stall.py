"""The stall hunt's rules (bench/harness/stall.py) on tables built through the services: each rule
finds the stuck table it is there for, and none fires on a table that is on time."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from bench.harness.stall import BotSeen, Limits, stalls_find
from games.models import Hand
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from tables.models import Seat, Table
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db

LIMITS = Limits(margin=10, start_delay=1, next_hand_delay=2)


def _table(players: int = 2) -> tuple[Table, list[Any]]:
    table = table_at("thirteen")
    users = [funded_user(f"s{table.pk}-{i}", 10_000_000) for i in range(players)]
    for i, user in enumerate(users):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"s-join-{i}")
    return table, users


def _rules(table: Table, bots: list[BotSeen] | None = None, now: datetime | None = None,
           waiting: dict[int, datetime] | None = None) -> set[str]:
    found = stalls_find([table.pk], bots or [], LIMITS, now or timezone.now(), {} if waiting is None else waiting)
    return {s.rule for s in found}


def _bot(table: Table, seen: int, quiet: float, *, done: bool = False, connected: bool = True) -> BotSeen:
    return BotSeen(name="bot", table_id=table.pk, seen_version=seen, quiet_for=quiet, connected=connected, done=done)


def _ago(seconds: float) -> datetime:
    return timezone.now() - timedelta(seconds=seconds)


def test_a_hand_past_its_deadline_and_the_margin_is_stalled_and_one_within_it_is_not() -> None:
    table, _users = _table()
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    assert _rules(table) == set()
    Hand.objects.filter(pk=hand.pk).update(deadline=_ago(LIMITS.margin - 3))
    assert _rules(table) == set()
    Hand.objects.filter(pk=hand.pk).update(deadline=_ago(LIMITS.margin + 1))
    assert _rules(table) == {"deadline"}


def test_a_table_with_enough_seats_that_never_dealt_is_stalled_after_the_start_delay_and_margin() -> None:
    table, _users = _table()
    Seat.objects.filter(table=table).update(joined_at=_ago(LIMITS.start_delay + LIMITS.margin - 3))
    assert _rules(table) == set()
    Seat.objects.filter(table=table).update(joined_at=_ago(LIMITS.start_delay + LIMITS.margin + 1))
    assert _rules(table) == {"no deal"}


def test_a_table_whose_last_hand_ended_long_ago_is_stalled_and_one_in_its_pause_is_not() -> None:
    table, _users = _table()
    Seat.objects.filter(table=table).update(joined_at=_ago(600))
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    Hand.objects.filter(pk=hand.pk).update(status=Hand.Status.SETTLED, deadline=None, finished_at=_ago(1))
    assert _rules(table) == set()
    Hand.objects.filter(pk=hand.pk).update(finished_at=_ago(LIMITS.next_hand_delay + LIMITS.margin + 1))
    assert _rules(table) == {"no deal"}


def test_a_hand_dealt_between_the_reads_is_not_a_missing_deal() -> None:
    """The latest hand is in play though the table looked idle a moment before: dealt meanwhile."""
    table, _users = _table()
    Seat.objects.filter(table=table).update(joined_at=_ago(600))
    assert _rules(table) == {"no deal"}
    assert hand_start_if_ready(table_id=table.pk) is not None
    assert _rules(table) == set()


def test_a_bot_that_missed_a_newer_version_is_stalled_once_quiet_past_the_margin() -> None:
    table, _users = _table()
    hand_start_if_ready(table_id=table.pk)
    table.refresh_from_db()
    assert _rules(table, [_bot(table, table.version, LIMITS.margin + 30)]) == set()  # nothing new to see
    assert _rules(table, [_bot(table, table.version - 1, LIMITS.margin - 1)]) == set()  # in flight
    assert _rules(table, [_bot(table, table.version - 1, LIMITS.margin + 1)]) == {"missed frame"}
    assert _rules(table, [_bot(table, table.version - 1, LIMITS.margin + 1, done=True)]) == set()
    assert _rules(table, [_bot(table, table.version - 1, LIMITS.margin + 1, connected=False)]) == set()


def test_bots_left_waiting_at_a_table_that_cannot_deal_are_stalled_after_the_margin() -> None:
    table, users = _table()
    Seat.objects.filter(table=table, user=users[1]).delete()
    waiting: dict[int, datetime] = {}
    bot = _bot(table, 10**6, 0)
    assert _rules(table, [bot], waiting=waiting) == set()  # first seen waiting now
    later = timezone.now() + timedelta(seconds=LIMITS.margin + 1)
    assert _rules(table, [bot], now=later, waiting=waiting) == {"left waiting"}
    assert _rules(table, [_bot(table, 10**6, 0, done=True)], now=later, waiting=waiting) == set()
