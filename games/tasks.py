"""Celery tasks: each one line into a service, idempotent by the phase sequence number (or the
table's hand count). ``games.timers`` sends them by their names, kept there.

The services import Django models, so this module may only be imported once the apps are
ready. Celery guarantees that: a worker (a separate process, or the embedded one of
``config.embedded``) sets Django up before it imports ``CELERY_IMPORTS`` and the autodiscovered
task modules; no project module imports this one. The tasks are shared (``shared_task``): they
belong to the process's Celery app, which only the composition root (``config.celery_app``) names.
"""

import time

from celery import shared_task

from games.lobby import lobby_publish
from games.services.hands import hand_expire, hand_start_if_ready
from games.services.retry import with_retries
from games.services.sweeper import hands_sweep
from games.timers import EXPIRE_PHASE, START_HAND
from kernel import metrics


@shared_task(name=EXPIRE_PHASE, ignore_result=True)
def expire_phase(hand_id: int, phase_seq: int, deadline: float | None = None) -> None:
    if deadline is not None:
        metrics.timer_fired("expire", time.time() - deadline)
    with_retries(hand_expire)(hand_id=hand_id, phase_seq=phase_seq, deadline=deadline)


@shared_task(name=START_HAND, ignore_result=True)
def start_hand(table_id: int, hands_played: int | None = None, due: float | None = None) -> None:
    if due is not None:
        metrics.timer_fired("start", time.time() - due)
    with_retries(hand_start_if_ready)(table_id=table_id, hands_played=hands_played)


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> None:
    hands_sweep()


@shared_task(name="games.lobby_publish", ignore_result=True)
def publish_lobby() -> None:
    lobby_publish()
