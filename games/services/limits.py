"""Per-user limits of live play (docs/PROTOCOL.md "Limits"): open table connections (per user,
and per client address for signed-out spectators), and expensive requests (hints) across all of
a user's connections.

In the distributed mode (``REDIS_URL`` set) the counts live in Redis, shared by every server
process; in the embedded mode, in this process. Both are crash-safe: a connection counts
through an entry that expires ``GAMES_WS_SLOT_TTL`` seconds after it was last refreshed, so the
connections of a killed server stop counting by themselves; a hint in flight holds a lock that
expires the same way. The server refreshes the slots of its open connections itself
(``games.services.slots``), whatever their clients send, so a silent connection keeps counting.

With ``GAMES_ABUSE_LIMITS`` off every check passes (benchmarks compare the two). While Redis
is down every check passes too, with a warning in the log: the limits protect play, they must not
stop it (a Redis restart is an outage the tables ride out, docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import redis
from django.conf import settings

from kernel.loop_redis import loop_client
from kernel.redis_driver import driver_info

log = logging.getLogger(__name__)

_CLAIM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[4]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  return 1
end
return 0
"""
_CLAIM_SHA = hashlib.sha1(_CLAIM.encode()).hexdigest()  # noqa: S324 - Redis names a script by its SHA-1

_WINDOW = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
"""
_WINDOW_SHA = hashlib.sha1(_WINDOW.encode()).hexdigest()  # noqa: S324 - Redis names a script by its SHA-1


class _Local:
    """The embedded mode's counts: one process, one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.slots: dict[int | str, dict[str, float]] = {}
        self.windows: dict[str, tuple[int, float]] = {}
        self.busy: dict[str, float] = {}

    def claim(self, user_id: int | str, channel: str, limit: int, ttl: float) -> bool:
        now = time.time()
        with self.lock:
            slots = {c: t for c, t in self.slots.get(user_id, {}).items() if t > now}
            if channel not in slots and len(slots) >= limit:
                self.slots[user_id] = slots
                return False
            slots[channel] = now + ttl
            self.slots[user_id] = slots
            return True

    async def aclaim(self, user_id: int | str, channel: str, limit: int, ttl: float) -> bool:
        return self.claim(user_id, channel, limit, ttl)  # memory only: nothing to wait for

    async def afull(self, user_id: int | str, limit: int) -> bool:
        now = time.time()
        with self.lock:
            return sum(t > now for t in self.slots.get(user_id, {}).values()) >= limit

    def release(self, user_id: int | str, channel: str) -> None:
        with self.lock:
            self.slots.get(user_id, {}).pop(channel, None)

    async def arelease(self, user_id: int | str, channel: str) -> None:
        self.release(user_id, channel)  # memory only: nothing to wait for

    def window(self, key: str, window: float) -> tuple[int, float]:
        now = time.time()
        with self.lock:
            count, ends = self.windows.get(key, (0, 0.0))
            if ends <= now:
                count, ends = 0, now + window
                self.windows = {k: v for k, v in self.windows.items() if v[1] > now}
            self.windows[key] = (count + 1, ends)
            return count + 1, ends - now

    async def awindow(self, key: str, window: float) -> tuple[int, float]:
        return self.window(key, window)  # memory only: nothing to wait for

    def lock_take(self, key: str, ttl: float) -> bool:
        now = time.time()
        with self.lock:
            if self.busy.get(key, 0.0) > now:
                return False
            self.busy[key] = now + ttl
            return True

    def lock_drop(self, key: str) -> None:
        with self.lock:
            self.busy.pop(key, None)


class _Redis:
    """The distributed mode's counts, shared by every server process. Each call answers as if
    allowed when Redis cannot be reached (within a second)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.errors: tuple[type[Exception], ...] = (redis.exceptions.RedisError, OSError)
        self.client: Any = redis.Redis.from_url(
            url, socket_connect_timeout=1, socket_timeout=1, driver_info=driver_info()
        )
        self.claim_script = self.client.register_script(_CLAIM)
        self.window_script = self.client.register_script(_WINDOW)

    def _allowing(self, call: Callable[[], Any], allowed: Any) -> Any:
        try:
            return call()
        except self.errors as exc:
            return _unreachable(exc, allowed)

    def claim(self, user_id: int | str, channel: str, limit: int, ttl: float) -> bool:
        key, args = _claim_call(user_id, channel, limit, ttl)
        return bool(self._allowing(lambda: self.claim_script(keys=[key], args=args), True))

    async def aclaim(self, user_id: int | str, channel: str, limit: int, ttl: float) -> bool:
        """:meth:`claim` awaited on the running event loop (``kernel.loop_redis``)."""
        key, args = _claim_call(user_id, channel, limit, ttl)
        client = loop_client(self.url, timeout=1)
        try:
            try:
                return bool(await client.evalsha(_CLAIM_SHA, 1, key, *args))
            except redis.exceptions.NoScriptError:  # a Redis that has not seen it (or restarted)
                return bool(await client.eval(_CLAIM, 1, key, *args))
        except self.errors as exc:
            return bool(_unreachable(exc, True))

    async def afull(self, user_id: int | str, limit: int) -> bool:
        """Whether the user's live slots number ``limit`` already (one read; not full while Redis
        cannot be reached)."""
        try:
            return int(await loop_client(self.url, timeout=1).zcount(_slot_key(user_id), time.time(), "+inf")) >= limit
        except self.errors as exc:
            return bool(_unreachable(exc, False))

    def release(self, user_id: int | str, channel: str) -> None:
        self._allowing(lambda: self.client.zrem(_slot_key(user_id), channel), None)

    async def arelease(self, user_id: int | str, channel: str) -> None:
        """:meth:`release` awaited on the running event loop."""
        try:
            await loop_client(self.url, timeout=1).zrem(_slot_key(user_id), channel)
        except self.errors as exc:
            _unreachable(exc, None)

    def window(self, key: str, window: float) -> tuple[int, float]:
        count, left_ms = self._allowing(lambda: self.window_script(keys=[_key(key)], args=[int(window * 1000)]), (0, 0))
        return int(count), max(0, int(left_ms)) / 1000

    async def awindow(self, key: str, window: float) -> tuple[int, float]:
        """:meth:`window` awaited on the running event loop (``kernel.loop_redis``)."""
        args = (_key(key), int(window * 1000))
        client = loop_client(self.url, timeout=1)
        try:
            try:
                count, left_ms = await client.evalsha(_WINDOW_SHA, 1, *args)
            except redis.exceptions.NoScriptError:  # a Redis that has not seen it (or restarted)
                count, left_ms = await client.eval(_WINDOW, 1, *args)
        except self.errors as exc:
            count, left_ms = _unreachable(exc, (0, 0))
        return int(count), max(0, int(left_ms)) / 1000

    def lock_take(self, key: str, ttl: float) -> bool:
        return bool(self._allowing(lambda: self.client.set(_key(key), 1, nx=True, px=int(ttl * 1000)), True))

    def lock_drop(self, key: str) -> None:
        self._allowing(lambda: self.client.delete(_key(key)), None)


def _claim_call(user_id: int | str, channel: str, limit: int, ttl: float) -> tuple[str, list[str | float]]:
    """The claim script's key and arguments (``_CLAIM``)."""
    now = time.time()
    return _slot_key(user_id), [now, now + ttl, limit, channel, _slot_key_seconds(ttl)]


def _slot_key(user_id: int | str) -> str:
    """The sorted set of the user's (or, ``ip:<address>``, a signed-out address's) counted
    connections (channel -> when its slot expires)."""
    return _key(f"ws:{user_id}")


def _slot_key_seconds(ttl: float) -> int:
    """How long the set outlives its last refresh: past every slot in it."""
    return int(ttl) + 1


def _unreachable(exc: Exception, allowed: Any) -> Any:
    log.warning("per-user limits: Redis unreachable (%s); allowing", type(exc).__name__)
    return allowed


def _key(name: str) -> str:
    return f"{settings.GAMES_LIMITS_PREFIX}:{name}"


@cache
def _store() -> _Local | _Redis:
    return _Redis(settings.REDIS_URL) if settings.REDIS_URL else _Local()


def _on() -> bool:
    return bool(settings.GAMES_ABUSE_LIMITS)


# --- connections -----------------------------------------------------------------------------

def connection_claim(*, user_id: int, channel: str) -> bool:
    """Count one more open table connection of the user (or refresh this one's entry); False
    when the user already has GAMES_WS_CONNECTIONS_PER_USER others."""
    if not _on():
        return True
    return _store().claim(user_id, channel, settings.GAMES_WS_CONNECTIONS_PER_USER, settings.GAMES_WS_SLOT_TTL)


async def connection_claim_async(*, user_id: int | str, channel: str) -> bool:
    """:func:`connection_claim` from an event loop, without a thread; ``user_id`` may be a
    signed-out client's :func:`address_owner`, counted against GAMES_WS_CONNECTIONS_PER_ADDRESS."""
    if not _on():
        return True
    return await _store().aclaim(user_id, channel, connection_limit(user_id), settings.GAMES_WS_SLOT_TTL)


async def connection_full_async(*, user_id: int | str) -> bool:
    """Whether the user (or signed-out address) has every connection it may keep open already,
    read without claiming one."""
    if not _on():
        return False
    return await _store().afull(user_id, connection_limit(user_id))


def address_owner(address: str) -> str:
    """Whom a signed-out connection's slot counts against: its client's address (kernel.client_ip)."""
    return f"ip:{address}"


def connection_limit(user_id: int | str) -> int:
    """How many connections a user, or a signed-out address, may keep open."""
    if isinstance(user_id, str):
        return int(settings.GAMES_WS_CONNECTIONS_PER_ADDRESS)
    return int(settings.GAMES_WS_CONNECTIONS_PER_USER)


def connection_refresh_on(pipe: Any, *, user_id: int | str, channel: str) -> None:
    """Queue on a Redis pipeline the refresh of the slot this connection holds (``ZADD XX``: only
    if it is there), to ride in a round trip the connection makes anyway (its heartbeat's,
    ``games.consumers``); :func:`connection_refreshed` reads the replies. A slot no longer there
    (expired and taken by another claim) is claimed again with :func:`connection_claim_async`,
    which counts. While the slot is there no claim since its refresh has dropped it, so the
    count it was admitted under still holds: the refresh is the script's answer without the script."""
    ttl = settings.GAMES_WS_SLOT_TTL
    key = _slot_key(user_id)
    pipe.zadd(key, {channel: time.time() + ttl}, xx=True, ch=True)
    pipe.expire(key, _slot_key_seconds(ttl))


def connection_refreshed(replies: list[Any]) -> bool:
    """Whether :func:`connection_refresh_on` found the slot and refreshed it."""
    return bool(replies[0])


def connections_limited() -> bool:
    """Whether connections are counted at all (a slot to keep fresh)."""
    return _on()


def connection_release(*, user_id: int | str, channel: str) -> None:
    _store().release(user_id, channel)


async def connection_release_async(*, user_id: int | str, channel: str) -> None:
    """:func:`connection_release` from an event loop, without a thread (a closing socket's)."""
    await _store().arelease(user_id, channel)


# --- refusals told ---------------------------------------------------------------------------

_told: dict[str, float] = {}
_full: dict[str, float] = {}


def refusal_told_recently(*, owner: str) -> bool:
    """Whether this process told the signed-out ``owner`` (:func:`address_owner`) within
    ``GAMES_WS_REFUSAL_QUIET`` seconds that it is past its connection limit: then a further
    refusal is a close before the handshake completes (HTTP 403), with no frame to build."""
    told = _told.get(owner)
    return told is not None and time.time() - told < settings.GAMES_WS_REFUSAL_QUIET


def refusal_note(*, owner: str) -> None:
    """Remember that ``owner`` was told now: at most 4096 addresses, expired ones dropped
    first, then the longest known."""
    _bounded_note(_told, owner, settings.GAMES_WS_REFUSAL_QUIET)


def _bounded_note(notes: dict[str, float], owner: str, keep: float) -> None:
    """``notes[owner] = now``, the dict held to 4096 owners: those older than ``keep`` seconds
    dropped first, then the longest known."""
    now = time.time()
    if len(notes) >= 4096:
        for stale in [o for o, t in notes.items() if now - t >= keep]:
            del notes[stale]
        while len(notes) >= 4096:
            del notes[next(iter(notes))]
    notes.pop(owner, None)  # re-inserted last: the longest known go first
    notes[owner] = now


def full_seen_recently(*, owner: str) -> bool:
    """Whether this process found the signed-out ``owner`` at its connection limit within
    ``GAMES_WS_FULL_REMEMBER`` seconds (:func:`full_note`)."""
    seen = _full.get(owner)
    return seen is not None and time.time() - seen < settings.GAMES_WS_FULL_REMEMBER


def full_note(*, owner: str) -> None:
    """Remember that ``owner`` was found full now (at most 4096 addresses, the longest known
    dropped first): a flood from one address costs one count read a second, not one a socket."""
    _bounded_note(_full, owner, settings.GAMES_WS_FULL_REMEMBER)


def refusals_forget() -> None:
    """Forget every refusal told and every address found full (a test's fresh start)."""
    _told.clear()
    _full.clear()


# --- expensive requests ----------------------------------------------------------------------

def request_allowance(*, user_id: int, name: str, limit: int, window: float) -> float | None:
    """Take one of the user's ``limit`` requests called ``name`` in the current ``window``
    (seconds): None when allowed, else the seconds until the window starts again."""
    if not _on():
        return None
    count, left = _store().window(f"rate:{name}:{user_id}", window)
    return None if count <= limit else max(left, 0.1)


async def request_allowance_async(*, user_id: int, name: str, limit: int, window: float) -> float | None:
    """:func:`request_allowance` from an event loop, without a thread (one Redis round trip,
    or none in the embedded mode)."""
    if not _on():
        return None
    count, left = await _store().awindow(f"rate:{name}:{user_id}", window)
    return None if count <= limit else max(left, 0.1)


def in_flight_take(*, user_id: int, name: str, ttl: float) -> bool:
    """At most one request called ``name`` of a user is worked on at a time (a lock that
    expires after ``ttl`` seconds should its holder die)."""
    if not _on():
        return True
    return _store().lock_take(f"busy:{name}:{user_id}", ttl)


def in_flight_drop(*, user_id: int, name: str) -> None:
    if _on():
        _store().lock_drop(f"busy:{name}:{user_id}")
