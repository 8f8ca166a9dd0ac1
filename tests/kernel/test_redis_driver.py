"""Our Redis connections name their client without looking the library's version up each time
(platform/kernel/redis_driver.py): a burst of new connections reads no package metadata."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis
from channels.layers import get_channel_layer
from django.conf import settings
from redis import utils as redis_utils

from games import sent
from kernel import loop_redis

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="the distributed mode's clients: REDIS_URL names a Redis")


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every lookup of a package's version through redis-py's helper."""
    seen: list[str] = []
    version = redis_utils.metadata.version

    def counted(name: str) -> Any:
        seen.append(name)
        return version(name)

    monkeypatch.setattr(redis_utils.metadata, "version", counted)
    return seen


def test_connections_opened_at_once_look_no_version_up_and_still_name_the_client(lookups: list[str]) -> None:
    async def burst() -> Any:
        client = loop_redis.loop_client(settings.REDIS_URL, timeout=3)
        # held at once: each call takes a connection of its own, most of them new
        assert await asyncio.gather(*(client.execute_command("CLIENT", "INFO") for _ in range(20)))
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "ping"})
        assert (await layer.receive(channel))["type"] == "ping"
        await layer.flush()
        return client.connection_pool.connection_kwargs["driver_info"]

    info = asyncio.run(burst())
    sent.sent_mark(10**9, 1)  # a database thread's client (games.sent)
    assert lookups == []
    # what CLIENT SETINFO sends (servers from Redis 7.2 on keep it): the same as redis-py finds itself
    assert (info.formatted_name, info.lib_version) == ("redis-py", redis.__version__)
