"""A watcher: a signed-in player's table socket without a seat (docs/PROTOCOL.md "Watchers"), as
the table page opens it (``?watchers=1``). At a private room it holds a pass, got by entering the
room's code on its page (bench/harness/rooms.py). It never sits: it reads every frame, checks each
state frame with :func:`bench.harness.checks.watcher_frame_problems`, and lives through a server's
crash as a bot does (reconnect with backoff to the next server, ping, ``sync`` when quiet).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.typing import Origin

from accounts.models import User
from bench.harness.checks import watcher_frame_problems
from bench.harness.client import HEARTBEAT_EVERY, SILENT_AFTER, SYNC_AFTER, backoff
from bench.harness.fleet import TablePlan, session_for
from bench.harness.rooms import http_url, room_enter


@dataclass
class Watcher:
    urls: list[str]
    table_id: int
    session: str
    room: bool  # the table is a private room (the watcher entered its code)
    stop: asyncio.Event
    rng: random.Random = field(default_factory=random.Random)
    url_index: int = 0
    frames: int = 0  # state frames checked
    in_play: int = 0  # of them, frames showing a hand in play
    counts: int = 0  # ``watchers`` frames heard
    reconnects: int = 0
    problems: list[str] = field(default_factory=list)  # hidden cards shown, refusals: failures

    async def run(self, deadline: float) -> None:
        """Watch until ``stop`` is set (or ``deadline``), reconnecting whenever the socket drops."""
        attempt = 0
        while not self.stop.is_set() and time.monotonic() < deadline:
            url = self.urls[self.url_index % len(self.urls)]
            try:
                ws = await websockets.connect(
                    f"{url}/ws/tables/{self.table_id}/?watchers=1",
                    additional_headers={"Cookie": f"sessionid={self.session}"},
                    origin=Origin(url.replace("ws", "http", 1)), open_timeout=10, close_timeout=2, max_size=2**22)
            except InvalidStatus as exc:  # refused before the socket opened (a room without its pass)
                if exc.response.status_code == 403:
                    self.problems.append(f"table {self.table_id}: watcher refused: {exc}")
                    return
                ws = None
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                ws = None
            if ws is None:
                attempt += 1
                self.url_index += 1
                await asyncio.sleep(backoff(attempt, self.rng))
                continue
            attempt = 0
            try:
                await self._session(ws)
            except ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code == 4403:
                    self.problems.append(f"table {self.table_id}: watcher closed with 4403")
                    return
            finally:
                await ws.close()
            if not self.stop.is_set():
                self.reconnects += 1
                attempt += 1
                await asyncio.sleep(backoff(attempt, self.rng))

    async def _session(self, ws: Any) -> None:
        heard = state_at = beat_at = time.monotonic()
        while not self.stop.is_set():
            now = time.monotonic()
            if now - heard > SILENT_AFTER:
                return
            if now - beat_at >= HEARTBEAT_EVERY:
                beat_at = now
                await ws.send(json.dumps({"type": "ping"}))
            if now - state_at > SYNC_AFTER:
                state_at = now
                await ws.send(json.dumps({"type": "sync"}))
            try:
                async with asyncio.timeout(1.0):
                    text = await ws.recv()
            except TimeoutError:
                continue
            heard = time.monotonic()
            if self._read(orjson.loads(text)) == "state":
                state_at = heard

    def _read(self, message: dict[str, Any]) -> str:
        kind = str(message.get("type"))
        if kind == "watchers":
            self.counts += 1
        elif kind == "state":
            self.frames += 1
            hand = message.get("hand")
            self.in_play += bool(hand and hand.get("status") == "active")
            self.problems += watcher_frame_problems(message)
        return kind


def watcher_user_session(n: int) -> str:
    """A signed-in session of the watcher account watcher-NNN (no coins: it never sits)."""
    user, _ = User.objects.get_or_create(username=f"watcher-{n:03d}", defaults={"display_name": f"Watcher {n}"})
    return session_for(user)


def watchers_open(plan: list[TablePlan], count: int, urls: list[str], stop: asyncio.Event | None = None,
                  stops: dict[int, asyncio.Event] | None = None) -> list[Watcher]:
    """``count`` watchers spread over the planned tables, rooms and public tables in turn (each
    room's watcher enters its code first); each stops with ``stop`` or its table's event in
    ``stops``."""
    rooms = [t for t in plan if t.room_code]
    public = [t for t in plan if not t.room_code]
    order = [t for pair in zip(rooms, public, strict=False) for t in pair]
    order += [t for t in (rooms + public) if t not in order]
    watchers = []
    for i in range(count if order else 0):
        table = order[i % len(order)]
        session = watcher_user_session(i + 1)
        if table.room_code:
            room_enter(base=http_url(urls[i % len(urls)]), session=session, code=table.room_code)
        event = stop if stop is not None else (stops or {}).get(table.table_id, asyncio.Event())
        watchers.append(Watcher(urls=urls, table_id=table.table_id, session=session, room=bool(table.room_code),
                                stop=event, rng=random.Random(f"watch:{table.table_id}:{i}"), url_index=i))
    return watchers


def watchers_line(watchers: list[Watcher]) -> str:
    rooms = sum(w.room for w in watchers)
    return (f"watchers {len(watchers)} ({rooms} at rooms): state frames checked {sum(w.frames for w in watchers)} "
            f"({sum(w.in_play for w in watchers)} with a hand in play), watcher counts heard "
            f"{sum(w.counts for w in watchers)}, reconnects {sum(w.reconnects for w in watchers)}")


def watchers_problems(watchers: list[Watcher]) -> list[str]:
    """Every watcher's problems; and none is vacuous: watchers that never saw a hand in play
    checked nothing."""
    problems = [p for w in watchers for p in w.problems]
    if watchers and not sum(w.in_play for w in watchers):
        problems.append("no watcher saw a hand in play")
    return problems
