"""A process without an event loop (a worker's child) sends every broadcast through one Redis
connection, and goes on sending after Redis restarts: on one loop of its own with the core
Redis layer, straight from its thread (one pipelined round trip) with the pub/sub layer.

A private redis-server on a free port, so the restart touches nothing else."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import redis.asyncio
from channels.layers import channel_layers

from games import groups
from tests.waiting import wait_until, wait_until_async

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            return server
        except redis.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


@pytest.fixture(params=["kernel.patches.channel_layer.RedisPubSubChannelLayer", "channels_redis.pubsub.RedisPubSubChannelLayer",
                        "channels_redis.core.RedisChannelLayer"])
def private_layer(settings: pytest.FixtureRequest, request: pytest.FixtureRequest) -> Iterator[dict[str, Any]]:
    """The private redis-server's port and process; a test that restarts it puts the new
    process in ``server``, for the fixture to stop."""
    port = _free_port()
    holder = {"port": port, "server": _start(port)}
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": request.param,
        "CONFIG": {"hosts": [f"redis://127.0.0.1:{port}/0"]},
    }}
    channel_layers.backends.clear()
    wanted, own = groups._own_loop_wanted, groups._own_loop
    groups.use_own_loop()
    groups._own_loop = None  # this test's own, if its layer needs one
    try:
        yield holder
    finally:
        groups._own_loop_wanted, groups._own_loop = wanted, own
        channel_layers.backends.clear()
        holder["server"].kill()
        holder["server"].wait()


async def subscribers(layer: Any, group: str, port: int) -> int:
    """How many subscriptions Redis has to a pub/sub layer's channel of ``group``."""
    client = redis.asyncio.Redis(port=port)
    try:
        [(_name, count)] = await client.pubsub_numsub(layer._get_layer()._get_group_channel_name(group))
        return int(count)
    finally:
        await client.aclose()


def _clients(port: int) -> int:
    return sum(1 for c in redis.Redis(port=port).client_list() if c.get("cmd") != "client|list")


def _receive_one(port: int, group: str, send: object) -> dict:
    """Subscribe to ``group`` on a layer of this thread's own, run ``send`` in a thread without
    an event loop (as a worker's task runs), and return the message heard."""
    layer = channel_layers["default"]

    async def run() -> dict:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        if hasattr(layer, "_get_layer"):  # pub/sub: the subscription reaches Redis a moment later
            await wait_until_async(lambda: subscribers(layer, group, port), timeout=5,
                                   what="Redis hearing the layer's subscription")
        await asyncio.get_running_loop().run_in_executor(None, send)
        message = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.group_discard(group, channel)
        return message

    return asyncio.run(run())


def test_sends_share_one_loop_and_survive_a_redis_restart(private_layer: dict[str, Any]) -> None:
    port = private_layer["port"]
    pubsub = type(channel_layers["default"]).__name__ == "RedisPubSubChannelLayer"
    for n in range(5):
        got = _receive_one(port, "g", lambda n=n: groups.group_send(("g", {"type": "x.y", "n": n})))
        assert got["n"] == n
    loop = groups._own_loop
    assert (loop is None) == pubsub  # the pub/sub layer's sends need no loop
    # five sends, one connection publishing them (not one per send); the receivers' connections,
    # closed with their loops, leave the server's list as the server notices them
    wait_until(lambda: _clients(port) <= 2, timeout=5, what=lambda: redis.Redis(port=port).client_list())

    subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], check=False, capture_output=True)
    private_layer["server"].wait()
    private_layer["server"] = _start(port)
    got = _receive_one(port, "g", lambda: groups.group_send(("g", {"type": "x.y", "n": "after"})))
    assert got["n"] == "after"
    assert groups._own_loop is loop  # the same loop (if any), its connection re-established


def test_a_pubsub_send_carries_the_callers_writes_to_the_same_redis(private_layer: dict[str, Any], settings) -> None:
    """``also`` adds its commands to the frames' pipeline when they go to ``REDIS_URL``; else
    the caller is told to write them itself."""
    port = private_layer["port"]
    if type(channel_layers["default"]).__name__ != "RedisPubSubChannelLayer":
        pytest.skip("the core layer sends on its loop")
    client, holder = redis.Redis(port=port), list[bool]()

    def also(pipe: object) -> None:
        pipe.sadd("marks", "7")  # type: ignore[attr-defined]

    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # another Redis: nothing written there by the send
    got = _receive_one(port, "g", lambda: holder.append(groups.group_send(("g", {"type": "x.y", "n": 1}), also=also)))
    assert got["n"] == 1 and holder == [False] and client.smembers("marks") == set()

    channel_layers.backends.clear()
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"
    holder.clear()
    got = _receive_one(port, "g", lambda: holder.append(groups.group_send(("g", {"type": "x.y", "n": 2}), also=also)))
    assert got["n"] == 2 and holder == [True] and client.smembers("marks") == {b"7"}

