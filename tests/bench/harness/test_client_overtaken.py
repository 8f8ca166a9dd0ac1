"""A bot's judgement of a refusal that comes after a frame showed the action's phase over
(bench/harness/client.py): the timer played the seat, the frame came first and the bot forgot the
action; the server then refuses the action the hand no longer waits for. That is what the frame
said already, not a failure; a refusal of an action the bot never sent still is one."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bench.harness.client import Bot
from bench.harness.pending import Pending
from bench.harness.stats import BotStats


class _Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, text: str) -> None:
        self.sent.append(text)


def _frame(status: str, version: int) -> dict[str, Any]:
    return {"type": "state", "version": version, "you": 0,
            "hand": {"id": 7, "status": status, "seat": 0, "view": {"phase_seq": 1, "phase": "arrange"}}}


def _bot() -> Bot:
    bot = Bot(urls=["ws://127.0.0.1:1"], table_id=3, session="", origin="", buy_in=100, hands_wanted=0,
              stats=BotStats())
    bot.acted.add((7, 1, "arrange"))  # it chose its move for the phase already
    bot.pending["a1"] = Pending(action={"type": "arrange"}, key=(7, 1, "arrange"), version=4, connection=1)
    return bot


@pytest.mark.parametrize("code", ["no_hand", "illegal", "not_seated"])
def test_a_refusal_after_the_frame_that_ended_the_phase_is_no_failure(code: str) -> None:
    bot, ws = _bot(), _Socket()

    async def frames() -> None:
        await bot._handle(ws, _frame("settled", 5))  # the timer played the seat; the hand ended
        await bot._handle(ws, {"type": "error", "id": "a1", "code": code, "message": "over"})

    asyncio.run(frames())
    assert bot.pending == {} and bot.stats.errors == []
    assert bot.stats.seen[code] == 1


def test_a_refusal_of_an_action_never_sent_or_of_another_kind_is_a_failure() -> None:
    bot, ws = _bot(), _Socket()

    async def frames() -> None:
        await bot._handle(ws, _frame("settled", 5))
        await bot._handle(ws, {"type": "error", "id": "a1", "code": "bad_message", "message": "no"})
        await bot._handle(ws, {"type": "error", "id": "zz", "code": "no_hand", "message": "never sent"})

    asyncio.run(frames())
    assert len(bot.stats.errors) == 2, bot.stats.errors
