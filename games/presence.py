"""Who was heard from when: each seat's last heartbeat, kept in the cache (Redis when
distributed), one write per heartbeat and never the database (games/services/presence.py
decides what the records mean: docs/ARCHITECTURE.md "Timers, presence and the watchdog")."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

#: How long a heartbeat stays on record (far beyond any window that reads it).
PRESENCE_TTL = 24 * 3600

SeatKey = tuple[int, int]  # (table id, user id)


def presence_key(table_id: int, user_id: int) -> str:
    return f"games:presence:{table_id}:{user_id}"


def presence_read(seats: Iterable[SeatKey]) -> dict[SeatKey, float]:
    """When each seat's last heartbeat came (epoch seconds), for the seats on record."""
    keys = {presence_key(t, u): (t, u) for t, u in seats}
    if not keys:
        return {}
    return {keys[k]: float(v) for k, v in cache.get_many(list(keys)).items()}


def presence_start(seats: Iterable[SeatKey], at: float) -> None:
    """Put ``at`` on record as the seats' last heartbeat (a new seat, or a window restarted)."""
    values = {presence_key(t, u): at for t, u in seats}
    if values:
        cache.set_many(values, PRESENCE_TTL)
