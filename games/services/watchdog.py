"""The liveness watchdog: every sweep (Celery beat, GAMES_SWEEP_EVERY) it looks at every hand in
play and every open table, and puts right what the timers and broadcasts should have done
(docs/ARCHITECTURE.md "Liveness"):

- a phase past its deadline (plus GAMES_SWEEP_GRACE) is expired: its timer task was lost;
- a table that should have dealt (enough players, the pause over) deals;
- a hand that cannot advance (its expiry failed GAMES_WATCHDOG_VOID_AFTER sweeps running, or
  no deadline and nobody with anything to do) is voided, every stake returned;
- a table whose last change was never broadcast (two sweeps running) is broadcast again.

Each repair is logged with its cause, counted in the metrics and kept as a
:class:`games.models.Repair` row (``/healthz`` shows the last hour's). In a healthy room the
timers and broadcasts do the work and the watchdog finds nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, OuterRef, Q, Subquery

from games.adapters import engine, player_limits
from games.broadcast import broadcast_table
from games.models import Hand, Repair
from games.sent import sent_versions
from games.services.hands import hand_expire, hand_start_if_ready, hand_void
from kernel import metrics
from tables.models import Seat, StakeLevel, Table

log = logging.getLogger(__name__)

#: Hands (by id and phase) whose expiry failed, and how often; tables seen not broadcast.
ATTEMPTS_KEY = "games:watchdog:attempts:{}:{}"
STILL_KEY = "games:watchdog:still:{}"
BEHIND_KEY = "games:watchdog:behind"


def repair_note(kind: str, cause: str, *, table_id: int | None, hand_id: int | None = None) -> None:
    """Log, count and keep one repair."""
    Repair.objects.create(kind=kind, cause=cause[:300], table_id=table_id, hand_id=hand_id)
    metrics.repair(kind)
    log.warning("watchdog repaired %s at table %s (hand %s): %s", kind, table_id, hand_id, cause)


def repairs_since(when: datetime) -> dict[str, int]:
    """Repairs by kind since ``when`` (every kind present, 0 when none)."""
    counts = dict(Repair.objects.filter(at__gte=when).values_list("kind").annotate(n=Count("id")))
    return {kind: counts.get(kind, 0) for kind in Repair.Kind.values}


# --- phases ----------------------------------------------------------------------------------

def watch_phases(now: datetime) -> int:
    """Expire every phase past its deadline and grace; void a hand whose expiry keeps failing."""
    grace = timedelta(seconds=settings.GAMES_SWEEP_GRACE)
    due = Hand.objects.filter(status=Hand.Status.ACTIVE, deadline__lte=now - grace)
    repaired = 0
    for hand_id, table_id, seq, deadline in list(due.values_list("pk", "table_id", "phase_seq", "deadline")):
        try:
            expired = hand_expire(hand_id=hand_id, phase_seq=seq)
        except Exception:
            log.exception("watchdog could not expire hand %s", hand_id)
            expired = False
        late = (now - deadline).total_seconds() if deadline else 0.0
        if expired:
            repair_note(Repair.Kind.LOST_TIMER, f"phase {seq} was {late:.1f} s past its deadline and no timer had "
                        "ended it", table_id=table_id, hand_id=hand_id)
            repaired += 1
        elif _failed_again(hand_id, seq) >= settings.GAMES_WATCHDOG_VOID_AFTER:
            repaired += _void(hand_id, table_id, f"phase {seq} could not be ended in "
                              f"{settings.GAMES_WATCHDOG_VOID_AFTER} sweeps ({late:.0f} s past its deadline)")
    return repaired


def _failed_again(hand_id: int, seq: int) -> int:
    key = ATTEMPTS_KEY.format(hand_id, seq)
    cache.add(key, 0, timeout=3600)
    return int(cache.incr(key))


def watch_timeless(now: datetime) -> int:
    """Void a hand in play with no deadline and nothing for anyone to do, seen so at the same
    version on two sweeps running: no timer and no player can move it on."""
    repaired = 0
    timeless = Hand.objects.filter(status=Hand.Status.ACTIVE, deadline__isnull=True)
    for hand in timeless.only("pk", "table_id", "game", "state", "version", "players"):
        game_engine = engine(hand.game)
        if any(game_engine.legal_actions(hand.state, seat) for seat in range(len(hand.players))):
            continue
        key = STILL_KEY.format(hand.pk)
        if cache.get(key) == hand.version:
            repaired += _void(hand.pk, hand.table_id, "no deadline and nothing for anyone to do")
        else:
            cache.set(key, hand.version, timeout=600)
    return repaired


def _void(hand_id: int, table_id: int, cause: str) -> int:
    try:
        voided = hand_void(hand_id=hand_id, reason="stuck")
    except Exception:
        log.exception("watchdog could not void hand %s", hand_id)
        return 0
    if voided:
        repair_note(Repair.Kind.STUCK_HAND, cause, table_id=table_id, hand_id=hand_id)
    return int(voided)


# --- deals -----------------------------------------------------------------------------------

def watch_deals(now: datetime) -> int:
    """Deal at every open table with enough players whose next deal is overdue: the showdown
    pause (GAMES_NEXT_HAND_DELAY) after its last hand, or the start delay after its last seat
    was taken, plus the grace."""
    grace = settings.GAMES_SWEEP_GRACE
    last_finished = Hand.objects.filter(table=OuterRef("pk")).order_by("-number").values("finished_at")[:1]
    idle = (
        Table.objects.filter(status=Table.Status.OPEN)
        .exclude(room_code__isnull=False, room_started_at__isnull=True)  # a room waits for its owner's start
        .exclude(hands__status=Hand.Status.ACTIVE)
        .annotate(
            # a trio leaver is dealt in (auto-played) until its set ends
            playing=Count("seat_set", filter=Q(seat_set__status__in=[Seat.Status.PLAYING, Seat.Status.LEAVING])),
            last_joined=Max("seat_set__joined_at"),
            last_finished=Subquery(last_finished),
        )
        .filter(playing__gte=2)
        .values_list("pk", "stake_level_id", "playing", "last_joined", "last_finished")
    )
    rows = list(idle)
    levels = StakeLevel.objects.in_bulk({level_id for _t, level_id, *_rest in rows})
    dealt = 0
    for table_id, level_id, playing, last_joined, last_finished in rows:
        if playing < player_limits(levels[level_id])[0]:
            continue
        since, pause = last_finished, settings.GAMES_NEXT_HAND_DELAY
        if since is None:
            since, pause = last_joined, settings.GAMES_START_DELAY
        overdue = (now - since).total_seconds() - pause
        if overdue < grace:
            continue
        try:
            hand = hand_start_if_ready(table_id=table_id)
        except Exception:
            log.exception("watchdog could not deal at table %s", table_id)
            continue
        if hand is not None:
            repair_note(Repair.Kind.MISSED_DEAL, f"the next hand was due {overdue:.1f} s ago and nothing had dealt "
                        "it", table_id=table_id, hand_id=hand.pk)
            dealt += 1
    return dealt


# --- broadcasts ------------------------------------------------------------------------------

def watch_broadcasts() -> int:
    """Broadcast again every open table whose version was ahead of its last broadcast on this
    sweep and the one before (a broadcast in flight is not mistaken for a lost one)."""
    versions = dict(Table.objects.filter(status=Table.Status.OPEN).values_list("pk", "version"))
    sent = sent_versions(list(versions))
    behind = {t: v for t, v in versions.items() if t in sent and sent[t] < v}
    before: dict[int, int] = cache.get(BEHIND_KEY) or {}
    cache.set(BEHIND_KEY, behind, timeout=600)
    repaired = 0
    for table_id, version in behind.items():
        if table_id not in before or sent[table_id] >= before[table_id]:
            continue  # behind for the first time, or broadcasts since caught up with what was behind then
        broadcast_table(table_id)
        repair_note(Repair.Kind.MISSED_BROADCAST, f"version {version} was never broadcast (the last was "
                    f"{sent[table_id]})", table_id=table_id)
        repaired += 1
    return repaired
