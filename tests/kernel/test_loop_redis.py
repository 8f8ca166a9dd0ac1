"""A loop's Redis client (platform/kernel/loop_redis.py): a burst of calls beyond its connections
queues for one instead of failing, as every socket of a server connecting at once once did."""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings

from kernel import loop_redis

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not settings.REDIS_URL, reason="the distributed mode's client: REDIS_URL names a Redis"),
]


async def test_a_burst_beyond_the_clients_connections_waits_for_one() -> None:
    client = loop_redis.loop_client(settings.REDIS_URL)
    replies = await asyncio.gather(*(client.ping() for _ in range(3 * loop_redis.CONNECTIONS)))
    assert replies == [True] * (3 * loop_redis.CONNECTIONS)


async def test_one_client_per_loop_url_and_timeout() -> None:
    client = loop_redis.loop_client(settings.REDIS_URL)
    assert loop_redis.loop_client(settings.REDIS_URL) is client
    assert loop_redis.loop_client(settings.REDIS_URL, timeout=1) is not client
