"""A server's CPU per signed-out socket of a flood, measured in one process through the whole
WebSocket stack (Origin check, session middleware, router, gate, consumer, the Redis channel
layer): a refused handshake, and a spectator's ``sync`` (docs/PROTOCOL.md "Limits").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ct_flood REDIS_URL=redis://127.0.0.1:6379/12 \\
        .venv/bin/python bench/flood_cost.py [--n 1000]

Needs a migrated database with at least one table (bench/noisy_neighbour.sh leaves one). Rows:

* ``refused, told``: the address was told and is at its limit: the gate refuses (HTTP 403);
* ``refused, first``: ``GAMES_WS_REFUSAL_QUIET`` 0, every refusal accepted and told why;
* ``refused, first, with a session cookie``: the same with a cookie naming no session (the
  session and user lookup in a database thread that a cookie-less socket skips);
* ``sync, kept frame`` and ``sync, from the database`` (the kept frames dropped before each).

Each figure is the process's CPU (``time.process_time``, every thread) over ``--n`` tries.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _django() -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1")
    import django

    django.setup()


async def _run(n: int) -> list[tuple[str, float]]:
    from channels.testing import WebsocketCommunicator
    from django.conf import settings

    from config.routing import websocket_urlpatterns
    from games.public_frames import public_frames_forget
    from games.services import limits
    from kernel.db_threads import in_db_thread
    from kernel.websocket import websocket_application
    from tables.models import Table

    app = websocket_application(websocket_urlpatterns)
    table = await in_db_thread(lambda: Table.objects.order_by("pk").values_list("pk", flat=True).first())
    address = f"198.51.100.{os.getpid() % 250 + 1}"
    owner = limits.address_owner(address)

    def comm(cookie: str = "") -> WebsocketCommunicator:
        headers = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        c = WebsocketCommunicator(app, f"/ws/tables/{table}/", headers=headers)
        c.scope["client"] = (address, 50000)
        return c

    async def refused(cookie: str = "") -> None:
        c = comm(cookie)
        connected, _ = await c.connect(timeout=10)
        if connected:
            frame = await c.receive_output(timeout=10)  # the error frame
            assert "too_many_connections" in frame.get("text", ""), frame
            assert (await c.receive_output(timeout=10))["type"] == "websocket.close"
            await c.disconnect(code=4429, timeout=10)  # the server's side of the close
        else:
            await c.wait(timeout=10)

    async def cpu(label: str, call: Any) -> tuple[str, float]:
        for _ in range(20):  # warm
            await call()
        began = time.process_time()
        for _ in range(n):
            await call()
        micros = (time.process_time() - began) / n * 1e6
        print(f"{label:<42}{micros:>10.0f} µs CPU each", flush=True)
        return label, micros

    settings.GAMES_WS_SLOT_TTL = 3600.0  # the address's slots outlast the run
    for k in range(settings.GAMES_WS_CONNECTIONS_PER_ADDRESS):  # the address at its limit
        await limits.connection_claim_async(user_id=owner, channel=f"flood-cost-{k}")
    rows = []
    settings.GAMES_WS_REFUSAL_QUIET = 3600.0
    limits.refusal_note(owner=owner)
    rows.append(await cpu("refused, told (gate)", refused))
    settings.GAMES_WS_REFUSAL_QUIET = 0.0
    rows.append(await cpu("refused, first (told why)", refused))
    rows.append(await cpu("refused, first, with a session cookie", lambda: refused("sessionid=nosuchsession")))
    for k in range(settings.GAMES_WS_CONNECTIONS_PER_ADDRESS):
        await limits.connection_release_async(user_id=owner, channel=f"flood-cost-{k}")
    settings.GAMES_WS_ANON_RATE, settings.GAMES_WS_ANON_BURST = 1e9, 10**9
    watcher = comm()
    assert (await watcher.connect(timeout=10))[0]
    await watcher.receive_from(timeout=10)

    async def sync() -> None:
        await watcher.send_json_to({"type": "sync"})
        await watcher.receive_from(timeout=10)

    async def sync_read() -> None:
        public_frames_forget()
        await sync()

    rows.append(await cpu("sync, kept frame", sync))
    rows.append(await cpu("sync, from the database", sync_read))
    await watcher.disconnect()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    o = parser.parse_args()
    _django()
    asyncio.run(_run(o.n))
    os._exit(0)  # the database threads' pool would keep the process waiting


if __name__ == "__main__":
    main()
