"""The liveness watchdog repairs every kind of stuck state within one sweep of it being due,
through the real services on the database: a lost timer, a deal nothing triggered, a hand that
cannot advance (voided, stakes returned), a broadcast that never went out. Each repair is kept
with its cause and counted on /healthz; a healthy table is never "repaired"."""

from __future__ import annotations

import asyncio
import itertools
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db.models import F
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.adapters import engine
from games.broadcast import broadcast_table, table_group
from games.models import Clock, Hand, Repair
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from games.services.store import SWEEPER_CLOCK
from games.services.sweeper import hands_sweep
from tables.models import Table
from tests.factories import funded_user, hand_play_out, table_at
from tests.games.live.conftest import _fresh_connection_pool  # noqa: F401 - a fresh pool per socket test
from tests.games.live.helpers import db
from wallet.audit import ledger_audit
from wallet.selectors import table_money

START = 1_000_000
_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """The watchdog remembers what it saw in the cache (Redis here): nothing from another test."""
    cache.clear()


def _seated(game: str = "thirteen", n: int = 2) -> tuple[Table, list[User]]:
    table = table_at(game, name=f"watchdog {game}")
    users = []
    for _ in range(n):
        user = funded_user(f"watched{next(_names)}", START)
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="join")
        users.append(user)
    return table, users


def _ticked(now: Any) -> None:
    """The sweeper ticks every few seconds: a test that jumps in time says it ran just before."""
    Clock.objects.update_or_create(name=SWEEPER_CLOCK, defaults={"last_tick": now - timedelta(seconds=1)})


def _sweep_at(when: Any) -> dict[str, Any]:
    with time_machine.travel(when, tick=False):
        _ticked(timezone.now())
        return hands_sweep()


def _repairs(kind: str) -> list[Repair]:
    return list(Repair.objects.filter(kind=kind))


@pytest.mark.django_db
def test_a_phase_whose_timer_was_lost_is_ended_by_the_first_sweep_after_its_grace(settings: Any) -> None:
    table, users = _seated()
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None and hand.deadline is not None
    grace = timedelta(seconds=settings.GAMES_SWEEP_GRACE)
    # up to the grace the timer is given its chance: the watchdog does nothing
    assert _sweep_at(hand.deadline + grace - timedelta(seconds=0.5))["expired"] == 0
    assert not Repair.objects.exists()
    # no timer fired (GAMES_TIMERS is off here, as if its task was lost): the next sweep ends it
    report = _sweep_at(hand.deadline + grace + timedelta(seconds=0.5))
    assert report["expired"] == 1
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED  # both seats auto-played, then settled
    [repair] = _repairs(Repair.Kind.LOST_TIMER)
    assert repair.hand_id == hand.pk and repair.table_id == table.pk and "past its deadline" in repair.cause
    body = Client().get("/healthz").json()
    assert body["repairs_last_hour"]["lost_timer"] == 1
    assert body["repairs_last_hour"]["missed_deal"] == 0
    assert ledger_audit().ok


@pytest.mark.django_db
def test_a_table_that_should_have_dealt_deals_at_the_sweep_after_the_pause_and_not_before(settings: Any) -> None:
    table, users = _seated()
    first = hand_play_out(hand_start_if_ready(table_id=table.pk), users)
    assert first.finished_at is not None
    pause = timedelta(seconds=settings.GAMES_NEXT_HAND_DELAY + settings.GAMES_SWEEP_GRACE)
    # within the showdown pause (and its grace) the start timer has its chance
    assert _sweep_at(first.finished_at + pause - timedelta(seconds=0.5))["dealt"] == 0
    assert Hand.objects.filter(table=table).count() == 1
    # the start timer never came (lost with a worker): the watchdog deals
    assert _sweep_at(first.finished_at + pause + timedelta(seconds=0.5))["dealt"] == 1
    second = Hand.objects.get(table=table, status=Hand.Status.ACTIVE)
    assert second.number == 2
    [repair] = _repairs(Repair.Kind.MISSED_DEAL)
    assert repair.hand_id == second.pk


@pytest.mark.django_db
def test_a_new_table_is_dealt_by_the_watchdog_only_once_its_start_delay_is_over(settings: Any) -> None:
    table, users = _seated()
    joined = timezone.now()
    assert _sweep_at(joined + timedelta(seconds=settings.GAMES_START_DELAY))["dealt"] == 0
    due = joined + timedelta(seconds=settings.GAMES_START_DELAY + settings.GAMES_SWEEP_GRACE + 1)
    assert _sweep_at(due)["dealt"] == 1
    assert len(_repairs(Repair.Kind.MISSED_DEAL)) == 1


@pytest.mark.django_db
def test_a_hand_whose_expiry_keeps_failing_is_voided_with_every_stake_returned(settings: Any) -> None:
    table, users = _seated()
    hand = hand_start_if_ready(table_id=table.pk)
    before = [table_money(user=u, table_ref=table.wallet_ref) for u in users]
    # a state the engine cannot finish (a seat's cards lost): every expiry raises
    Hand.objects.filter(pk=hand.pk).update(state={**hand.state, "seats": [{"cards": None}] * len(users)})
    late = hand.deadline + timedelta(seconds=settings.GAMES_SWEEP_GRACE + 1)
    for attempt in range(settings.GAMES_WATCHDOG_VOID_AFTER):
        report = _sweep_at(late + timedelta(seconds=3 * attempt))
        hand.refresh_from_db()
        if attempt < settings.GAMES_WATCHDOG_VOID_AFTER - 1:
            assert hand.status == Hand.Status.ACTIVE and report["expired"] == 0
    assert report["expired"] == 1
    assert hand.status == Hand.Status.VOIDED and hand.ledger_transaction_id is None
    assert [table_money(user=u, table_ref=table.wallet_ref) for u in users] == before
    [repair] = _repairs(Repair.Kind.STUCK_HAND)
    assert repair.hand_id == hand.pk and "could not be ended" in repair.cause
    assert not _repairs(Repair.Kind.LOST_TIMER)
    assert ledger_audit().ok


@pytest.mark.django_db
def test_a_hand_with_no_deadline_and_nothing_to_do_is_voided_on_the_second_sweep() -> None:
    table, users = _seated()
    hand = hand_start_if_ready(table_id=table.pk)
    stuck = {**hand.state, "deadline": None, "phase": "waiting"}  # a phase no timer and no player ends
    Hand.objects.filter(pk=hand.pk).update(state=stuck, deadline=None)
    assert not any(engine("thirteen").legal_actions(stuck, s) for s in range(2))
    now = timezone.now()
    assert _sweep_at(now)["voided"] == 0  # seen once: it might be on its way
    assert _sweep_at(now + timedelta(seconds=3))["voided"] == 1
    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOIDED
    assert len(_repairs(Repair.Kind.STUCK_HAND)) == 1


@pytest.mark.django_db
def test_healthy_play_needs_no_repair(settings: Any) -> None:
    table, users = _seated(n=3)
    hand = hand_play_out(hand_start_if_ready(table_id=table.pk), users)
    now = timezone.now()
    for k in range(3):
        report = _sweep_at(now + timedelta(seconds=k))
        assert (report["expired"], report["voided"], report["dealt"], report["rebroadcast"]) == (0, 0, 0, 0)
    assert hand.status == Hand.Status.SETTLED
    assert not Repair.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_change_never_broadcast_is_broadcast_by_the_watchdog() -> None:
    table, users = await db(_seated)()
    layer = get_channel_layer()
    channel = await layer.new_channel("watch.")
    await layer.group_add(table_group(table.pk), channel)
    try:
        await db(broadcast_table)(table.pk)  # the table's frames went out up to here
        sent = await asyncio.wait_for(layer.receive(channel), 5)
        # a change committed by a server killed before its broadcast: the version moves, nothing is sent
        await db(Table.objects.filter(pk=table.pk).update)(version=F("version") + 1)
        now = timezone.now()
        first = await db(_sweep_at)(now)
        assert first["rebroadcast"] == 0  # behind once: a broadcast may be in flight
        second = await db(_sweep_at)(now + timedelta(seconds=3))
        assert second["rebroadcast"] == 1
        frame = await asyncio.wait_for(layer.receive(channel), 5)
        assert frame["version"] == sent["version"] + 1
        assert len(await db(_repairs)(Repair.Kind.MISSED_BROADCAST)) == 1
        # caught up: nothing more to repair
        assert (await db(_sweep_at)(now + timedelta(seconds=6)))["rebroadcast"] == 0
    finally:
        await layer.group_discard(table_group(table.pk), channel)
