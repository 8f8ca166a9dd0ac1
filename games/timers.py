"""Phase timers through Celery. The database row is the truth: a timer task carries the
phase sequence number and does nothing if the phase moved on; the sweeper (Celery beat)
catches phases whose task was lost."""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings

log = logging.getLogger(__name__)


def schedule_expire(hand_id: int, phase_seq: int, when: datetime) -> None:
    if not settings.GAMES_TIMERS:
        return
    from games.tasks import expire_phase

    expire_phase.apply_async(args=[hand_id, phase_seq], eta=when)


def schedule_start(table_id: int, delay: float | None = None) -> None:
    """Deal at this table now (``delay`` 0) or after ``delay`` seconds."""
    delay = settings.GAMES_START_DELAY if delay is None else delay
    if delay <= 0:
        from games.services.hands import hand_start_if_ready

        try:
            hand_start_if_ready(table_id=table_id)
        except Exception:  # the sweeper retries; the caller's change is already committed
            log.exception("could not deal at table %s", table_id)
        return
    if settings.GAMES_TIMERS:
        from games.tasks import start_hand
        from tables.models import Table

        # The task carries how many hands were dealt when it was scheduled: if a hand is dealt
        # meanwhile, it is stale and does nothing (the showdown pause is never cut short).
        played = Table.objects.filter(pk=table_id).values_list("hands_played", flat=True).first()
        start_hand.apply_async(args=[table_id, played], countdown=delay)
