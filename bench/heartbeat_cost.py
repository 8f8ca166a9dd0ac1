"""A server's CPU per heartbeat, and per open connection while nothing arrives: the part of a
table of people that is not its actions (docs/SCALING.md "One machine: what each process carries").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardtables_load REDIS_URL=redis://127.0.0.1:6379/11 \\
        .venv/bin/python bench/heartbeat_cost.py [--sockets 800] [--seconds 20] [--every 5]

One ASGI server (uvicorn, started as bench/live_load.sh starts them) and no worker, so no hand is
dealt; ``--sockets`` signed-in users, four to a table, each with a WebSocket to its table (a
heartbeat is the same for a seated player and a watcher: docs/PROTOCOL.md "Presence"). The
server's CPU (``/proc``) is read over ``--seconds`` with the sockets open and silent, then over
``--seconds`` with each sending a ping every ``--every`` seconds (spread evenly) and reading its
pong. Per heartbeat: (CPU with pings − CPU silent) / pongs. Also the pong's round trip, p50 and
p99, seen by the client (one process, its own CPU not counted).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PORT = 8031
HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds of a process, every thread: user + system, and system (the kernel's part)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    user, system = int(fields[11]) / HZ, int(fields[12]) / HZ
    return user + system, system


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of each thread of a process, by thread id."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a thread that just ended
        out[task.name] = (int(fields[11]) + int(fields[12])) / HZ
    return out


def sessions_for(sockets: int) -> list[tuple[int, str]]:
    """(table id, session key) of ``sockets`` signed-in users, four to a table."""
    from bench.harness.fleet import game_modes, tables_open

    plan = tables_open(game_modes("thirteen"), (sockets + 3) // 4)
    return [(t.table_id, s) for t in plan for s in t.sessions][:sockets]


def server_start(env: dict[str, str]) -> subprocess.Popen[bytes]:
    command = [str(ROOT / ".venv/bin/uvicorn"), "config.asgi:application", "--app-dir", str(ROOT / "platform"),
               "--host", "127.0.0.1", "--port", str(PORT), "--lifespan", "off", "--no-proxy-headers",
               "--ws-max-size", "1048576", "--log-level", "warning"]
    return subprocess.Popen(command, env=env)


async def connect(table_id: int, session: str) -> Any:
    import websockets
    from websockets.typing import Origin

    return await websockets.connect(
        f"ws://127.0.0.1:{PORT}/ws/tables/{table_id}/", additional_headers={"Cookie": f"sessionid={session}"},
        origin=Origin(f"http://127.0.0.1:{PORT}"), open_timeout=30, max_size=2**22,
    )


async def reader(ws: Any, pongs: list[float], sent: dict[int, float]) -> None:
    """Read every frame; a pong's round trip from the ping it answers (one ping in flight)."""
    import orjson

    async for text in ws:
        if orjson.loads(text).get("type") == "pong" and id(ws) in sent:
            pongs.append(time.perf_counter() - sent.pop(id(ws)))


async def pinger(ws: Any, offset: float, every: float, until: float, sent: dict[int, float]) -> None:
    await asyncio.sleep(offset)
    while time.perf_counter() < until:
        sent[id(ws)] = time.perf_counter()
        await ws.send(json.dumps({"type": "ping"}))
        await asyncio.sleep(every)


async def measure(server: int, seats: list[tuple[int, str]], seconds: float, every: float) -> dict[str, float]:
    sockets = []
    for i in range(0, len(seats), 50):  # 50 handshakes at a time
        sockets += await asyncio.gather(*(connect(t, s) for t, s in seats[i : i + 50]))
    pongs: list[float] = []
    sent: dict[int, float] = {}
    readers = [asyncio.create_task(reader(ws, pongs, sent)) for ws in sockets]
    await asyncio.sleep(3)  # the snapshots sent on connecting, the first heartbeats' reads
    before = cpu_seconds(server)[0]
    await asyncio.sleep(seconds)
    silent = cpu_seconds(server)[0] - before
    pongs.clear()
    until = time.perf_counter() + seconds
    (before, system_before), threads = cpu_seconds(server), thread_cpu(server)
    n = len(sockets)
    await asyncio.gather(*(pinger(ws, every * i / n, every, until, sent) for i, ws in enumerate(sockets)))
    await asyncio.sleep(0.5)  # the last pongs
    total, system_total = cpu_seconds(server)
    pinging, system = total - before, system_total - system_before
    loop_thread = thread_cpu(server).get(str(server), 0.0) - threads.get(str(server), 0.0)
    wall = seconds + 0.5
    for task in readers:
        task.cancel()
    for ws in sockets:
        await ws.close()
    rtt = sorted(pongs)
    return {
        "sockets": n,
        "silent CPU ms/s": 1000 * silent / seconds,
        "silent µs/s per socket": 1e6 * silent / seconds / n,
        "pongs": len(pongs),
        "µs per heartbeat": 1e6 * (pinging - silent * wall / seconds) / max(1, len(pongs)),
        "of which the loop's thread %": 100 * loop_thread / pinging if pinging else 0.0,
        "of which the kernel's %": 100 * system / pinging if pinging else 0.0,
        "pong p50 ms": 1000 * statistics.median(rtt) if rtt else 0.0,
        "pong p99 ms": 1000 * rtt[int(0.99 * (len(rtt) - 1))] if rtt else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=800)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--every", type=float, default=5.0, help="seconds between a socket's pings (the page: 5)")
    o = parser.parse_args()
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        sys.exit("DATABASE_URL and REDIS_URL must name the PostgreSQL database and the Redis server")
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    prefix = f"heartbeat-{os.getpid()}"
    env = {**os.environ, "CHANNELS_PREFIX": prefix, "LOG_LEVEL": "WARNING",
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_WS_ALLOWED_ORIGINS": f"http://127.0.0.1:{PORT}"}
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    seats = sessions_for(o.sockets)
    server = server_start(env)
    try:
        import urllib.request

        for _ in range(120):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=1)  # noqa: S310 - our server
                break
            except OSError:
                time.sleep(0.5)
        figures = asyncio.run(measure(server.pid, seats, o.seconds, o.every))
    finally:
        server.terminate()
        server.wait()
    print(f"one server, {o.sockets} sockets, a ping every {o.every:g} s each, {o.seconds:g} s silent then "
          f"{o.seconds:g} s pinging; load average {os.getloadavg()[0]:.1f}")
    for key, value in figures.items():
        print(f"  {key:<24} {value:>10.1f}")


if __name__ == "__main__":
    main()
