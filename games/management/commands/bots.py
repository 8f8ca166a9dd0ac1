"""``manage.py bots``: bot players fill tables over the real WebSocket protocol and play.

    python manage.py bots --tables 20 --hands 20 --game thirteen --url ws://127.0.0.1:8000

Each bot has its own account (bot-NNN), coins granted once, and a session; it joins with the
stake level's minimum buy-in (×3), plays with the bot policy, and leaves after the hands. The
command prints hands completed, errors and p50/p99 action-to-broadcast latency.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandParser

from accounts.models import User
from games.adapters import player_limits
from games.bots.client import Bot, BotStats, percentile
from games.engine.registry import GAMES, engine_for
from tables.models import StakeLevel, Table
from wallet import services as wallet

BOT_COINS = 100_000_000


def _session_for(user: User) -> str:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def _bot(n: int) -> User:
    user, _ = User.objects.get_or_create(username=f"bot-{n:03d}", defaults={"display_name": f"Bot {n}"})
    wallet.wallet_grant(user=user, amount=BOT_COINS, idempotency_key=f"bot-grant:{user.username}", actor=None,
                        memo="bot coins")
    return user


def _setup(game: str, mode: str, tables: int) -> tuple[StakeLevel, list[tuple[int, list[str]]]]:
    level = StakeLevel.objects.filter(game=game, mode=mode, active=True).order_by("unit").first()
    if level is None:
        raise SystemExit(f"no active stake level for {game} {mode}".strip())
    low, high = player_limits(level)
    per_table = max(low, min(high, level.seats, 4))
    plan, n = [], 0
    for t in range(tables):
        table = Table.objects.create(stake_level=level, name=f"Bots {game} {mode} #{t + 1}".replace("  ", " "))
        sessions = []
        for _ in range(per_table):
            n += 1
            sessions.append(_session_for(_bot(n)))
        plan.append((table.pk, sessions))
    return level, plan


class Command(BaseCommand):
    help = "Bot players fill tables and play over the WebSocket protocol; prints throughput and latency."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=2)
        parser.add_argument("--hands", type=int, default=3)
        parser.add_argument("--game", default=GAMES[0], choices=list(GAMES))
        parser.add_argument("--mode", default="", help="the game's mode (samgong: all_compare, banker_bid, …); "
                            "default: its first")
        parser.add_argument(
            "--url", action="append", default=None,
            help="ws://host:port of a running server; repeat for several (bots at a table alternate between them)",
        )
        parser.add_argument("--origin", default="http://127.0.0.1:8000")
        parser.add_argument("--timeout", type=float, default=900, help="seconds before giving up")

    def handle(self, *args: Any, **o: Any) -> None:
        mode = o["mode"] or next(iter(engine_for(o["game"]).modes))
        level, plan = _setup(o["game"], mode, o["tables"])
        started = time.monotonic()
        stats = asyncio.run(self._play(level, plan, o))
        elapsed = time.monotonic() - started
        hands = len(stats.hands)
        self.stdout.write(
            f"tables {len(plan)}  hands completed {hands}/{len(plan) * o['hands']}  errors {len(stats.errors)}\n"
            f"elapsed {elapsed:.1f} s  hands/min {60 * hands / elapsed:.1f}\n"
            f"action-to-broadcast latency over {len(stats.latencies)} actions: "
            f"p50 {1000 * percentile(stats.latencies, 0.5):.1f} ms  "
            f"p99 {1000 * percentile(stats.latencies, 0.99):.1f} ms"
        )
        for error in stats.errors[:20]:
            self.stderr.write(error)
        if stats.errors or hands < len(plan) * o["hands"]:
            raise SystemExit(1)

    async def _play(self, level: StakeLevel, plan: list[tuple[int, list[str]]], o: dict[str, Any]) -> BotStats:
        stats = BotStats()
        urls = o["url"] or ["ws://127.0.0.1:8000"]
        deadline = time.monotonic() + o["timeout"]
        bots = [
            Bot(url=urls[i % len(urls)], table_id=table_id, session=session, origin=o["origin"],
                buy_in=level.min_buy_in * 3, hands_wanted=o["hands"], stats=BotStats(),
                rng=random.Random(f"{table_id}:{i}"))
            for table_id, sessions in plan for i, session in enumerate(sessions)
        ]
        results = await asyncio.gather(*(b.run(deadline) for b in bots), return_exceptions=True)
        for bot, outcome in zip(bots, results, strict=True):
            if isinstance(outcome, BaseException):
                stats.errors.append(f"table {bot.table_id}: {type(outcome).__name__}: {outcome}")
            stats.latencies += bot.stats.latencies
            stats.errors += bot.stats.errors
            stats.hands |= bot.stats.hands
        return stats


