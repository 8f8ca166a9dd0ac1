"""Channels' Redis pub/sub channel layer, reading its subscriptions through a lean reader.

``channels_redis.pubsub.RedisPubSubChannelLayer`` reads every message through redis-py's
asyncio ``PubSub.get_message``, polled every 0.1 s: a retry wrapper, a timeout context, health
checks and an observability hook around each read. A server reads one message per change at
every table it holds a connection at, so that reading would be a tenth of its CPU, and it polls
while idle. Here each server process reads its subscriptions from one plain asyncio stream to
Redis: the replies parsed by hiredis (redis-py's own C parser), each message handed to the local
channels as the layer does, and nothing read while nothing arrives.

Everything else is the layer's own: publishing, groups, channels, serialisation. A connection
Redis drops (a restart) is made again, with every channel and group subscribed again, after a
short pause that doubles up to a second; what was published meanwhile is lost, as with the
layer's own reader (the watchdog rebroadcasts a table whose frames did not go out, and clients
resync on reconnect, docs/ARCHITECTURE.md "When a process dies").

Only a plain ``redis://`` address is read this way (password and user included); anything
else (TLS, a Unix socket, Sentinel) keeps the layer's own reader.

Benchmark ``bench/channel_layer.py`` (two channels in one group, 3 KB messages): idle, 0.1 ms of
CPU a second against the layer's own 3.5; a message every 10 ms, 468 µs a message against 572;
back to back, 72 µs against 109.

Written against channels-redis's private parts: ``pubsub.RedisSingleShardConnection`` (its
``_lock``, ``_subscribed_to``, ``_receive_task``, ``_receive_message``),
``pubsub.RedisPubSubLoopLayer._shards``, ``RedisPubSubChannelLayer._get_layer`` / ``_layers`` /
``_args`` / ``_kwargs`` and ``utils._wrap_close``; and, for the broadcasts a thread publishes
itself (games/groups.py, :func:`pubsub_publish_target`), the names ``group_send`` publishes a
group's messages under.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any
from urllib.parse import unquote, urlparse

import hiredis
from channels_redis import pubsub  # type: ignore[import-untyped]
from channels_redis.utils import _wrap_close, decode_hosts  # type: ignore[import-untyped]

#: The versions this module was written and measured against (a test compares the installed ones).
WRITTEN_FOR = {"channels-redis": "4.3.0", "hiredis": "3.5.0"}

log = logging.getLogger(__name__)

#: The first pause before connecting again, doubled up to RETRY_CAP.
RETRY_FIRST, RETRY_CAP = 0.05, 1.0


def _command(*parts: str | bytes) -> bytes:
    """A Redis command in RESP."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


class LeanShardConnection(pubsub.RedisSingleShardConnection):  # type: ignore[misc]
    """One Redis of the layer: its publishing as the layer's own, its subscriptions read by
    :meth:`_read_forever` from a stream of their own."""

    _subscribed_to: set[str]
    _receive_task: asyncio.Task[None] | None

    def __init__(self, host: dict[str, Any], channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        url = urlparse(host["address"])
        self._endpoint = (url.hostname or "localhost", url.port or 6379)
        self._auth = [unquote(p) for p in (url.username, url.password) if p]
        self._writer: asyncio.StreamWriter | None = None

    async def subscribe(self, channel: str) -> None:
        async with self._lock:
            if channel not in self._subscribed_to:
                self._subscribed_to.add(channel)
                self._start_reading()
                self._send(_command("SUBSCRIBE", channel))

    async def unsubscribe(self, channel: str) -> None:
        async with self._lock:
            if channel in self._subscribed_to:
                self._subscribed_to.remove(channel)
                self._send(_command("UNSUBSCRIBE", channel))

    async def flush(self) -> None:
        async with self._lock:
            task, self._receive_task = self._receive_task, None
            if task is not None:
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass
            self._close()
            self._subscribed_to = set()
        await super().flush()  # the publishing client

    def _send(self, data: bytes) -> None:
        """Write to the live subscription stream; with none, the next connection subscribes to
        everything anyway."""
        if self._writer is not None and not self._writer.is_closing():
            self._writer.write(data)

    def _start_reading(self) -> None:
        if self._receive_task is None:
            self._receive_task = asyncio.ensure_future(self._read_forever())

    def _close(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()

    async def _read_forever(self) -> None:
        pause, broken = RETRY_FIRST, False
        while True:
            try:
                reader = await self._connect()
                if broken:
                    log.info("channel layer: subscribed to Redis again")
                pause, broken = RETRY_FIRST, False
                await self._read(reader)
            except (OSError, EOFError, hiredis.ProtocolError) as exc:
                if not broken:  # once an outage, not at every retry
                    log.warning("channel layer: the subscription to Redis broke (%s); subscribing again", exc)
                broken = True
            finally:
                self._close()
            await asyncio.sleep(pause)
            pause = min(RETRY_CAP, pause * 2)

    async def _connect(self) -> asyncio.StreamReader:
        """A new stream to Redis, authenticated and subscribed to every channel and group."""
        reader, self._writer = await asyncio.open_connection(*self._endpoint)
        sock = self._writer.get_extra_info("socket")
        if sock is not None:  # a connection dropped on the way (not by Redis) is noticed too
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        if self._auth:
            self._writer.write(_command("AUTH", *self._auth))
        channels = sorted(self._subscribed_to)
        if channels:
            self._writer.write(_command("SUBSCRIBE", *channels))
        return reader

    async def _read(self, reader: asyncio.StreamReader) -> None:
        parser = hiredis.Reader()
        while True:
            data = await reader.read(1 << 16)
            if not data:
                raise EOFError("Redis closed the connection")
            parser.feed(data)
            reply = parser.gets()
            while reply is not False:
                self._reply(reply)
                reply = parser.gets()

    def _reply(self, reply: Any) -> None:
        if isinstance(reply, hiredis.ReplyError):
            raise OSError(f"Redis refused the subscription: {reply}")
        if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
            self._receive_message({"channel": reply[1], "data": reply[2]})


class LeanLoopLayer(pubsub.RedisPubSubLoopLayer):  # type: ignore[misc]
    _shards: list[Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [
            LeanShardConnection(shard.host, self) if _plain_redis(shard.host) else shard for shard in self._shards
        ]


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):  # type: ignore[misc]
    """``channels_redis.pubsub.RedisPubSubChannelLayer``, its subscriptions read by
    :class:`LeanShardConnection` (the module docstring)."""

    def _get_layer(self) -> Any:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = LeanLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer


def _plain_redis(host: dict[str, Any]) -> bool:
    address = host.get("address")
    return isinstance(address, str) and urlparse(address).scheme == "redis"


def pubsub_publish_target(layer: Any) -> tuple[str, str] | None:
    """For channels_redis's pub/sub layer on one Redis given by its address alone: that address
    and the prefix of its groups' channels (a group's messages are published on the prefix plus
    the group's name, as ``RedisPubSubLoopLayer.group_send`` publishes them, serialised by the
    layer's ``serialize``). None for any other layer or configuration."""
    if not isinstance(layer, pubsub.RedisPubSubChannelLayer):
        return None
    args, kwargs = getattr(layer, "_args", ()), getattr(layer, "_kwargs", {})
    hosts = decode_hosts(kwargs.get("hosts", args[0] if args else None))
    if len(hosts) != 1 or "address" not in hosts[0] or not set(hosts[0]) <= {"address", "parser_class", "driver_info"}:
        return None
    return hosts[0]["address"], f"{kwargs.get('prefix', 'asgi')}__group__"
