"""A bot: an ordinary client of the table WebSocket protocol (docs/PROTOCOL.md), and the model
of how a client lives through a server's crash.

It joins with a buy-in, answers its own state frames with :func:`bench.harness.policy.choose`,
sends heartbeats, and measures action-to-broadcast latency: from sending an action to the
first state frame whose version is newer than the one it acted on.

When the connection drops (a server killed, a restart) it reconnects with capped exponential
backoff and jitter, trying the next server URL each time, like the browser's socket
(``static/js/ct-core.js``). The snapshot the server sends on connect is the whole truth: the
bot re-sends an action whose ack never came with the *same* id (the server answers a repeat
``duplicate``), joins again only if the snapshot shows it unseated, and carries on. A silent
connection is dropped, and a table that shows nothing new for a while is asked for a ``sync``.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

from bench.harness.pending import Pending
from bench.harness.policy import between_sets, choose
from bench.harness.rooms import owner_request
from bench.harness.stats import BotStats

#: Backoff of reconnects: 0.25 s doubling up to 5 s, each delay scaled by a jitter of 60-100 %.
BACKOFF_FIRST, BACKOFF_CAP = 0.25, 5.0
HEARTBEAT_EVERY = 5.0
#: Nothing at all heard for this long (pongs come every 5 s): the connection is dead, reconnect.
SILENT_AFTER = 15.0
#: No state frame for this long while seated: ask for a snapshot.
SYNC_AFTER = 10.0
#: A pong's version ahead of the last state frame this long: the frame was lost, ask for it.
BEHIND_FOR = 2.0
#: An action refused with ``server_error`` (the database was away) is re-sent after this long.
RESEND_AFTER = 1.0
#: Refusals of an action that was re-sent after an outage: the hand moved on meanwhile (the
#: timer played the seat, or the hand ended); the snapshot says what happened instead.
OUTAGE_REFUSALS = frozenset({"illegal", "no_hand", "not_seated"})
#: Refusals the server sends while it cannot do anything: retried, not failures.
TRANSIENT = frozenset({"server_error", "rate_limited"})
#: A first-time action refused with one of OUTAGE_REFUSALS is judged this long after: if the
#: table has moved past the phase it was chosen in by then, the bot acted on a state that an
#: outage had kept from it (the timer had played the seat): recovered. Else it is a failure.
JUDGE_AFTER = 3.0


def backoff(attempt: int, rng: random.Random) -> float:
    """Seconds before reconnect ``attempt`` (1, 2, …): capped doubling with jitter."""
    return float(min(BACKOFF_CAP, BACKOFF_FIRST * 2 ** (attempt - 1)) * rng.uniform(0.6, 1.0))


@dataclass
class Bot:
    urls: list[str]
    table_id: int
    session: str
    origin: str  # the page origin sent; "" = the server's own (http://host:port of the URL)
    buy_in: int
    hands_wanted: int  # 0: play until ``stop`` is set
    stats: BotStats
    rng: random.Random = field(default_factory=random.Random)
    stop: asyncio.Event = field(default_factory=asyncio.Event)  # wind down: end the set, leave
    done: asyncio.Event = field(default_factory=asyncio.Event)
    url_index: int = 0
    start_after: float = 0.0  # seconds from the run's start before it first connects (a ramp)
    room_owner: bool = False  # it opened its table, a private room: it starts it and closes it
    room_asked: tuple[str, int] | None = None  # the last room request sent, and the version it answered
    connected_to: str | None = None  # the server URL of the live connection, if any
    connection: int = 0  # serial number of the live connection
    pending: dict[str, Pending] = field(default_factory=dict)
    #: Actions forgotten unanswered because a frame showed their phase over: a refusal that
    #: comes for one later says what the frame said already (the timer played the seat).
    overtaken: deque[str] = field(default_factory=lambda: deque(maxlen=64))
    unmeasured: list[Pending] = field(default_factory=list)  # acknowledged, no newer frame seen yet
    acted: set[tuple[int, int, str]] = field(default_factory=set)
    join_id: str | None = None
    join_sent: bool = False
    leave_id: str | None = None
    leave_sent: bool = False
    last_state: float = 0.0
    last_heard: float = 0.0
    last_sync: float = 0.0
    last_hand: tuple[int, int, str, str] | None = None  # (hand id, phase_seq, phase, status) last seen
    doubtful: list[tuple[float, tuple[int, int, str], str]] = field(default_factory=list)
    think_max: float = 0.0  # seconds of thought before an action, at most (uniformly random)
    jitter: float = 0.0  # seconds a received frame waits before it is read, at most (a slow client)
    client_sync: bool = True  # ask for a snapshot after SYNC_AFTER without a state frame
    seen_version: int = -1  # the newest table version of a state frame received
    pong_version: int = -1  # the newest version a pong said was broadcast, and when it said so
    pong_at: float = 0.0
    pong_asked: int = -1  # the pong version a sync was last sent for
    #: The last frames received: (monotonic time, type, version, hand phase), for a stall's dump.
    frames: deque[tuple[float, str, int | None, str]] = field(default_factory=lambda: deque(maxlen=10))

    # --- connection ------------------------------------------------------------------------

    async def run(self, deadline: float) -> None:
        """Play until the hands are seen and the bot has left (or, with ``hands_wanted`` 0,
        until ``stop`` is set and it has left), reconnecting whenever the connection is
        lost; give up at ``deadline``."""
        try:
            await self._run(deadline)
        finally:
            self._judge(final=True)

    async def _run(self, deadline: float) -> None:
        attempt, offline_since = 0, None
        while not self.done.is_set():
            if time.monotonic() >= deadline:
                self.stats.errors.append(f"table {self.table_id}: timed out")
                return
            url = self.urls[self.url_index % len(self.urls)]
            try:
                ws = await self.connect(url)
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                self.stats.saw("connect_failed")
                attempt += 1
                self.url_index += 1  # the next server, as a proxy routes around a dead one
                await asyncio.sleep(min(backoff(attempt, self.rng), max(0.0, deadline - time.monotonic())))
                continue
            if offline_since is not None:
                self.stats.offline += time.monotonic() - offline_since
                self.stats.reconnects += 1
            attempt = 0
            try:
                await self._session(ws, url, deadline)
            except ConnectionClosed:
                pass
            finally:
                self.connected_to = None
                await ws.close()
            if not self.done.is_set():
                offline_since = time.monotonic()
                attempt += 1
                await asyncio.sleep(backoff(attempt, self.rng))

    async def connect(self, url: str) -> Any:
        """A WebSocket to the table on the server at ``url``."""
        return await websockets.connect(
            f"{url}/ws/tables/{self.table_id}/", additional_headers={"Cookie": f"sessionid={self.session}"},
            origin=Origin(self.origin or url.replace("ws", "http", 1)), open_timeout=10, close_timeout=2,
            max_size=2**22,
        )

    async def _session(self, ws: Any, url: str, deadline: float) -> None:
        self.connection, self.connected_to = self.connection + 1, url
        self.last_heard = self.last_state = time.monotonic()
        self.join_sent = self.leave_sent = False
        self.unmeasured.clear()  # a snapshot after a reconnect is no answer to them
        for item in self.pending.values():  # the snapshot decides whether to send them again
            item.resend_at = None
        beat = asyncio.create_task(self._heartbeat(ws))
        try:
            while not self.done.is_set():
                now = time.monotonic()
                if now >= deadline:
                    self.stats.errors.append(f"table {self.table_id}: timed out")
                    self.done.set()
                    return
                if now - self.last_heard > SILENT_AFTER:
                    return  # a dead connection: reconnect
                try:
                    async with asyncio.timeout(1.0):  # no task per frame, as wait_for makes
                        text = await ws.recv()
                except TimeoutError:
                    await self._tick(ws)
                    continue
                self.last_heard = time.monotonic()
                if self.jitter:
                    await asyncio.sleep(self.rng.uniform(0, self.jitter))
                await self._handle(ws, orjson.loads(text))
                await self._tick(ws)
        finally:
            beat.cancel()

    async def _heartbeat(self, ws: Any) -> None:
        while True:
            await ws.send(json.dumps({"type": "ping"}))
            await asyncio.sleep(HEARTBEAT_EVERY)

    async def _tick(self, ws: Any) -> None:
        """Re-send actions whose refusal was transient; ask for a snapshot when the table
        has shown nothing new for a while."""
        now = time.monotonic()
        for request_id, item in list(self.pending.items()):
            if item.resend_at is not None and now >= item.resend_at:
                await self._send_action(ws, request_id, item)
        self._judge(final=False)
        # Asked: what happened instead of a doubtful refusal, every second until judged (a snapshot
        # may fail, the database restarting, or its frames go missing); the frame a pong says was
        # lost on its way, once per version (a record ahead of a restored database stays ahead);
        # anything, when the table has shown nothing new for a while.
        behind = self.client_sync and self.pong_version > max(self.seen_version, self.pong_asked) \
            and now - self.pong_at > BEHIND_FOR and now - self.last_sync > BEHIND_FOR
        quiet = self.client_sync and now - self.last_state > SYNC_AFTER and now - self.last_sync > SYNC_AFTER
        if (self.doubtful and now - self.last_sync > 1) or behind or quiet:
            self.last_sync, self.pong_asked = now, self.pong_version if behind else self.pong_asked
            self.stats.syncs += 1
            await ws.send(json.dumps({"type": "sync"}))

    # --- frames ----------------------------------------------------------------------------

    async def _handle(self, ws: Any, message: dict[str, Any]) -> None:
        kind = message["type"]
        self._remember(message)
        if kind == "error" and str(message.get("id") or "").startswith("room-"):
            self.stats.saw(message.get("code", "?"))  # a room request refused: the next frame asks again
        elif kind == "error":
            self._refused(message)
        elif kind == "ack":
            acked = self.pending.pop(message.get("id") or "", None)
            if acked is not None and message.get("status") == "duplicate":
                self.stats.duplicates += 1
            elif acked is not None and not acked.measured and not acked.resent:
                self.unmeasured.append(acked)  # the ack may come before the frame: still timed
            if message.get("for") == "leave" and message.get("left"):
                self.done.set()
        elif kind == "pong" and isinstance(message.get("version"), int) and message["version"] > self.pong_version:
            self.pong_version, self.pong_at = message["version"], time.monotonic()
        elif kind == "notice" and message.get("event") == "removed":
            self._removed(str(message.get("reason", "")))
        elif kind == "state":
            self.last_state = time.monotonic()
            self.stats.state_at.append(self.last_state)
            self._measure(message["version"])
            await self._play(ws, message)

    def _removed(self, reason: str) -> None:
        """The table took the seat away (too little table money for the next hand): sit down again,
        with a new buy-in, at the next snapshot (else a table left with too few players would never
        deal again); not when the bot asked to leave, nor at a closed table."""
        if reason not in ("left", "table_closed"):
            self.join_sent = False

    def _remember(self, message: dict[str, Any]) -> None:
        version = message.get("version") if message["type"] == "state" else None
        hand = message.get("hand") or {}
        phase = f"{hand.get('status', '')} {(hand.get('view') or {}).get('phase', '')}".strip() if hand else ""
        if message["type"] == "state":
            self.seen_version = max(self.seen_version, int(message["version"]))
        self.stats.frames[message["type"]] += 1
        self.frames.append((time.monotonic(), message.get("code") or message["type"], version, phase))

    def _refused(self, message: dict[str, Any]) -> None:
        """Every error frame is counted by code; only one the bot does not get past is a
        failure: a transient one is retried with the same id, and a refusal of an action it
        re-sent after an outage means the hand moved on meanwhile."""
        code, request_id = message.get("code", "?"), message.get("id") or ""
        self.stats.saw(code)
        if request_id and request_id == self.join_id:
            if code in TRANSIENT:
                self.join_sent = False  # join again, same id, with the next snapshot
            elif code != "already_seated":
                self.stats.errors.append(f"table {self.table_id}: join: {code}: {message.get('message')}")
            return
        if request_id and request_id == self.leave_id:
            if code in TRANSIENT:
                self.leave_sent = False  # leave again, same id, with the next frame
            elif code == "not_seated":
                self.done.set()  # unseated first (too little table money): what the leave asked for
            else:
                self.stats.errors.append(f"table {self.table_id}: leave: {code}: {message.get('message')}")
            return
        item = self.pending.get(request_id)
        if item is None:
            if code not in TRANSIENT and not (code in OUTAGE_REFUSALS and request_id in self.overtaken):
                self.stats.errors.append(f"table {self.table_id}: {code}: {message.get('message')}")
            return
        if code in TRANSIENT:
            item.resend_at = time.monotonic() + RESEND_AFTER * self.rng.uniform(0.5, 1.5)
            return
        del self.pending[request_id]
        text = f"table {self.table_id}: {code}: {message.get('message')}"
        if code not in OUTAGE_REFUSALS:
            self.stats.errors.append(text)
        elif not item.resent and code != "no_hand":  # no hand in play: it has ended, by definition
            self.doubtful.append((time.monotonic(), item.key, text))

    def _judge(self, *, final: bool) -> None:
        """Settle the doubtful refusals: recovered once the table has moved past their phase,
        failures if it has not within JUDGE_AFTER seconds (or by the end)."""
        now, keep = time.monotonic(), []
        for at, key, text in self.doubtful:
            last = self.last_hand
            moved_on = last is not None and (last[:3] != key or last[3] != "active")
            if moved_on:
                continue
            if final or now - at > JUDGE_AFTER:
                self.stats.errors.append(text)
            else:
                keep.append((at, key, text))
        self.doubtful = keep

    def _measure(self, version: int) -> None:
        """Time each action sent (acknowledged or not) to the first state frame past the
        version it acted on."""
        now = time.monotonic()
        for item in [*self.pending.values(), *self.unmeasured]:
            if version > item.version and not item.measured and not item.resent:
                self.stats.latencies.append(now - item.sent_at)
                self.stats.latency_sent.append(item.sent_at)
                item.measured = True
        self.unmeasured = [item for item in self.unmeasured if not item.measured]

    async def _play(self, ws: Any, frame: dict[str, Any]) -> None:
        hand = frame.get("hand")
        if hand is not None:
            view = hand.get("view") or {}
            self.last_hand = (hand["id"], view.get("phase_seq", -1), view.get("phase", ""), hand["status"])
        elif self.last_hand is not None:  # no hand at the table: the last one seen is over
            self.last_hand = (*self.last_hand[:3], "ended")
        if frame.get("you") is not None:
            self.join_id = None  # seated: a later join (after a removal) is a new request
        elif self.stop.is_set():  # not seated, winding down: nothing left to finish but a join sent
            if self.join_id is None or not self.join_sent or self.leave_sent:
                self.done.set()
            else:  # answered after the join on this connection: a seat the join gets goes too
                await self._leave(ws)
            return
        else:
            await self._join(ws)
        if hand and hand["status"] != "active" and hand["seat"] is not None:
            (self.stats.voided if hand["status"] == "voided" else self.stats.hands).add(hand["id"])
            self.stats.first_end.setdefault(self.table_id, time.monotonic())
            if self.hands_wanted and len(self.stats.hands | self.stats.voided) >= self.hands_wanted:
                self.stop.set()  # the table winds down (its bots share the event)
                self.stats.wind_down.setdefault(self.table_id, time.monotonic())
        await self._resume(ws, hand)
        if self.room_owner:
            await self._room(ws, frame)
        if self.stop.is_set() and frame.get("you") is not None and between_sets(hand):
            await self._leave(ws)
            return
        await self._act(ws, frame)

    async def _act(self, ws: Any, frame: dict[str, Any]) -> None:
        """Choose and send this frame's move, once per phase of a hand in play."""
        hand = frame.get("hand")
        if hand is None or hand["status"] != "active":
            return
        view = hand["view"]
        key = (hand["id"], view["phase_seq"], view["phase"])
        if key in self.acted:  # asked before the move is chosen: choosing is the bot's dearest work
            return
        action = choose(frame, self.rng)
        if action is None:
            return
        self.acted.add(key)
        if self.think_max:
            await asyncio.sleep(self.rng.uniform(0, self.think_max))
        request_id = uuid.uuid4().hex
        item = Pending(action=action, key=key, version=frame["version"])
        self.pending[request_id] = item
        await self._send_action(ws, request_id, item)

    async def _room(self, ws: Any, frame: dict[str, Any]) -> None:
        ask = owner_request(frame, stopping=self.stop.is_set() and between_sets(frame.get("hand")))
        if ask is not None and (ask, frame["version"]) != self.room_asked:
            self.room_asked = (ask, frame["version"])
            await ws.send(json.dumps({"type": ask, "id": f"room-{uuid.uuid4().hex}"}))

    async def _join(self, ws: Any) -> None:
        if self.join_sent:
            return
        self.join_id = self.join_id or uuid.uuid4().hex  # the same id until the snapshot shows a seat
        self.join_sent = True
        await ws.send(json.dumps({"type": "join", "id": self.join_id, "buy_in": self.buy_in}))

    async def _leave(self, ws: Any) -> None:
        if not self.leave_sent:
            self.leave_sent, self.leave_id = True, self.leave_id or uuid.uuid4().hex
            await ws.send(json.dumps({"type": "leave", "id": self.leave_id}))

    async def _resume(self, ws: Any, hand: dict[str, Any] | None) -> None:
        """Send an action again, with its id, if its ack never came on an earlier connection
        and its phase is still on; forget it once the hand has moved on (the snapshot shows
        what happened instead)."""
        for request_id, item in list(self.pending.items()):
            current = (
                hand is not None and hand["id"] == item.key[0] and hand["status"] == "active"
                and (hand["view"]["phase_seq"], hand["view"]["phase"]) == item.key[1:]
            )
            if not current:
                del self.pending[request_id]
                self.overtaken.append(request_id)
            elif item.connection != self.connection and item.resend_at is None:
                await self._send_action(ws, request_id, item)

    async def _send_action(self, ws: Any, request_id: str, item: Pending) -> None:
        if item.connection:
            item.resent += 1
            self.stats.resent += 1
        item.sent_at, item.resend_at, item.connection = time.monotonic(), None, self.connection
        await ws.send(json.dumps({"type": "action", "id": request_id, "action": item.action}))
