"""The pause after a showdown is a minimum from the reveal whatever happens at the table: a
player sitting down mid-hand, or just after the reveal, or a top-up, asks for a deal after the
short start delay, and the next hand must still wait the whole pause. Played through the
consumer with the start timers run for real (on threads, at their countdown)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from config.celery_app import app
from games import timers
from games.models import Hand
from games.services.hands import hand_start_if_ready
from tests.games.live.helpers import WsPlayer, db, gather, play_until_settled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PAUSE = 2.0  # the showdown pause under test (GAMES_NEXT_HAND_DELAY)
START = 0.2  # the start delay a join or top-up asks for (GAMES_START_DELAY)


@pytest.fixture
def start_timers(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Start timers fire on a thread after their countdown, as the worker would run them
    (phase timers are not needed: the players act)."""
    from games.tasks import start_hand

    settings.GAMES_TIMERS = True
    settings.GAMES_NEXT_HAND_DELAY = PAUSE
    settings.GAMES_START_DELAY = START
    fired: list[threading.Timer] = []

    def run(*args: Any) -> None:
        try:
            start_hand(*args)
        finally:
            connection.close()

    def send_task(name: str, args: list[Any], countdown: float | None = None, eta: Any = None, **options: Any) -> None:
        if name == timers.START_HAND:
            timer = threading.Timer(countdown or 0, run, args)
            fired.append(timer)
            timer.start()

    monkeypatch.setattr(app, "send_task", send_task)
    yield fired
    for timer in fired:
        timer.cancel()
        timer.join(5)


def _is(status: str, hand_id: int | None = None) -> Any:
    return lambda f: f["hand"] and f["hand"]["status"] == status and (hand_id is None or f["hand"]["id"] == hand_id)


async def _next_deal_after_showdown(game: str, mode: str, seated: int, when: str, funded: Any, table_for: Any) -> float:
    """Seconds from the settled frame to the next hand's first frame, seen by a seated player,
    when one more player sits down ``when`` ("mid-hand" or "after the reveal")."""
    users = [await db(funded)() for _ in range(seated + 1)]
    table = await db(table_for)(game, mode)
    buy_in = table.stake_level.min_buy_in
    players = [await WsPlayer(table.pk, u).connect() for u in users]
    for p in players[:seated]:
        assert (await p.request({"type": "join", "buy_in": buy_in}))["type"] == "ack"
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    assert hand is not None
    late = players[seated]
    if when == "mid-hand":
        assert (await late.request({"type": "join", "buy_in": buy_in}))["type"] == "ack"
    await play_until_settled(players[:seated], hand.pk)
    watcher = players[0]
    if when == "after the reveal":
        assert (await late.request({"type": "join", "buy_in": buy_in}))["type"] == "ack"
        assert (await players[1].request({"type": "top_up", "amount": buy_in}))["type"] in ("ack", "error")
    nxt = await watcher.next("state", timeout=PAUSE + 10, where=lambda f: f["hand"] and f["hand"]["id"] != hand.pk)
    first = await db(Hand.objects.get)(pk=hand.pk)
    second = await db(Hand.objects.get)(pk=nxt["hand"]["id"])
    assert second.number == first.number + 1
    assert await db(Hand.objects.filter(table=table).count)() == 2
    gap = (second.started_at - first.finished_at).total_seconds()
    await gather(*(p.close() for p in players))
    return gap


@pytest.mark.parametrize("when", ["mid-hand", "after the reveal"])
@pytest.mark.parametrize("game,mode,seated", [("thirteen", "", 2), ("samgong", "all_compare", 2)])
async def test_the_next_deal_waits_the_whole_showdown_pause(game, mode, seated, when, funded, table_for, start_timers):
    gap = await _next_deal_after_showdown(game, mode, seated, when, funded, table_for)
    assert gap >= PAUSE - 0.25, f"the next hand came {gap:.2f} s after the reveal (pause {PAUSE} s)"
    assert gap < PAUSE + 3, f"the next hand came {gap:.2f} s after the reveal (pause {PAUSE} s)"
