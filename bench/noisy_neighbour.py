"""The noise of `bash bench/noisy_neighbour.sh`, and its report.

    .venv/bin/python bench/noisy_neighbour.py noise --mark FILE --out FILE [options]
    .venv/bin/python bench/noisy_neighbour.py report --quiet Q1.json [Q2.json…] --noisy N1.json [N2.json…]
        --noise NOISE1.json [NOISE2.json…] [--quiet-cpu …] [--noisy-cpu …]

``noise`` waits for the bots' mark file (bench/live_load.sh's machinery: it exists while the
bots play), then until it is gone runs, against the servers given with ``--http``:

* ``--exports`` (25) streamed exports of one account's own hands (a bot's), each request sent and
  its answer never read: a client that stalls;
* ``--sockets`` (300) signed-out table sockets (one address, 127.0.0.1) at the tables in play,
  each asking for a ``sync`` every ``1 / --sync-rate`` s; a socket the server closes or refuses
  connects again after 5 s (jittered);
* ``/healthz`` probed ``--healthz-rate`` times a second over 4 keep-alive connections.

It writes what the servers answered (exports let in and refused, sockets open and refused,
syncs answered, probes by status) to ``--out``. ``report`` prints the tables' latencies of the
quiet and the noisy runs side by side (each kind's rounds pooled: every timed action of them),
the ratio of the pooled p99s with each round's, and the noise's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _django() -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()


def _targets(tables: int) -> tuple[str, list[int]]:
    """The exporting account's session (the first bot: a player with a long history) and the
    run's tables (the newest ``tables``, opened by the bots before they made the mark)."""
    from accounts.models import User
    from bench.harness.fleet import session_for
    from tables.models import Table

    user = User.objects.filter(username__startswith="bot-").order_by("username").first()
    assert user is not None, "no bot account yet: run the bots first"
    return session_for(user), list(Table.objects.order_by("-pk").values_list("pk", flat=True)[:tables])


async def _export_stalled(host: str, port: int, session: str, counts: Counter[str], stop: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /api/history/hands/export/?format=jsonl HTTP/1.1\r\nHost: {host}:{port}\r\n"
                 f"Cookie: sessionid={session}\r\n\r\n".encode())
    await writer.drain()
    status = await reader.readline()  # the status line only; the body is never read
    counts[status.decode().split(" ")[1] if status else "closed"] += 1
    await stop.wait()
    writer.close()


async def _spectator(ws_url: str, origin: str, table: int, period: float, counts: Counter[str],
                     stop: asyncio.Event, rng: random.Random) -> None:
    import websockets
    from websockets.typing import Origin

    while not stop.is_set():
        try:
            async with websockets.connect(f"{ws_url}/ws/tables/{table}/", origin=Origin(origin), open_timeout=10,
                                          close_timeout=1, max_size=2**22) as ws:
                counts["sockets_opened"] += 1
                while not stop.is_set():
                    await ws.send('{"type":"sync"}')
                    reply = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
                    counts["sync_" + ("answered" if reply.get("type") == "state" else reply.get("code", "other"))] += 1
                    if reply.get("code") == "too_many_connections":
                        counts["sockets_refused"] += 1
                        break
                    await asyncio.sleep(period)
        except Exception as exc:  # noqa: BLE001 - the flood goes on whatever one socket met
            counts["socket_" + type(exc).__name__] += 1
        await asyncio.sleep(5 * (0.5 + rng.random()))


async def _prober(host: str, port: int, period: float, counts: Counter[str], stop: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    request = f"GET /healthz HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
    while not stop.is_set():
        began = time.monotonic()
        writer.write(request)
        status = (await reader.readline()).decode().split(" ")[1]
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        await reader.readexactly(length)
        counts[f"healthz_{status}"] += 1
        await asyncio.sleep(max(0.0, period - (time.monotonic() - began)))
    writer.close()


async def _noise(o: argparse.Namespace) -> dict[str, Any]:
    mark = Path(o.mark)
    while not mark.exists():
        await asyncio.sleep(0.1)
    session, tables = await asyncio.to_thread(_targets, o.tables)
    servers = [u.removeprefix("http://").split(":") for u in o.http]
    stop, counts, rng = asyncio.Event(), Counter[str](), random.Random(7)
    tasks = [asyncio.create_task(_export_stalled(h, int(p), session, counts, stop))
             for h, p in (servers[k % len(servers)] for k in range(o.exports))]
    tasks += [asyncio.create_task(_spectator(o.http[k % len(o.http)].replace("http", "ws", 1), o.http[0],
                                             tables[k % len(tables)], 1 / o.sync_rate, counts, stop, rng))
              for k in range(o.sockets)]
    tasks += [asyncio.create_task(_prober(h, int(p), 4 / o.healthz_rate, counts, stop))
              for h, p in (servers[k % len(servers)] for k in range(4))]
    started = time.monotonic()
    while mark.exists():
        await asyncio.sleep(0.2)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"seconds": round(time.monotonic() - started, 1), **dict(sorted(counts.items()))}


def _pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Runs of one kind as one: hands summed, p50 and p99 over every timed action of them all, the
    full-play p99 the largest of the runs'."""
    from bench.harness.stats import percentile

    latencies = [lat for run in runs for lat in run.get("latencies_ms") or []]
    steady = [run["steady_p99_ms"] for run in runs if run.get("steady_p99_ms") is not None]
    return {"hands_completed": sum(r["hands_completed"] for r in runs),
            "hands_wanted": sum(r["hands_wanted"] for r in runs), "timed": sum(r["timed"] for r in runs),
            "p50_ms": round(percentile(latencies, 0.5), 1), "p99_ms": round(percentile(latencies, 0.99), 1),
            "steady_p99_ms": round(max(steady), 1) if steady else None}


def report(quiet: list[dict[str, Any]], noisy: list[dict[str, Any]], noise: list[dict[str, Any]],
           cpu: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None) -> str:
    """The quiet and the noisy runs side by side, each kind pooled over its rounds (the rounds
    alternate, so what drifts through an invocation, a database that grows, falls on both), and
    each round's own p99s; with ``cpu`` (bench/proc_cpu.py's, each run's), the servers' CPU a
    second and a timed action: what the noise costs the servers, apart from what the noise's own
    client and the bots burn on the same cores."""
    rows = [f"{'run':<8}{'hands':>12}{'p50 ms':>10}{'p99 ms':>10}{'full-play p99 ms':>18}"
            + (f"{'servers CPU ms/s':>18}{'ms/action':>11}" if cpu else "")]
    pooled = {"quiet": _pooled(quiet), "noisy": _pooled(noisy)}
    for k, name in enumerate(("quiet", "noisy")):
        run = pooled[name]
        row = (f"{name:<8}{run['hands_completed']:>7}/{run['hands_wanted']:<4}{run['p50_ms']:>10}"
               f"{run['p99_ms']:>10}{str(run['steady_p99_ms']):>18}")
        if cpu:
            seconds = sum(c["seconds"] for c in cpu[k])
            servers = sum(c["kinds"].get("asgi") or 0.0 for c in cpu[k])
            row += f"{1000 * servers / seconds:>18.0f}{1000 * servers / max(1, run['timed']):>11.2f}"
        rows.append(row)
    quiet_p99, noisy_p99 = pooled["quiet"]["p99_ms"], pooled["noisy"]["p99_ms"]
    ratio = noisy_p99 / quiet_p99 if quiet_p99 else float("nan")
    rows.append(f"noisy p99 / quiet p99: {ratio:.2f} (target at most 1.20), over {len(quiet)} alternated round(s); "
                "each round's p99s, quiet / noisy: "
                + ", ".join(f"{_pooled([q])['p99_ms']} / {_pooled([n])['p99_ms']}"
                            for q, n in zip(quiet, noisy, strict=True)))
    totals: dict[str, Any] = {}
    for made in noise:
        for key, value in made.items():
            totals[key] = totals.get(key, 0) + value
    rows.append("noise: " + ", ".join(f"{k} {round(v, 1)}" for k, v in sorted(totals.items())))
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    noise = sub.add_parser("noise")
    noise.add_argument("--mark", required=True)
    noise.add_argument("--out", required=True)
    noise.add_argument("--http", action="append", required=True, help="a server, http://host:port (repeat)")
    noise.add_argument("--tables", type=int, required=True, help="the bots' tables (the newest)")
    noise.add_argument("--exports", type=int, default=25)
    noise.add_argument("--sockets", type=int, default=300)
    noise.add_argument("--sync-rate", type=float, default=10.0, help="syncs per second per socket")
    noise.add_argument("--healthz-rate", type=float, default=100.0, help="probes per second in all")
    rep = sub.add_parser("report")
    rep.add_argument("--quiet", nargs="+", required=True, help="the quiet runs' bots --json, round by round")
    rep.add_argument("--noisy", nargs="+", required=True, help="the noisy runs' bots --json, round by round")
    rep.add_argument("--noise", nargs="+", required=True, help="the noise's --out, round by round")
    rep.add_argument("--quiet-cpu", nargs="*", default=[], help="the quiet runs' bench/proc_cpu.py run --out")
    rep.add_argument("--noisy-cpu", nargs="*", default=[], help="the noisy runs' bench/proc_cpu.py run --out")
    o = parser.parse_args()
    if o.command == "report":
        def read(files: list[str]) -> list[dict[str, Any]]:
            return [json.loads(Path(f).read_text()) for f in files]

        cpu = (read(o.quiet_cpu), read(o.noisy_cpu)) if o.quiet_cpu and o.noisy_cpu else None
        sys.path[:0] = [str(ROOT)]
        print(report(read(o.quiet), read(o.noisy), read(o.noise), cpu))
        return
    _django()
    Path(o.out).write_text(json.dumps(asyncio.run(_noise(o))) + "\n")


if __name__ == "__main__":
    main()
