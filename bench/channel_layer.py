"""A server's CPU for reading its channel-layer subscriptions: the lean reader
(kernel/patches/channel_layer.py) against channels_redis's own pub/sub reader, in the same run
(bench/README.md "Parts of the live path").

    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/channel_layer.py [--messages 300]

For each layer, in a process of its own: two channels in one group (two connections of a table
on one server); the process's CPU time (``time.process_time``) while nothing arrives (per
second), per message when messages arrive 10 ms apart (as a table's changes do: each one
wakes the reader), and per message when they arrive back to back. A second process publishes
(its CPU is not counted). The layers are run alternately, ``--rounds`` times; the figures are
the medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {
    "lean reader (kernel.patches.channel_layer)": "kernel.patches.channel_layer.RedisPubSubChannelLayer",
    "channels_redis.pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}
PUBLISHER = """
import sys, time, redis
url, name, path, count, gap = sys.argv[1:6]
client, message = redis.Redis.from_url(url), open(path, "rb").read()
for _ in range(int(count)):
    client.publish(name, message)
    if float(gap):
        time.sleep(float(gap))
"""


async def _measure(messages: int, size: int) -> dict[str, float]:
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channels = [await layer.new_channel() for _ in range(2)]
    for channel in channels:
        await layer.group_add("bench.table", channel)
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as file:
        file.write(layer.serialize({"type": "table.frames", "public": "x" * size}))
    path = Path(file.name)
    received = 0

    async def drain(channel: str) -> None:
        nonlocal received
        while True:
            await layer.receive(channel)
            received += 1

    readers = [asyncio.create_task(drain(c)) for c in channels]
    await asyncio.sleep(0.5)
    started = time.process_time()
    await asyncio.sleep(3)
    idle = (time.process_time() - started) / 3
    figures = {"idle ms/s": 1000 * idle}
    for label, gap in (("spaced µs/message", 0.01), ("back to back µs/message", 0.0)):
        received, want = 0, 2 * messages
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        publisher = subprocess.Popen([sys.executable, "-c", PUBLISHER, os.environ["REDIS_URL"],
                                      f"{layer.prefix}__group__bench.table", str(path), str(messages), str(gap)])
        while received < want and time.perf_counter() - started_wall < 60:
            await asyncio.sleep(0.01)
        publisher.wait()
        wall = time.perf_counter() - started_wall
        figures[label] = 1e6 * (time.process_time() - started_cpu - idle * wall) / messages
    for task in readers:
        task.cancel()
    path.unlink()
    return figures


def _child(backend: str, messages: int, size: int) -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ["CHANNEL_LAYER_BACKEND"] = backend
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ.setdefault("CHANNELS_PREFIX", f"bench-layer-{os.getpid()}")
    import django
    import uvloop

    django.setup()
    print(json.dumps(uvloop.run(_measure(messages, size))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--size", type=int, default=3000, help="bytes of frame text in each message")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", default="", help=argparse.SUPPRESS)
    o = parser.parse_args()
    if o.child:
        _child(o.child, o.messages, o.size)
        return
    if not os.environ.get("REDIS_URL"):
        sys.exit("REDIS_URL must name a Redis server")
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in LAYERS}
    for _ in range(o.rounds):
        for name, backend in LAYERS.items():
            out = subprocess.run([sys.executable, __file__, "--child", backend, "--messages", str(o.messages),
                                  "--size", str(o.size)], check=True, capture_output=True, text=True).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
    keys = list(next(iter(runs.values()))[0])
    print(f"{'layer':38}" + "".join(f"{k:>26}" for k in keys))
    for name, results in runs.items():
        print(f"{name:38}" + "".join(f"{statistics.median(r[k] for r in results):>26.1f}" for k in keys))


if __name__ == "__main__":
    main()
