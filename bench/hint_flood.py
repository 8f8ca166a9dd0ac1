"""Hint flood: can one player's hints slow another table? (docs/PROTOCOL.md "Limits")

    .venv/bin/python bench/hint_flood.py --seconds 20
    .venv/bin/python bench/hint_flood.py --url ws://127.0.0.1:8000 --seconds 20   # a running server

One user seated at a 三人十三支 table with a hand in play floods ``hint`` from 5 sockets at 10
a second each, while another user at another table pings every 100 ms and times each pong.
Without ``--url`` the script starts an ASGI server (uvicorn, distributed mode: PostgreSQL and
Redis from DATABASE_URL and REDIS_URL) once per setting and runs the same flood against each:

- ``off``: GAMES_ABUSE_LIMITS=0 — the solver in a worker thread of the server, no per-user
  limits, no cache (as before the limits);
- ``on``: the defaults — per-user hint limit, one hint in flight, the solver process pool and
  the per-phase cache;
- ``on, no cache``: the same with GAMES_HINT_CACHE_SECONDS=0, so every hint the limit lets
  through is solved.

Each run starts with 3 s of pings without the flood (``idle``). Prints ping RTT p50/p99/max and
the hints served and refused (by error code). Celery timers are off (GAMES_TIMERS=0) and no
worker runs, so the hand stays in its arranging phase for the whole run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cardtables_hint_flood")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ["GAMES_TIMERS"] = "0"

SOCKETS, HINTS_PER_SECOND, PING_EVERY, IDLE_SECONDS = 5, 10, 0.1, 3.0
MODES = {"off": {"GAMES_ABUSE_LIMITS": "0"}, "on": {}, "on, no cache": {"GAMES_HINT_CACHE_SECONDS": "0"}}


@dataclass
class Scene:
    flood_table: int
    ping_table: int
    flooder: str  # session keys
    pinger: str


@dataclass
class Result:
    idle: list[float] = field(default_factory=list)
    flood: list[float] = field(default_factory=list)
    served: int = 0
    refused: Counter[str] = field(default_factory=Counter)


def _database() -> None:
    """Create the benchmark's database if missing, then migrate it."""
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _player(name: str) -> Any:
    from accounts.models import User
    from wallet import services as wallet

    user = User.objects.create_user(username=name, password=uuid.uuid4().hex, display_name=name[:20])
    wallet.wallet_grant(user=user, amount=10_000_000, idempotency_key=f"grant:{name}", actor=None, memo="bench")
    return user


def _scene() -> Scene:
    """A trio table with a hand in play (the flooder and two others seated) and a 十三张 table
    where the pinger sits."""
    from bench.harness.fleet import session_for
    from games.services.hands import hand_start_if_ready
    from games.services.seating import seat_join
    from tables.models import StakeLevel, Table

    run = uuid.uuid4().hex[:6]
    tables = {}
    for game in ("thirteen_trio", "thirteen"):
        level = StakeLevel.objects.filter(game=game).order_by("unit").first()
        assert level is not None, f"no stake level for {game}"
        tables[game] = Table.objects.create(stake_level=level, name=f"hint flood {game} {run}")
    flooder, *others = [_player(f"flood-{run}-{i}") for i in range(3)]
    trio = tables["thirteen_trio"]
    for user in (flooder, *others):
        seat_join(table_id=trio.pk, user=user, buy_in=trio.stake_level.min_buy_in * 3, request_id=uuid.uuid4().hex)
    assert hand_start_if_ready(table_id=trio.pk) is not None
    pinger = _player(f"ping-{run}")
    thirteen = tables["thirteen"]
    seat_join(table_id=thirteen.pk, user=pinger, buy_in=thirteen.stake_level.min_buy_in, request_id=uuid.uuid4().hex)
    return Scene(trio.pk, thirteen.pk, session_for(flooder), session_for(pinger))


# --- the clients -----------------------------------------------------------------------------

async def _connect(url: str, table: int, session: str) -> Any:
    import websockets
    from websockets.typing import Origin

    origin = "http" + url.removeprefix("ws").split("/ws/")[0]
    return await websockets.connect(
        f"{url}/ws/tables/{table}/", additional_headers={"Cookie": f"sessionid={session}"},
        origin=Origin(origin), max_size=2**22, open_timeout=10,
    )


async def _pinger(url: str, scene: Scene, result: Result, flooding: asyncio.Event, end: float) -> None:
    ws = await _connect(url, scene.ping_table, scene.pinger)
    pongs: asyncio.Queue[float] = asyncio.Queue()

    async def read() -> None:
        async for raw in ws:
            if json.loads(raw)["type"] == "pong":
                pongs.put_nowait(time.perf_counter())

    reader = asyncio.create_task(read())
    loop = asyncio.get_running_loop()
    while loop.time() < end:
        tick = loop.time()
        sent = time.perf_counter()
        await ws.send('{"type":"ping"}')
        rtt = (await asyncio.wait_for(pongs.get(), 30)) - sent
        (result.flood if flooding.is_set() else result.idle).append(rtt * 1000)
        await asyncio.sleep(max(0.0, PING_EVERY - (loop.time() - tick)))
    reader.cancel()
    await ws.close()


async def _flood_socket(url: str, scene: Scene, result: Result, end: float) -> None:
    try:
        ws = await _connect(url, scene.flood_table, scene.flooder)
    except Exception as exc:  # refused past the per-user connection limit
        result.refused[f"connect: {type(exc).__name__}"] += 1
        return

    async def read() -> None:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "ack" and message.get("for") == "hint":
                result.served += 1
            elif message["type"] == "error":
                result.refused[message["code"]] += 1

    reader = asyncio.create_task(read())
    loop = asyncio.get_running_loop()
    while loop.time() < end and not reader.done():
        await ws.send(json.dumps({"type": "hint", "id": uuid.uuid4().hex}))
        await asyncio.sleep(1 / HINTS_PER_SECOND)
    await asyncio.sleep(1.0)  # answers still on their way
    reader.cancel()
    await ws.close()


async def _run(url: str, scene: Scene, seconds: float) -> Result:
    result, flooding = Result(), asyncio.Event()
    loop = asyncio.get_running_loop()
    end = loop.time() + IDLE_SECONDS + seconds
    pinger = asyncio.create_task(_pinger(url, scene, result, flooding, end))
    await asyncio.sleep(IDLE_SECONDS)
    flooding.set()
    await asyncio.gather(*[_flood_socket(url, scene, result, end) for _ in range(SOCKETS)], pinger)
    return result


# --- the servers -----------------------------------------------------------------------------

def _serve(port: int, extra: dict[str, str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "LOG_LEVEL": "WARNING", "DJANGO_ALLOWED_HOSTS": "127.0.0.1", **extra}
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/uvicorn"), "config.asgi:application", "--app-dir", "platform", "--host", "127.0.0.1",
         "--port", str(port), "--lifespan", "off", "--no-proxy-headers", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )
    import urllib.request

    for _ in range(120):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):  # noqa: S310 - loopback
                return server
        except OSError:
            time.sleep(0.25)
    server.terminate()
    raise SystemExit("the server did not start")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _row(mode: str, phase: str, rtts: list[float], result: Result | None) -> str:
    hints = "     - |       - |"
    if result is not None:
        hints = f"{result.served:>6} | {sum(result.refused.values()):>7} | {dict(result.refused)}"
    return (f"| {mode:<13} | {phase:<5} | {len(rtts):>5} | {_pct(rtts, 0.5):>7.1f} | {_pct(rtts, 0.99):>7.1f} | "
            f"{max(rtts, default=float('nan')):>7.1f} | {hints}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="flood duration per setting")
    parser.add_argument("--url", help="a running server (ws://host:port): one run, as it is configured")
    parser.add_argument("--port", type=int, default=8031)
    args = parser.parse_args()
    _database()
    print(f"flood: {SOCKETS} sockets x {HINTS_PER_SECOND} hints/s at a thirteen_trio table; "
          f"pings every {PING_EVERY * 1000:.0f} ms at another table; load average {os.getloadavg()[0]:.1f}")
    print("| setting       | phase | pings | p50 ms  | p99 ms  | max ms  | hints served | refused | by code")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    runs = {"as configured": {}} if args.url else MODES
    for mode, extra in runs.items():
        scene = _scene()
        server = None if args.url else _serve(args.port, extra)
        try:
            result = asyncio.run(_run(args.url or f"ws://127.0.0.1:{args.port}", scene, args.seconds))
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=20)
        print(_row(mode, "idle", result.idle, None))
        print(_row(mode, "flood", result.flood, result))


if __name__ == "__main__":
    main()
