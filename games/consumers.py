"""The table WebSocket: authenticate, parse, call one service, send frames. Nothing else.

No frame closes the socket (docs/PROTOCOL.md): every message gets its answer or one ``error``
frame, and ``receive`` catches whatever a service or a bug raises. The only closes are the
documented ones: no such table (4404), a private room without its pass (4403,
``games.watching``), too many connections of the same user, or of the same address for
signed-out spectators (4429), and the player logged out (4401, ``accounts.sockets``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from functools import partial
from typing import Any, cast

from channels.consumer import get_handler_name
from django.conf import settings
from django.utils.translation import gettext as _

from accounts.sockets import CLOSE_LOGGED_OUT, stop_frame, user_group
from friends.online import online_enter, online_leave
from games import broadcast
from games.frames import frame_for
from games.groups import register_loop
from games.presence import Also
from games.protocol import BadMessage, Message, parse
from games.public_frames import public_frame_keep, public_frame_newest
from games.sent import sent_version_async
from games.services import commands, hints, limits, talk
from games.services.errors import PlayError
from games.services.limits import address_owner, connection_claim_async, connection_release_async
from games.services.presence import seat_closed_async, seat_heartbeat_async, seat_opened_async
from games.services.slots import slot_forget, slot_keep
from games.watching import WatchingMixin
from kernel import metrics
from kernel.client_ip import scope_client_ip
from kernel.db_threads import in_db_thread, in_seat_thread
from kernel.rows import json_text
from kernel.websocket import LocalizedWebsocketConsumer

log = logging.getLogger(__name__)

#: Close codes (docs/PROTOCOL.md "Limits"; 4404 and 4403 in ``games.watching``).
CLOSE_TOO_MANY_CONNECTIONS = 4429


class TokenBucket:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate > 0 else 1.0


class TableConsumer(WatchingMixin, LocalizedWebsocketConsumer):
    table_id: int
    user: Any
    slot: bool = False  # this connection holds one of the user's (or its address's) connection slots
    slot_owner: int | str = ""  # whom the slot counts against: the user's id, or the address's owner
    slot_refreshed: float = 0.0
    counted: bool = False  # this connection was accepted and counts as open
    grouped: bool = False  # this connection joined its table's group
    _authenticated: bool = False
    user_id: int | None = None  # the signed-in user's id, None for an anonymous spectator
    stopped: str | None = None  # why the player may no longer play, once told (accounts.sockets)
    rate_told_until: float = 0.0  # a signed-out socket told rate_limited is not answered before then
    seat: int | None = None  # the user's table seat, as the last frame sent showed it (table talk)

    async def connect(self) -> None:
        register_loop(asyncio.get_running_loop())
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        # Read once: the scope's user is a lazy object, slow to ask on every frame.
        self._authenticated = bool(self.user is not None and self.user.is_authenticated)
        self.user_id = self.user.pk if self._authenticated else None
        self.bucket = (TokenBucket(settings.GAMES_WS_RATE, settings.GAMES_WS_BURST) if self._authenticated
                       else TokenBucket(settings.GAMES_WS_ANON_RATE, settings.GAMES_WS_ANON_BURST))
        self.version = -1  # the newest state version sent on this connection
        self.away = False  # the last frame sent showed this player's seat away
        # The slot first: a socket past its count is refused without database or group work.
        claimed = await self._claim_slot()
        if not claimed and self.user_id is None and limits.refusal_told_recently(owner=str(self.slot_owner)):
            # told why already; the slot the gate saw free was taken since: no handshake (games/gate.py)
            await self.close(code=CLOSE_TOO_MANY_CONNECTIONS)
            return
        if claimed and not await self._may_connect():  # no such table, or a private room
            await self._release_slot()
            return
        await self.accept()
        self.counted = True
        metrics.socket_opened("table")
        if not claimed:
            await self._too_many_connections()
            return
        self.grouped = True
        await self.channel_layer.group_add(broadcast.table_group(self.table_id), self.channel_name)
        if self.user_id is None:
            await self._send_snapshot()
            await self._watch(True)
            return
        await self.channel_layer.group_add(user_group(self.user_id), self.channel_name)
        await online_enter(user_id=self.user_id, channel=self.channel_name)
        # the first heartbeat; a new connection may be a seat marked away coming back: the
        # snapshot's own rows show it
        frame = await seat_opened_async(table_id=self.table_id, user=self.user)
        await self._send_state(frame, force=True)
        await self._watch(frame["you"] is None)

    async def disconnect(self, code: int) -> None:
        if self.counted:
            self.counted = False
            metrics.socket_closed("table")
        if not hasattr(self, "table_id"):
            return
        await self._release_slot()
        if not self.grouped:
            return
        await self._watch(False)
        if self.user_id is not None:  # the seat counts as gone until its next heartbeat
            await seat_closed_async(table_id=self.table_id, user_id=self.user_id)
        await self.channel_layer.group_discard(broadcast.table_group(self.table_id), self.channel_name)
        if self.user_id is not None:
            await self.channel_layer.group_discard(user_group(self.user_id), self.channel_name)
            await online_leave(user_id=self.user_id, channel=self.channel_name)

    # --- the per-user connection limit ---------------------------------------------------------
    async def _claim_slot(self) -> bool:
        """Claim (or refresh) this connection's slot among the user's open connections, or a
        signed-out one's among its address's; the server keeps a claimed slot fresh itself
        (games/services/slots.py), however long the client stays silent."""
        if not self.slot_owner:
            address = scope_client_ip(cast("dict[str, Any]", self.scope))
            self.slot_owner = self.user_id if self.user_id is not None else address_owner(address)
        self.slot = await connection_claim_async(user_id=self.slot_owner, channel=self.channel_name)
        self.slot_refreshed = time.monotonic()
        if self.slot:
            slot_keep(owner=self.slot_owner, channel=self.channel_name, lost=self._too_many_connections)
        return self.slot

    async def _release_slot(self) -> None:
        if self.slot:
            self.slot = False
            slot_forget(channel=self.channel_name)
            await connection_release_async(user_id=self.slot_owner, channel=self.channel_name)

    async def _too_many_connections(self) -> None:
        if self._authenticated:
            message = _("You have %(n)d table connections open already: close one (another tab or device) first.") % {
                "n": settings.GAMES_WS_CONNECTIONS_PER_USER}
        else:
            message = _("Too many table connections from your address (%(n)d): close one, or log in.") % {
                "n": settings.GAMES_WS_CONNECTIONS_PER_ADDRESS}
            limits.refusal_note(owner=str(self.slot_owner))
        await self._error(None, "too_many_connections", message)
        await self.close(code=CLOSE_TOO_MANY_CONNECTIONS)

    def _slot_due(self) -> bool:
        return time.monotonic() - self.slot_refreshed >= settings.GAMES_WS_SLOT_TTL / 6

    async def _refresh_slot(self) -> bool:
        """Keep the slot alive while the client talks (its heartbeats); a connection whose slot
        expired and cannot be claimed again is closed like an extra one."""
        if not self._slot_due():
            return True
        if await self._claim_slot():
            return True
        await self._too_many_connections()
        return False

    # --- messages ------------------------------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """One frame in, one answer out; never raises (a failure is a ``server_error`` frame)."""
        try:
            await self._receive(text_data)
        except Exception:
            log.exception("table %s: a frame could not be handled", getattr(self, "table_id", None))
            try:
                await self._error(None, "server_error", _("Something went wrong on our side; nothing was changed."))
            except Exception:
                log.exception("table %s: could not send the error frame", getattr(self, "table_id", None))

    async def _receive(self, text_data: str | None) -> None:
        if not self.bucket.take():
            # A signed-out socket is told once per wait; what it sends before the wait is over
            # goes unanswered, so a flood costs the server no frame per message.
            now = time.monotonic()
            if self._authenticated or now >= self.rate_told_until:
                wait = self.bucket.wait()
                self.rate_told_until = now + wait
                await self._error(
                    None, "rate_limited", _("Too many messages: slow down (limit per second exceeded)."),
                    retry_after=round(wait, 1),
                )
            return
        try:
            message = parse(text_data)
        except BadMessage as exc:
            await self._error(exc.client_id, exc.code, str(exc))
            return
        if message.type == "ping":
            await self._ping()
            return
        if self._authenticated and not await self._refresh_slot():
            return
        if message.type == "sync":
            await self._send_snapshot()
            return
        if not self._authenticated:
            await self._error(message.id, "login_required", _("Log in to play."))
            return
        if not await self._may_play(message):
            return
        await self._call(message)

    async def _may_play(self, message: Message) -> bool:
        """After a stop only leaving is answered."""
        if self.stopped is not None and message.type != "leave":
            await self._send({**stop_frame(self.stopped), "id": message.id})
            return False
        return True

    async def _ping(self) -> None:
        """The heartbeat, and the slot's refresh when due in the same Redis round trip (a slot
        that was gone, or the embedded mode's, is claimed as any other message would)."""
        user, user_id = (self.user, self.user_id) if self._authenticated else (None, None)
        also = None
        if user_id is not None and self._slot_due() and limits.connections_limited():
            also = partial(limits.connection_refresh_on, user_id=user_id, channel=self.channel_name)
        version, replies = await _heartbeat(self.table_id, user, self.away, also)
        await self._watch_refresh()
        if also is not None:
            if replies is not None and limits.connection_refreshed(replies):
                self.slot_refreshed = time.monotonic()
            elif not await self._refresh_slot():
                return
        await self._send({"type": "pong", "t": time.time(), "version": version})

    async def _call(self, message: Message) -> None:
        try:
            if message.type == "hint":
                reply: dict[str, Any] = {"hints": await hints.hint_for(table_id=self.table_id, user=self.user)}
            elif message.type == "talk":  # no database: the seat is the last frame's
                reply = await talk.talk_say(table_id=self.table_id, user_id=self.user.pk, seat=self.seat,
                                            say=message.data["say"])
            else:
                # Requests at different tables run in parallel in the database threads (each thread
                # has its own pooled connection); the table row lock orders requests at one table.
                # A seat change takes its own lane, so a burst of them never holds up the actions.
                lane = in_db_thread if message.type == "action" else in_seat_thread
                reply = await lane(commands.dispatch, self.table_id, self.user, message, self._session_key())
        except PlayError as exc:
            if exc.code == "logged_out":  # the socket's session logged out: its stop may be on its way
                return await self._stop("logged_out", message.id)
            await self._error(message.id, exc.code, str(exc), retry_after=getattr(exc, "retry_after", None))
            return
        except Exception:
            log.exception("table %s: %s failed", self.table_id, message.type)
            await self._error(message.id, "server_error", _("Something went wrong on our side; nothing was changed."))
            return
        await self._send({"type": "ack", "id": message.id, "for": message.type, **reply})

    def _session_key(self) -> str | None:
        """The socket's session key (a join or top-up is refused once it logged out); None for a
        socket made in process, with no session to lose."""
        session = self.scope.get("session")
        return None if session is None else (getattr(session, "session_key", None) or "")

    async def _send_snapshot(self) -> None:
        if self.user_id is not None:
            await self._send_state(await in_db_thread(frame_for, self.table_id, self.user_id), force=True)
            return
        # A spectator's snapshot is the table's public frame: the newest this process holds when
        # it is as new as the last broadcast (games/public_frames.py), else read and kept.
        kept = public_frame_newest(table_id=self.table_id, at_least=await _sent_version(self.table_id))
        if kept is None:
            frame = await in_db_thread(frame_for, self.table_id, None)
            kept = int(frame["version"]), json_text(frame)
            public_frame_keep(table_id=self.table_id, version=kept[0], text=kept[1])
        self.version = max(self.version, kept[0])
        await self._send_text(kept[1])

    async def _send_state(self, frame: dict[str, Any], force: bool = False) -> None:
        """Versions only go forward on a connection: a frame older than one already sent
        (delivered late by the channel layer) is dropped; a snapshot is always sent."""
        if frame["version"] < self.version and not force:
            return
        self.version = max(self.version, frame["version"])
        if self._authenticated:  # the seat marked away: the next heartbeat brings it back
            self.away = any(s["user"] == self.user_id and s["auto"] for s in frame.get("seats", ()))
            self.seat = frame.get("you")
        await self._send(frame)

    async def _send(self, payload: dict[str, Any]) -> None:
        await self._send_text(json_text(payload))

    async def _send_text(self, text: str) -> None:
        try:
            await self.send(text_data=text)
        except OSError:  # the client is gone (uvicorn's ClientDisconnected): nobody to answer
            log.debug("table %s: the client left before its answer", getattr(self, "table_id", None))

    async def _error(self, client_id: str | None, code: str, message: str, retry_after: float | None = None) -> None:
        frame: dict[str, Any] = {"type": "error", "id": client_id, "code": code, "message": message}
        if retry_after is not None:
            frame["retry_after"] = retry_after
        await self._send(frame)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, less its ``close_old_connections`` before every handler: that is a
        hop to the shared sync thread for each frame in or out (an eighth of a server's CPU under
        load in bench/live_load.sh), and needless here, where every database call runs in
        ``kernel.db_threads.in_db_thread``, which closes stale connections in the thread that uses them."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # --- group events ------------------------------------------------------------------------
    async def table_frames(self, event: dict[str, Any]) -> None:
        """A change's state frames (``games.broadcast.frames_event``): this user's own frame if
        the change has one, else the public one, sent as it came (encoded once by its sender);
        a frame older than one already sent is dropped (``_send_state``)."""
        if event["table"] != self.table_id:
            return
        public_frame_keep(table_id=self.table_id, version=event["version"], text=event["public"])
        if event["version"] < self.version:
            return
        text, away, seat, seated = event["public"], False, None, False
        if self._authenticated:
            for user, own, seat_away, *facts in event["private"]:  # facts: the seat, where the sender gives it
                if user == self.user_id:
                    text, away, seat, seated = own, seat_away, facts[0] if facts else None, True
                    break
            self.away, self.seat = away, seat
        self.version = event["version"]
        await self._send_text(text)
        await self._watch_seated(seated)

    async def table_talk(self, event: dict[str, Any]) -> None:
        """A seated player's phrase or emote (``games.services.talk``), sent on as it came."""
        if event["table"] == self.table_id:
            await self._send_text(event["text"])

    async def account_stop(self, event: dict[str, Any]) -> None:
        """The player may no longer play (banned, logged out, self-excluded, cooling off): told
        why, in the socket's language; after a log-out the socket closes."""
        if self.user_id is not None:
            await self._stop(event["reason"])

    async def _stop(self, reason: str, request_id: str | None = None) -> None:
        """Only leaving is answered from now on; the player is told why, a logged-out socket closes."""
        self.stopped = reason
        await self._send({**stop_frame(reason), "id": request_id})
        if reason == "logged_out":
            await self.close(code=CLOSE_LOGGED_OUT)

    async def friend_invite(self, event: dict[str, Any]) -> None:
        """A friend's invitation is a lobby notice (``friends.invitations``): the table page shows none."""

    async def table_notice(self, event: dict[str, Any]) -> None:
        """A notice to this user (a seat removed, and why). No snapshot with it: every removal is
        a change at the table, whose state frames this connection hears as the table group's."""
        if event["table"] != self.table_id:
            return
        await self._send({"type": "notice", **event["notice"]})


async def _heartbeat(
    table_id: int, user: Any, away: bool, also: Also | None = None
) -> tuple[int | None, list[Any] | None]:
    """Record a player's heartbeat (games/presence.py; ``away``: the seat came back); the newest
    version broadcast for the table, which a client that has not seen it asks for
    (docs/PROTOCOL.md "Client obligations"), and the replies to ``also``'s commands sent in the
    same round trip (None: not sent). On the event loop: a thread only when the database must
    hear of it."""
    if user is not None:
        return await seat_heartbeat_async(table_id=table_id, user=user, away=away, also=also)
    return await _sent_version(table_id), None


async def _sent_version(table_id: int) -> int | None:
    """The table's last broadcast version (``games.sent``); None when it cannot be read."""
    try:
        return await sent_version_async(table_id)
    except Exception:  # noqa: BLE001 - a pong or a spectator's sync never fails for its bookkeeping
        return None

