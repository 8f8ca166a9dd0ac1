"""A bot: an ordinary client of the table WebSocket protocol (docs/PROTOCOL.md).

It joins with a buy-in, answers its own state frames with :func:`games.bots.policy.choose`,
sends heartbeats, and measures action-to-broadcast latency: from sending an action to the
first state frame whose version is newer than the one it acted on.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import websockets
from websockets.typing import Origin

from games.bots.policy import choose


@dataclass
class BotStats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    hands: set[int] = field(default_factory=set)


@dataclass
class Bot:
    url: str
    table_id: int
    session: str
    origin: str
    buy_in: int
    hands_wanted: int
    stats: BotStats
    rng: random.Random = field(default_factory=random.Random)
    pending: dict[str, tuple[float, int]] = field(default_factory=dict)
    acted: set[tuple[int, int, str]] = field(default_factory=set)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, deadline: float) -> None:
        headers = {"Cookie": f"sessionid={self.session}"}
        async with websockets.connect(
            f"{self.url}/ws/tables/{self.table_id}/", additional_headers=headers, origin=Origin(self.origin),
            open_timeout=20, max_size=2**22,
        ) as ws:
            await ws.send(json.dumps({"type": "join", "id": uuid.uuid4().hex, "buy_in": self.buy_in}))
            beat = asyncio.create_task(self._heartbeat(ws))
            try:
                await self._loop(ws, deadline)
                await ws.send(json.dumps({"type": "leave"}))
            finally:
                beat.cancel()

    async def _heartbeat(self, ws: Any) -> None:
        while True:
            await asyncio.sleep(5)
            await ws.send(json.dumps({"type": "ping"}))

    async def _loop(self, ws: Any, deadline: float) -> None:
        while not self.done.is_set():
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                self.stats.errors.append(f"table {self.table_id}: timed out")
                return
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=min(timeout, 30)))
            except TimeoutError:
                continue
            await self._handle(ws, message)

    async def _handle(self, ws: Any, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "error" and message.get("code") != "rate_limited":
            self.stats.errors.append(f"table {self.table_id}: {message['code']}: {message['message']}")
        elif kind == "state":
            self._measure(message["version"])
            await self._play(ws, message)

    def _measure(self, version: int) -> None:
        now = time.monotonic()
        for key, (sent, at_version) in list(self.pending.items()):
            if version > at_version:
                self.stats.latencies.append(now - sent)
                del self.pending[key]

    async def _play(self, ws: Any, frame: dict[str, Any]) -> None:
        hand = frame.get("hand")
        if hand and hand["status"] != "active" and hand["seat"] is not None:
            self.stats.hands.add(hand["id"])
            if len({h for h in self.stats.hands}) >= self.hands_wanted:
                self.done.set()
                return
        action = choose(frame, self.rng)
        if action is None or hand is None:  # choose() acts only on a hand: never None here
            return
        view = hand["view"]
        key = (hand["id"], view["phase_seq"], view["phase"])
        if key in self.acted:
            return
        self.acted.add(key)
        request_id = uuid.uuid4().hex
        self.pending[request_id] = (time.monotonic(), frame["version"])
        await ws.send(json.dumps({"type": "action", "id": request_id, "action": action}))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
