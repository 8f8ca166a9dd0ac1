"""A bot the table unseats for want of table money sits down again (bench/harness/client.py): left
watching, it would never play again, and a table it leaves with too few players never deals."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bench.harness.client import Bot
from bench.harness.stats import BotStats


class _Socket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def _state(version: int, you: int | None) -> dict[str, Any]:
    return {"type": "state", "version": version, "you": you, "hand": None}


def _joins(reason: str) -> list[dict[str, Any]]:
    bot = Bot(urls=["ws://x"], table_id=1, session="s", origin="", buy_in=500, hands_wanted=5, stats=BotStats())
    ws = _Socket()

    async def play() -> None:
        await bot._handle(ws, _state(1, None))  # not seated: joins
        await bot._handle(ws, _state(2, 0))  # seated
        await bot._handle(ws, {"type": "notice", "event": "removed", "reason": reason})
        await bot._handle(ws, _state(3, None))  # the removal's broadcast

    asyncio.run(play())
    return [m for m in ws.sent if m["type"] == "join"]


def test_a_bot_removed_below_the_table_minimum_joins_again_with_a_new_id() -> None:
    joins = _joins("below_table_minimum")
    assert len(joins) == 2
    assert joins[0]["id"] != joins[1]["id"]


def test_a_bot_that_left_or_whose_table_closed_does_not_join_again() -> None:
    assert len(_joins("left")) == 1
    assert len(_joins("table_closed")) == 1


def test_the_last_frames_and_the_newest_version_are_kept() -> None:
    bot = Bot(urls=["ws://x"], table_id=1, session="s", origin="", buy_in=500, hands_wanted=5, stats=BotStats())

    async def play() -> None:
        for version in range(1, 15):
            await bot._handle(_Socket(), _state(version, 0))
        await bot._handle(_Socket(), {"type": "pong", "t": 0})

    asyncio.run(play())
    assert bot.seen_version == 14
    assert len(bot.frames) == 10
    assert [f[2] for f in bot.frames][-2:] == [14, None]
    assert bot.frames[-1][1] == "pong"


def test_a_leave_that_finds_the_seat_already_taken_away_is_no_failure() -> None:
    """Winding down, a bot asks to leave after a hand; the next deal may unseat it first for want
    of table money. The refusal (not seated) is what the leave asked for: done, not a failure;
    another refusal of the leave is one."""
    def wind_down(code: str) -> Bot:
        bot = Bot(urls=["ws://x"], table_id=1, session="s", origin="", buy_in=500, hands_wanted=5, stats=BotStats())
        bot.stop.set()
        ws = _Socket()

        async def play() -> None:
            await bot._handle(ws, _state(1, 0))  # seated, no hand in play: leaves
            (leave,) = [m for m in ws.sent if m["type"] == "leave"]
            await bot._handle(ws, {"type": "error", "id": leave["id"], "code": code, "message": "no"})

        asyncio.run(play())
        return bot

    gone = wind_down("not_seated")
    assert gone.done.is_set() and gone.stats.errors == []
    refused = wind_down("closed")
    assert not refused.done.is_set() and refused.stats.errors == ["table 1: leave: closed: no"]


def test_a_bot_winding_down_with_a_join_on_its_way_leaves_after_it_rather_than_quitting() -> None:
    """Unseated for want of table money, a bot joins again; if its table winds down before the
    join is answered, quitting would leave the seat the join gets to be dealt in and waited for
    (a 100-table run idled 60 s so). It asks to leave, which the server answers after the join on
    the same connection, then quits; a bot with no join on its way quits at once."""
    bot = Bot(urls=["ws://x"], table_id=1, session="s", origin="", buy_in=500, hands_wanted=5, stats=BotStats())
    ws = _Socket()

    async def play() -> None:
        await bot._handle(ws, _state(1, None))  # not seated: joins
        bot.stop.set()  # its tablemates have seen their hands
        await bot._handle(ws, _state(2, None))  # the join not answered yet
        assert not bot.done.is_set()
        await bot._handle(ws, _state(3, None))

    asyncio.run(play())
    assert [m["type"] for m in ws.sent] == ["join", "leave"] and bot.done.is_set()

    idle = Bot(urls=["ws://x"], table_id=1, session="s", origin="", buy_in=500, hands_wanted=5, stats=BotStats())
    idle.stop.set()
    quiet = _Socket()
    asyncio.run(idle._handle(quiet, _state(1, None)))
    assert quiet.sent == [] and idle.done.is_set()
