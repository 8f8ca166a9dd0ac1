"""A fleet of bots: their accounts, sessions and tables, and one run of all of them
(the harness's ``bots`` and ``chaos`` commands).

Each bot has its own account (bot-NNN), coins granted once, and a session; a table gets as many
bots as its game seats (at most 4); a bot joins with the stake level's minimum buy-in × 3. Some of
the tables may be private rooms: the first bot opens one through the lobby's form and the others
enter its code (bench/harness/rooms.py); the first bot, its owner, starts it and closes it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random
from dataclasses import dataclass

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from accounts.models import User
from bench.harness import rooms as room_pages
from bench.harness.client import Bot
from bench.harness.stats import BotStats
from games.adapters import player_limits
from games.engine.registry import GAMES, engine_for
from tables.models import StakeLevel, Table
from wallet import services as wallet

BOT_COINS = 100_000_000


@dataclass
class TablePlan:
    table_id: int
    game: str
    mode: str
    buy_in: int
    sessions: list[str]
    start_after: float = 0.0  # seconds from the run's start before its bots connect
    room_code: str = ""  # a private room's code ("": a public table); its owner is the first session


def ramped(plan: list[TablePlan], seconds: float) -> list[TablePlan]:
    """``plan`` with its tables' starts spread evenly over ``seconds``, the first at once, as
    players arrive at a room: a run whose tables all deal in the same second measures that
    second's queue, which no room of independent tables has."""
    step = seconds / len(plan) if plan else 0.0
    return [dataclasses.replace(table, start_after=k * step) for k, table in enumerate(plan)]


def session_for(user: User) -> str:
    """A signed-in session of ``user``: the cookie a bot (or a benchmark's client) presents."""
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def _bot_user(n: int) -> User:
    user, _ = User.objects.get_or_create(username=f"bot-{n:03d}", defaults={"display_name": f"Bot {n}"})
    wallet.wallet_grant(user=user, amount=BOT_COINS, idempotency_key=f"bot-grant:{user.username}", actor=None,
                        memo="bot coins")
    return user


def _level(game: str, mode: str) -> StakeLevel:
    level = StakeLevel.objects.filter(game=game, mode=mode, active=True).order_by("unit").first()
    if level is None:
        raise SystemExit(f"no active stake level for {game} {mode}".strip())
    return level


def game_modes(game: str | None = None, mode: str = "") -> list[tuple[str, str]]:
    """The (game, mode) pairs tables are opened for, in turn: one game and mode when given;
    every game otherwise, each next table the next game and, within a game, its next mode."""
    if game is not None:
        return [(game, mode or next(iter(engine_for(game).modes)))]
    per_game = [[(g, m) for m in engine_for(g).modes] for g in GAMES]
    longest = max(len(modes) for modes in per_game)
    return [modes[i % len(modes)] for i in range(longest) for modes in per_game]


def is_room(t: int, tables: int, rooms: int) -> bool:
    """Whether table ``t`` of ``tables`` is one of the ``rooms`` private rooms, spread evenly."""
    return rooms > 0 and t * rooms // tables != (t + 1) * rooms // tables


def rooms_default(tables: int) -> int:
    """A third of the tables are private rooms (at least one, with two tables or more)."""
    return max(1, tables // 3) if tables >= 2 else 0


def tables_open(pairs: list[tuple[str, str]], tables: int, first_bot: int = 1, *, rooms: int = 0,
                base: str = "") -> list[TablePlan]:
    """Open ``tables`` tables, taking the (game, mode) pairs in turn, with their bots' sessions;
    ``rooms`` of them private rooms, opened and entered through the server at ``base``
    (``http://host:port``)."""
    plan, n = [], first_bot - 1
    for t, (game, mode) in zip(range(tables), itertools.cycle(pairs), strict=False):
        level = _level(game, mode)
        low, high = player_limits(level)
        per_table = max(low, min(high, level.seats, 4))
        sessions = []
        for _ in range(per_table):
            n += 1
            sessions.append(session_for(_bot_user(n)))
        code = ""
        if is_room(t, tables, rooms):
            table_id, code = room_pages.room_open(base=base, session=sessions[0], level_id=level.pk)
            for session in sessions[1:]:
                room_pages.room_enter(base=base, session=session, code=code)
        else:
            name = f"Bots {game} {mode} #{t + 1}".replace("  ", " ")
            table_id = Table.objects.create(stake_level=level, name=name).pk
        plan.append(TablePlan(table_id, game, mode, level.min_buy_in * 3, sessions, room_code=code))
    return plan


def bots_for(plan: list[TablePlan], urls: list[str], origin: str, hands: int,
             stop: asyncio.Event | None = None) -> list[Bot]:
    """One bot per planned seat; bots at a table alternate between the server URLs. The bots at
    a table wind down together (``stop``, or one event per table: once one of them has seen its
    hands), so none is left alone waiting for a hand that cannot be dealt."""
    bots = []
    for table in plan:
        table_stop = stop if stop is not None else asyncio.Event()
        for i, session in enumerate(table.sessions):
            bots.append(Bot(urls=urls, table_id=table.table_id, session=session, origin=origin, buy_in=table.buy_in,
                            hands_wanted=hands, stats=BotStats(), rng=random.Random(f"{table.table_id}:{i}"),
                            stop=table_stop, url_index=i % len(urls), start_after=table.start_after,
                            room_owner=bool(table.room_code) and i == 0))
    return bots


async def bots_run(bots: list[Bot], deadline: float) -> BotStats:
    """Run every bot to its end; their statistics merged (a bot that crashed is a failure)."""
    async def run(bot: Bot) -> None:
        await asyncio.sleep(bot.start_after)
        await bot.run(deadline)

    results = await asyncio.gather(*(run(b) for b in bots), return_exceptions=True)
    return bots_stats(bots, results)


def bots_stats(bots: list[Bot], results: list[BaseException | None] | None = None) -> BotStats:
    stats = BotStats()
    for bot, outcome in zip(bots, results or [None] * len(bots), strict=True):
        if isinstance(outcome, BaseException):
            stats.errors.append(f"table {bot.table_id}: {type(outcome).__name__}: {outcome}")
        stats.merge(bot.stats)
    return stats


def per_bot_line(bots: list[Bot]) -> str:
    """The worst bot's figures: most reconnects, longest time offline, most error frames."""
    return per_stats_line([b.stats for b in bots])


def per_stats_line(per_bot: list[BotStats]) -> str:
    """:func:`per_bot_line` from each bot's statistics."""
    if not per_bot:
        return "no bots"
    return (f"per bot at most: reconnects {max(s.reconnects for s in per_bot)}, "
            f"time offline {max(s.offline for s in per_bot):.1f} s, "
            f"error frames and failed connects {max(sum(s.seen.values()) for s in per_bot)}")


def frames_line(stats: BotStats, actions: int) -> str:
    """The frames the bots received, by type, and the ``sync`` requests they sent, each per timed
    action: a run whose servers send more for the same play shows it here."""
    per = max(1, actions)
    kinds = ", ".join(f"{kind} {n / per:.2f}" for kind, n in sorted(stats.frames.items())) or "none"
    return f"per action: frames received {kinds}; syncs sent {stats.syncs / per:.3f}"


def codes_line(stats: BotStats) -> str:
    """Every error frame (and failed connect) the bots saw, by code."""
    return ", ".join(f"{code} {n}" for code, n in stats.seen.most_common()) or "none"
