"""The pub/sub channel layer's lean reader (kernel/patches/channel_layer.py): group and channel messages
reach the local channels, a discarded channel hears nothing more, and after Redis restarts the
reader subscribes again and messages flow. A private redis-server on a free port."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from channels.layers import channel_layers, get_channel_layer

from kernel.patches.channel_layer import LeanShardConnection
from tests.games.live.test_own_loop import _free_port, _start, subscribers
from tests.waiting import wait_until_async

pytestmark = [pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
              pytest.mark.asyncio]


@pytest.fixture
def private_redis(settings: Any) -> Iterator[dict[str, Any]]:
    port = _free_port()
    holder = {"port": port, "server": _start(port)}
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "kernel.patches.channel_layer.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [f"redis://127.0.0.1:{port}/0"], "prefix": "lean"},
    }}
    channel_layers.backends.clear()
    try:
        yield holder
    finally:
        channel_layers.backends.clear()
        holder["server"].kill()
        holder["server"].wait()


async def _receive(layer: Any, channel: str, timeout: float = 3) -> dict[str, Any]:
    return dict(await asyncio.wait_for(layer.receive(channel), timeout))


async def _until_delivered(layer: Any, group: str, channel: str, seconds: float = 10) -> dict[str, Any]:
    """Send to the group until the channel hears it (a subscription made again takes a moment)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        try:
            await layer.group_send(group, {"type": "probe", "n": 1})
            return await _receive(layer, channel, timeout=0.2)
        except (TimeoutError, OSError, redis.exceptions.RedisError):  # the publishing side reconnects too
            if loop.time() > deadline:
                raise
            await asyncio.sleep(0.1)


async def test_group_and_channel_messages_reach_the_local_channels(private_redis: dict[str, Any]) -> None:
    layer = get_channel_layer()
    a, b = await layer.new_channel(), await layer.new_channel()
    assert all(isinstance(s, LeanShardConnection) for s in layer._get_layer()._shards)
    await layer.group_add("table.1", a)
    await layer.group_add("table.1", b)
    await wait_until_async(lambda: subscribers(layer, "table.1", private_redis["port"]), timeout=5,
                           what="Redis hearing the layer's subscription")
    await layer.group_send("table.1", {"type": "table.frames", "text": "x" * 70_000})
    assert (await _receive(layer, a))["text"] == "x" * 70_000  # larger than one read
    assert (await _receive(layer, b))["type"] == "table.frames"
    await layer.send(a, {"type": "notice", "n": 2})
    assert (await _receive(layer, a))["n"] == 2
    await layer.group_discard("table.1", b)  # local: a still listens to the group for this process
    await layer.group_send("table.1", {"type": "table.frames", "text": "y"})
    assert (await _receive(layer, a))["text"] == "y"
    with pytest.raises(asyncio.TimeoutError):
        await _receive(layer, b, timeout=0.3)
    await layer.flush()


async def test_after_redis_restarts_the_reader_subscribes_again(private_redis: dict[str, Any]) -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("table.2", channel)
    assert (await _until_delivered(layer, "table.2", channel))["type"] == "probe"
    private_redis["server"].kill()
    private_redis["server"].wait()
    private_redis["server"] = _start(private_redis["port"])
    assert (await _until_delivered(layer, "table.2", channel))["type"] == "probe"
    await layer.flush()


async def test_a_thread_publishes_a_groups_messages_on_the_channel_the_layer_itself_names_for_the_group() -> None:
    from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer

    from kernel.patches.channel_layer import pubsub_publish_target

    layer = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1/0"], prefix="lean")
    address, group_prefix = pubsub_publish_target(layer) or ("", "")
    own_name = RedisPubSubLoopLayer(hosts=["redis://127.0.0.1:1/0"], prefix="lean")._get_group_channel_name("table.7")
    assert (address, group_prefix + "table.7") == ("redis://127.0.0.1:1/0", own_name)
    assert pubsub_publish_target(RedisPubSubChannelLayer(hosts=["redis://a:1/0", "redis://b:1/0"])) is None
