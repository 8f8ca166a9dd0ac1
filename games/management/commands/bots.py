"""``manage.py bots``: bot players fill tables over the real WebSocket protocol and play.

    python manage.py bots --tables 20 --hands 20 --game thirteen --url ws://127.0.0.1:8000

Each bot has its own account (bot-NNN), coins granted once, and a session; it joins with the
stake level's minimum buy-in (×3), plays with the bot policy, and leaves after the hands (at the
end of a set, where the game plays sets). A bot whose connection drops reconnects and resumes
(games/bots/client.py). The command prints hands completed and voided, reconnects, the
failures and every error frame by code, and p50/p99 action-to-broadcast latency.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.bots.fleet import bots_for, bots_run, codes_line, game_modes, per_bot_line, tables_open
from games.bots.stats import percentile
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

    def handle(self, *args: Any, **o: Any) -> None:
        pairs = game_modes(None if o["game"] == "all" else o["game"], o["mode"])
        plan = tables_open(pairs, o["tables"])
        started = time.monotonic()
        bots = bots_for(plan, o["url"] or ["ws://127.0.0.1:8000"], o["origin"], o["hands"])
        stats = asyncio.run(bots_run(bots, started + o["timeout"]))
        elapsed = time.monotonic() - started
        ended = len(stats.hands) + len(stats.voided)
        self.stdout.write(
            f"tables {len(plan)}  hands completed {len(stats.hands)} voided {len(stats.voided)} "
            f"(ended {ended}/{len(plan) * o['hands']})  failures {len(stats.errors)}\n"
            f"reconnects {stats.reconnects}  time offline {stats.offline:.1f} s (all bots)  "
            f"actions re-sent {stats.resent} (already applied {stats.duplicates})  "
            f"error frames seen: {codes_line(stats)}\n{per_bot_line(bots)}\n"
            f"elapsed {elapsed:.1f} s  hands/min {60 * ended / elapsed:.1f}\n"
            f"action-to-broadcast latency over {len(stats.latencies)} actions: "
            f"p50 {1000 * percentile(stats.latencies, 0.5):.1f} ms  "
            f"p99 {1000 * percentile(stats.latencies, 0.99):.1f} ms"
        )
        for error in stats.errors[:20]:
            self.stderr.write(error)
        if stats.errors or ended < len(plan) * o["hands"]:
            raise SystemExit(1)
