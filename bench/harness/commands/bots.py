"""``python -m bench.harness bots``: bot players fill tables over the real WebSocket protocol and play.

    python -m bench.harness bots --tables 20 --hands 20 --game thirteen --url ws://127.0.0.1:8000

Each bot has its own account (bot-NNN), coins granted once, and a session; it joins with the
stake level's minimum buy-in (×3), plays with the bot policy, and leaves after the hands (at the
end of a set, where the game plays sets). A bot whose connection drops reconnects and resumes
(bench/harness/client.py). The command prints hands completed and voided, reconnects, the
failures and every error frame by code, and p50/p99 action-to-broadcast latency.

With ``--procs N`` the tables are split between N bot processes (bench/harness/pool.py), each its
own asyncio loop and connections; their figures are merged. ``--procs 1`` plays in this process.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bench.harness.fleet import (
    bots_for,
    bots_run,
    codes_line,
    frames_line,
    game_modes,
    per_stats_line,
    ramped,
    tables_open,
)
from bench.harness.pool import Played, per_bot_figures, pool_run
from bench.harness.stats import percentile, slow_by_second, steady
from games.engine.registry import GAMES


class Command(BaseCommand):
    help = "Bot players fill tables and play over the WebSocket protocol; prints throughput and latency."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=2)
        parser.add_argument("--hands", type=int, default=3)
        parser.add_argument("--game", default=GAMES[0], choices=[*GAMES, "all"],
                            help="a game, or all: the tables take every game and mode in turn")
        parser.add_argument("--mode", default="", help="the game's mode (samgong: all_compare, banker_bid, …); "
                            "default: its first")
        parser.add_argument(
            "--url", action="append", default=None,
            help="ws://host:port of a running server; repeat for several (bots at a table alternate between them, "
            "and a bot whose server is down reconnects to the next)",
        )
        parser.add_argument("--origin", default="", help="the Origin header; default: each server's own")
        parser.add_argument("--timeout", type=float, default=900, help="seconds before giving up")
        parser.add_argument("--procs", type=int, default=2,
                            help="bot processes the tables are split between (at most one a table); "
                            "1: every bot in this process")
        parser.add_argument("--ramp", type=float, default=0.0,
                            help="seconds over which the tables start, evenly spread (the first at once); "
                            "0: every table's bots connect at the start")
        parser.add_argument("--json", default="", help="also write the figures to this file, as JSON")
        parser.add_argument("--mark", default="",
                            help="a file that exists while the bots play: created when they start (the tables "
                            "open, the bot processes ready), removed when they have ended (bench/proc_cpu.py)")

    def handle(self, *args: Any, **o: Any) -> None:
        pairs = game_modes(None if o["game"] == "all" else o["game"], o["mode"])
        plan = ramped(tables_open(pairs, o["tables"]), o["ramp"])
        urls = o["url"] or ["ws://127.0.0.1:8000"]
        procs = max(1, min(o["procs"], len(plan)))

        def begin() -> None:
            if o["mark"]:
                Path(o["mark"]).touch()

        def end() -> None:
            if o["mark"]:
                Path(o["mark"]).unlink(missing_ok=True)

        if procs == 1:
            begin()
            started = time.monotonic()
            bots = bots_for(plan, urls, o["origin"], o["hands"])
            stats = asyncio.run(bots_run(bots, started + o["timeout"]))
            elapsed = time.monotonic() - started
            end()
            played = Played(stats, [per_bot_figures(b.stats) for b in bots])
        else:
            played, elapsed = pool_run(plan, urls, o["origin"], o["hands"], o["timeout"], procs,
                                       on_start=begin, on_end=end)
        stats = played.stats
        ended, wanted = len(stats.hands) + len(stats.voided), len(plan) * o["hands"]
        ramp_note = f"  tables started over {o['ramp']:g} s" if o["ramp"] else ""
        p50, p99 = 1000 * percentile(stats.latencies, 0.5), 1000 * percentile(stats.latencies, 0.99)
        self.stdout.write(
            f"tables {len(plan)}  hands completed {len(stats.hands)} voided {len(stats.voided)} "
            f"(ended {ended}/{wanted})  failures {len(stats.errors)}\n"
            f"reconnects {stats.reconnects}  time offline {stats.offline:.1f} s (all bots)  "
            f"actions re-sent {stats.resent} (already applied {stats.duplicates})  "
            f"error frames seen: {codes_line(stats)}\n{per_stats_line(played.per_bot)}\n"
            f"elapsed {elapsed:.1f} s  hands/min {60 * ended / elapsed:.1f}  bot processes {procs}"
            f"{ramp_note}\n"
            f"action-to-broadcast latency over {len(stats.latencies)} actions: p50 {p50:.1f} ms  p99 {p99:.1f} ms\n"
            f"{frames_line(stats, len(stats.latencies))}"
        )
        slow = slow_by_second(stats)
        if slow is not None:
            (a, n_a), (b, n_b), (c, n_c) = slow
            self.stdout.write(f"actions over 250 ms: {a} of {n_a} sent in the first second, {b} of {n_b} in the last, "
                              f"{c} of {n_c} in between")
        window = steady(stats)
        steady_p50 = steady_p99 = None
        if window is not None and window[0]:
            timed, since, until = window
            steady_p50, steady_p99 = 1000 * percentile(timed, 0.5), 1000 * percentile(timed, 0.99)
            self.stdout.write(
                f"in full play (every table past its first hand, none winding down: {until - since:.1f} s), over "
                f"{len(timed)} actions: p50 {steady_p50:.1f} ms  p99 {steady_p99:.1f} ms"
            )
        if o["json"]:
            figures = {
                "tables": len(plan), "hands_wanted": wanted, "hands_completed": len(stats.hands),
                "hands_voided": len(stats.voided), "failures": len(stats.errors),
                "error_frames": sum(stats.seen.values()), "reconnects": stats.reconnects,
                "elapsed": round(elapsed, 3), "hands_per_min": round(60 * ended / elapsed, 1),
                "timed": len(stats.latencies), "p50_ms": round(p50, 1), "p99_ms": round(p99, 1), "procs": procs,
                "steady_p50_ms": None if steady_p50 is None else round(steady_p50, 1),
                "steady_p99_ms": None if steady_p99 is None else round(steady_p99, 1), "ramp": o["ramp"],
                # Every timed action's latency, for a report that pools several runs.
                "latencies_ms": [round(1000 * lat, 2) for lat in stats.latencies],
            }
            Path(o["json"]).write_text(json.dumps(figures) + "\n")
        for error in stats.errors[:20]:
            self.stderr.write(error)
        if stats.errors or ended < wanted:
            raise SystemExit(1)
