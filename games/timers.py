"""Phase and start timers through Celery. The database row is the truth: a timer task carries
the phase sequence number (or the table's hand count) and does nothing if the hand moved on;
the watchdog (``games.services.sweeper``, on Celery beat) catches phases whose task was lost.

A phase is armed once: the store sets a timer only when a hand's phase or deadline changes
(``games.services.store.hand_state_store``), so actions within a phase publish no task. Each
task carries the deadline it was set for, which names it with (hand, phase_seq): a task whose
deadline is no longer the hand's does nothing, and only the one for the current deadline
re-arms itself when it fires early (clock skew between machines).

Tasks are sent by their names (registered in ``games/tasks.py``), so this module imports no
service: the store and the actions call it, never the other way round. They go through the
process's default Celery app (``celery.app.default_app``: the composition root's
``config.celery_app`` makes itself the default), so no layer of live play imports the composition
root. Not ``celery.current_app``: that is the last app made in the calling thread, which may be a
benchmark's or a test's client.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from celery.app import default_app
from django.conf import settings

from tables.models import Table

EXPIRE_PHASE = "games.expire_phase"
START_HAND = "games.start_hand"


def schedule_expire(hand_id: int, phase_seq: int, when: datetime) -> None:
    """End the phase ``phase_seq`` of the hand at ``when`` (unless it moved on by then)."""
    if not settings.GAMES_TIMERS:
        return
    _send(EXPIRE_PHASE, [hand_id, phase_seq, when.timestamp()], eta=when)


def schedule_start(table_id: int, delay: float, hands_played: int | None = None) -> None:
    """Try to deal at this table in ``delay`` seconds.

    The task carries how many hands were dealt when it was scheduled (read here unless the
    caller knows): if a hand is dealt meanwhile, it is stale and does nothing (the showdown
    pause is never cut short). It also carries when it is due, for the timer-lag metric.
    """
    if not settings.GAMES_TIMERS:
        return
    if hands_played is None:
        hands_played = Table.objects.filter(pk=table_id).values_list("hands_played", flat=True).first()
    _send(START_HAND, [table_id, hands_played, time.time() + delay], countdown=delay)


def _send(name: str, args: list[Any], **options: Any) -> None:
    """Send a task whose arguments are a few numbers: their ``repr`` is what Celery would log and
    show for them, without its general-purpose safe repr (part of what sending costs a server)."""
    default_app.send_task(name, args=args, argsrepr=repr(args), kwargsrepr="{}", **options)
