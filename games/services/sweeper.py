"""The sweeper (Celery beat, every GAMES_SWEEP_EVERY seconds): ticks the platform's clock (after
an outage it extends the deadlines that passed while we were down), runs the liveness watchdog
(``games.services.watchdog``: overdue phases, missed deals, stuck hands, lost broadcasts), marks
seats whose heartbeats stopped, stands up seats sitting out for GAMES_AWAY_STAND_UP_AFTER
(``games.services.away``), closes private rooms empty for ROOMS_CLOSE_EMPTY_AFTER
(``games.services.rooms``), and forgets spent request ids."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.adapters import engine, void_on_outage
from games.engine.protocol import Voidable
from games.models import Clock, Hand
from games.presence import presence_read, presence_start
from games.services import watchdog
from games.services.away import seats_away_sweep
from games.services.change import TableChange
from games.services.hands import hand_advance
from games.services.presence import seat_disconnected, seat_reconnect
from games.services.requests import client_requests_prune
from games.services.rooms import rooms_sweep
from games.services.store import SWEEPER_CLOCK, hand_locked_with_table
from tables.models import Seat

log = logging.getLogger(__name__)

SWEEP_REPORT_KEY = "games:sweeper:last"


def hands_sweep(now: datetime | None = None) -> dict[str, Any]:
    """One sweep: the clock (and outage extensions), the watchdog's repairs, presence, and the
    spent request ids. Returns what it did, also kept in the cache (SWEEP_REPORT_KEY) for
    ``/healthz`` and for whoever investigates a table."""
    now = now or timezone.now()
    report: dict[str, Any] = {"extended": _tick(now)}
    steps: dict[str, Callable[[], int]] = {
        "expired": lambda: watchdog.watch_phases(now),
        "voided": lambda: watchdog.watch_timeless(now),
        "dealt": lambda: watchdog.watch_deals(now),
        "rebroadcast": watchdog.watch_broadcasts,
        "disconnected": lambda: _mark_absent(now),
        "stood_up": lambda: seats_away_sweep(now),
        "rooms_closed": lambda: rooms_sweep(now),
        "ids_forgotten": lambda: client_requests_prune(now=now),
    }
    for name, step in steps.items():
        try:  # each step on its own: a cache or channel layer away stops only the steps needing it
            report[name] = step()
        except Exception:
            log.exception("sweep step %s failed", name)
            report[name] = 0
    try:
        cache.set(SWEEP_REPORT_KEY, {**report, "at": now.timestamp()}, timeout=None)
    except Exception as exc:  # noqa: BLE001 - the report is informational
        log.warning("could not keep the sweep's report: %s", exc)
    if any(report[k] for k in ("expired", "voided", "dealt", "rebroadcast", "extended", "stood_up")):
        log.info("sweep: %s", report)
    return report


def sweep_last() -> dict[str, Any] | None:
    """The last sweep's report, with ``at`` (epoch seconds), if any ran."""
    report = cache.get(SWEEP_REPORT_KEY)
    return report if isinstance(report, dict) else None


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
    """Heartbeats could not be recorded while we were down: every seat's window starts again
    now, so nobody is marked away, auto-played or charged as a leaver for our own outage
    (docs/RULES.md); one still silent afterwards is marked away as usual."""
    seats = list(Seat.objects.filter(disconnected=False).values_list("table_id", "user_id"))
    presence_start(seats, now.timestamp())
    return len(seats)


def _extend(hand_id: int, gap: timedelta) -> int:
    locked = hand_locked_with_table(hand_id)
    if locked is None:
        return 0
    change, hand = locked
    if hand.status != Hand.Status.ACTIVE or hand.deadline is None:
        return 0
    if void_on_outage(hand.game):
        return _void(change, hand)
    # Every engine keeps its phase deadline in state["deadline"] (games/engine/protocol.py).
    state = {**hand.state, "deadline": hand.state["deadline"] + gap.total_seconds()}
    hand_advance(change, hand, state)
    return 1


def _void(change: TableChange, hand: Hand) -> int:
    """The rule of games whose hands our own outage interrupted: voided, stakes returned."""
    game_engine = engine(hand.game)
    if not isinstance(game_engine, Voidable):  # the contract: an engine with void_on_outage has void()
        raise TypeError(f"{hand.game}: void_on_outage is set but the engine has no void()")
    state, _events = game_engine.void(hand.state)
    hand_advance(change, hand, state)
    return 1


def _mark_absent(now: datetime) -> int:
    """Seats silent for ``GAMES_PRESENCE_TIMEOUT`` are marked away; seats marked away whose
    heartbeats came back (a connection that did not say so) play for themselves again."""
    stale = now - timedelta(seconds=settings.GAMES_PRESENCE_TIMEOUT)
    seats = list(Seat.objects.values_list("table_id", "user_id", "disconnected", "status"))
    seen = presence_read((t, u) for t, u, _away, _status in seats)
    presence_start([(t, u) for t, u, away, _status in seats if not away and (t, u) not in seen], now.timestamp())
    marked = 0
    for table_id, user_id, away, status in seats:
        last = seen.get((table_id, user_id))
        if last is None:
            continue
        if not away and last < stale.timestamp():
            marked += int(seat_disconnected(table_id=table_id, user_id=user_id, before=stale))
        elif away and last >= stale.timestamp() and status != Seat.Status.LEAVING:
            seat_reconnect(table_id=table_id, user=User.objects.get(pk=user_id))
    return marked
