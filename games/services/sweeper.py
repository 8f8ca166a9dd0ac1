"""The sweeper (Celery beat, every few seconds): finishes overdue phases whose timer task
was lost, marks seats whose heartbeats stopped, deals at tables that are ready, and after a
platform outage extends the deadlines that passed while we were down."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, Value
from django.db.models.functions import Least
from django.utils import timezone

from games.adapters import engine, void_on_outage
from games.engine.protocol import Voidable
from games.models import Clock, Hand
from games.services.hands import hand_advance, hand_expire, hand_start_if_ready
from games.services.presence import seat_disconnected
from games.services.requests import client_requests_prune
from games.services.store import SWEEPER_CLOCK, hand_locked_with_table
from tables.models import Seat, Table

log = logging.getLogger(__name__)


def hands_sweep(now: datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    report = {"extended": _tick(now)}
    report["expired"] = _expire_overdue(now)
    report["disconnected"] = _mark_absent(now)
    report["dealt"] = _deal_ready(now)
    report["ids_forgotten"] = client_requests_prune(now=now)
    return report


@transaction.atomic
def _tick(now: datetime) -> int:
    clock, created = Clock.objects.select_for_update().get_or_create(name=SWEEPER_CLOCK, defaults={"last_tick": now})
    gap = now - clock.last_tick
    extended = 0
    if not created and gap > timedelta(seconds=settings.GAMES_OUTAGE_AFTER):
        log.warning("sweeper idle for %s: extending every running deadline by that gap", gap)
        _presence_give_back(now, gap)
        running = Hand.objects.filter(status=Hand.Status.ACTIVE, deadline__isnull=False)
        for hand_id in running.values_list("pk", flat=True):
            extended += _extend(hand_id, gap)
    clock.last_tick = now
    clock.save(update_fields=["last_tick"])
    return extended


def _presence_give_back(now: datetime, gap: timedelta) -> int:
    """Heartbeats could not be recorded while we were down: a seat's last heartbeat moves on by
    the outage (never past now), so nobody is marked away, auto-played or charged as a leaver
    for our own outage (docs/RULES.md); one still silent afterwards is marked away as usual."""
    shifted = ExpressionWrapper(F("last_seen") + gap, output_field=DateTimeField())
    return Seat.objects.filter(disconnected=False, last_seen__lt=now).update(
        last_seen=Least(shifted, Value(now, output_field=DateTimeField()))
    )


def _extend(hand_id: int, gap: timedelta) -> int:
    locked = hand_locked_with_table(hand_id)
    if locked is None:
        return 0
    table, hand = locked
    if hand.status != Hand.Status.ACTIVE or hand.deadline is None:
        return 0
    if void_on_outage(hand.game):
        return _void(table, hand)
    # Every engine keeps its phase deadline in state["deadline"] (games/engine/protocol.py).
    state = {**hand.state, "deadline": hand.state["deadline"] + gap.total_seconds()}
    hand_advance(table, hand, state)
    return 1


def _void(table: Table, hand: Hand) -> int:
    """The rule of games whose hands our own outage interrupted: voided, stakes returned."""
    game_engine = engine(hand.game)
    if not isinstance(game_engine, Voidable):  # the contract: an engine with void_on_outage has void()
        raise TypeError(f"{hand.game}: void_on_outage is set but the engine has no void()")
    state, _events = game_engine.void(hand.state)
    hand_advance(table, hand, state)
    return 1


def _expire_overdue(now: datetime) -> int:
    grace = timedelta(seconds=settings.GAMES_SWEEP_GRACE)
    due = Hand.objects.filter(status=Hand.Status.ACTIVE, deadline__lte=now - grace).values_list("pk", "phase_seq")
    done = 0
    for hand_id, seq in list(due):
        try:
            done += int(hand_expire(hand_id=hand_id, phase_seq=seq))
        except Exception:
            log.exception("sweeper could not expire hand %s", hand_id)
    return done


def _mark_absent(now: datetime) -> int:
    stale = now - timedelta(seconds=settings.GAMES_PRESENCE_TIMEOUT)
    seats = Seat.objects.filter(disconnected=False, last_seen__lt=stale).values_list("table_id", "user_id")
    marked = 0
    for table_id, user_id in list(seats):
        marked += int(seat_disconnected(table_id=table_id, user_id=user_id, before=stale))
    return marked


def _deal_ready(now: datetime) -> int:
    pause = now - timedelta(seconds=settings.GAMES_NEXT_HAND_DELAY)
    idle = (
        Table.objects.filter(status=Table.Status.OPEN)
        .exclude(hands__status=Hand.Status.ACTIVE)
        .filter(seat_set__status=Seat.Status.PLAYING)
        .distinct()
        .values_list("pk", flat=True)
    )
    dealt = 0
    for table_id in list(idle):
        last = Hand.objects.filter(table_id=table_id).order_by("-number").values_list("finished_at", flat=True).first()
        if last is not None and last > pause:
            continue
        try:
            dealt += int(hand_start_if_ready(table_id=table_id) is not None)
        except Exception:
            log.exception("sweeper could not deal at table %s", table_id)
    return dealt
