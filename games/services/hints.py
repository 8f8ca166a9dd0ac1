"""The hint button (docs/PROTOCOL.md "Limits"): the solver's suggestions for a player's seat,
without letting one player's hints slow anyone else's table.

1. The hand is read and the answer looked up in the cache, per (hand, seat, phase), for
   GAMES_HINT_CACHE_SECONDS: a repeated hint is free and counts against nothing.
2. Otherwise the user may have one hint in flight at a time, and spends one of GAMES_HINT_LIMIT
   hints per GAMES_HINT_WINDOW seconds (across all their connections and servers); a refusal
   is ``rate_limited`` with the seconds to wait, and spends nothing.
3. The solver runs in a small process pool (GAMES_HINT_WORKERS processes): CPU-bound work in a
   thread would hold the server's GIL and delay every frame of every table. At most
   GAMES_HINT_QUEUE hints wait for the pool in one server; more are refused as busy.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from accounts.models import User
from games import hint_worker
from games.adapters import engine
from games.models import Hand
from games.services import limits
from games.services.errors import NoActiveHand, PlayError
from games.services.retry import with_retries
from kernel.db_threads import in_db_thread

HINTS_SHOWN = 3
_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()
_waiting = 0


class RateLimited(PlayError):
    """Too many requests: ``retry_after`` says in how many seconds to try again."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = round(retry_after, 1)


@dataclass(frozen=True)
class HintJob:
    """What the solver needs for a hint, as plain data (it runs in another process)."""

    hand_id: int
    commitment: str  # with the id, names the hand even across a database restored or reset
    phase_seq: int
    game: str
    state: dict[str, Any]
    seat: int
    needed: bool  # the seat has something to do in this phase


@with_retries  # a read: on a connection the server ended (a restart), it runs again on a new one
def hand_hint_job(*, table_id: int, user: User) -> HintJob:
    """The player's seat in the hand in play, for the hint button (``games.services.hints``)."""
    hand = Hand.objects.filter(table_id=table_id, status=Hand.Status.ACTIVE).first()
    seat = hand.seat_of(user.pk) if hand else None
    if hand is None or seat is None:
        raise NoActiveHand(_("No hand is in play for you at this table."))
    needed = bool(engine(hand.game).legal_actions(hand.state, seat))
    return HintJob(hand.pk, hand.commitment, hand.phase_seq, hand.game, hand.state, seat, needed)


def _solver_pool() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=max(1, settings.GAMES_HINT_WORKERS), mp_context=multiprocessing.get_context("spawn"),
                initializer=hint_worker.start, initargs=(os.getpid(),),
            )
            _pool.submit(hint_worker.warm)
        return _pool


def _pool_broken() -> None:
    global _pool
    with _pool_lock:
        _pool = None


def _cache_key(job: HintJob) -> str:
    return f"hint:{job.hand_id}:{job.commitment[:16]}:{job.seat}:{job.phase_seq}"


def _prepare(table_id: int, user: User) -> tuple[HintJob, list[dict[str, Any]] | None]:
    """Steps 1 and 2: the job and its cached answer, or the user's allowance taken."""
    job = hand_hint_job(table_id=table_id, user=user)
    if not job.needed:
        return job, []
    if not settings.GAMES_ABUSE_LIMITS:
        return job, None
    cached = cache.get(_cache_key(job)) if settings.GAMES_HINT_CACHE_SECONDS > 0 else None
    if cached is not None:
        return job, cached
    if not limits.in_flight_take(user_id=user.pk, name="hint", ttl=settings.GAMES_WS_SLOT_TTL):
        raise RateLimited(_("Your last hint is still being worked out. Try again in 1 s."), retry_after=1)
    wait = limits.request_allowance(
        user_id=user.pk, name="hint", limit=settings.GAMES_HINT_LIMIT, window=settings.GAMES_HINT_WINDOW
    )
    if wait is not None:
        limits.in_flight_drop(user_id=user.pk, name="hint")
        raise RateLimited(
            _("Too many hints: you may ask for %(n)d every %(s)d seconds. Try again in %(wait).1f s.")
            % {"n": settings.GAMES_HINT_LIMIT, "s": settings.GAMES_HINT_WINDOW, "wait": wait},
            retry_after=wait,
        )
    return job, None


def _finish(job: HintJob, user: User, hints: list[dict[str, Any]] | None) -> None:
    if hints is not None and settings.GAMES_HINT_CACHE_SECONDS > 0:
        cache.set(_cache_key(job), hints, settings.GAMES_HINT_CACHE_SECONDS)
    limits.in_flight_drop(user_id=user.pk, name="hint")


async def _solve(job: HintJob) -> list[dict[str, Any]]:
    global _waiting
    if _waiting >= settings.GAMES_HINT_QUEUE:
        raise RateLimited(_("Hints are busy right now. Try again in 1 s."), retry_after=1)
    _waiting += 1
    try:
        future = _solver_pool().submit(hint_worker.suggest, job.game, job.state, job.seat, HINTS_SHOWN)
        return await asyncio.wait_for(asyncio.wrap_future(future), settings.GAMES_HINT_TIMEOUT)
    except BrokenProcessPool:
        _pool_broken()
        raise
    finally:
        _waiting -= 1


async def hint_for(*, table_id: int, user: User) -> list[dict[str, Any]]:
    """The suggestions for the user's seat at the table (steps above)."""
    job, cached = await in_db_thread(_prepare, table_id, user)  # its connection goes back to the pool
    if cached is not None:
        return cached
    if not settings.GAMES_ABUSE_LIMITS:  # unprotected (benchmarks only): the solver in a thread
        return await sync_to_async(hint_worker.suggest, thread_sensitive=False)(
            job.game, job.state, job.seat, HINTS_SHOWN
        )
    hints: list[dict[str, Any]] | None = None
    try:
        hints = await _solve(job)
        return hints
    finally:
        await sync_to_async(_finish, thread_sensitive=False)(job, user, hints)
