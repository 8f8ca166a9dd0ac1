"""Bots live through a server that goes away mid-hand: they reconnect with backoff, resync from
the snapshot, re-send an action whose ack was lost with the same id, and finish their hands;
every hand ends settled, with its record, and the ledger holds (real server, real services)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.harness import checks
from bench.harness.client import BACKOFF_CAP, BACKOFF_FIRST, Bot, backoff
from bench.harness.fleet import bots_for, bots_stats, tables_open
from games.models import Hand, HandAction
from games.services.seating import seat_join
from tests.factories import ensure_stake_levels, funded_user
from wallet.audit import ledger_audit

pytestmark = pytest.mark.django_db(transaction=True)


@given(st.integers(min_value=1, max_value=60), st.randoms(use_true_random=False))
def test_backoff_doubles_with_jitter_up_to_the_cap(attempt: int, rng: Any) -> None:
    delay = backoff(attempt, rng)
    ceiling = min(BACKOFF_CAP, BACKOFF_FIRST * 2 ** (attempt - 1))
    assert 0.6 * ceiling <= delay <= ceiling <= BACKOFF_CAP


def _run(bots: list[Bot], during: Any, timeout: float = 90) -> None:
    async def main() -> None:
        deadline = time.monotonic() + timeout
        players = asyncio.gather(*(b.run(deadline) for b in bots))
        await during()
        await players

    asyncio.run(main())


def test_bots_finish_their_hands_across_a_server_restart(server: Any, sweeper: list[BaseException]) -> None:
    ensure_stake_levels()
    plan = tables_open([("thirteen", "")], 1)
    bots = bots_for(plan, [server.url], "", hands=4)

    async def restart_mid_run() -> None:
        loop = asyncio.get_running_loop()
        while not any(b.stats.hands for b in bots):
            await asyncio.sleep(0.05)
        await loop.run_in_executor(None, server.stop)
        await asyncio.sleep(1.0)  # the outage's length is the scenario: bots retry against a server that is down
        await loop.run_in_executor(None, server.start)

    _run(bots, restart_mid_run)
    stats = bots_stats(bots)
    assert sweeper == []
    assert stats.errors == [], [(b.last_hand, b.stop.is_set(), b.leave_sent, b.connected_to, len(b.pending),
                                 dict(b.stats.seen)) for b in bots]
    assert all(b.stats.reconnects >= 1 for b in bots)
    assert stats.offline > 0
    assert len(stats.hands) >= 4 and not stats.voided
    assert Hand.objects.filter(status=Hand.Status.SETTLED).count() >= len(stats.hands)  # a hand may end unseen
    assert {name: problems for name, problems in checks.checks_run().items() if problems} == {}
    assert ledger_audit().ok


class LosesFirstActionAck(Bot):
    """A bot whose connection dies right after the server applied its first action, before the
    ack arrived (as when a server is killed between commit and reply)."""

    lost: str | None = None

    async def connect(self, url: str) -> Any:
        ws = await super().connect(url)
        bot = self

        class Socket:
            request = ws.request

            async def send(self, text: str) -> None:
                await ws.send(text)

            async def recv(self) -> Any:
                text = await ws.recv()
                message = json.loads(text)
                if message.get("type") == "ack" and message.get("for") == "action" and bot.lost is None:
                    bot.lost = message["id"]
                    await ws.close()
                    return await ws.recv()  # raises ConnectionClosed: the ack never arrives
                return text

            async def close(self) -> None:
                await ws.close()

        return Socket()


def test_an_action_whose_ack_was_lost_is_resent_with_its_id_and_applied_once(server: Any) -> None:
    ensure_stake_levels()
    plan = tables_open([("thirteen", "")], 1)
    table_id = plan[0].table_id
    other = funded_user("waits", 10_000_000)
    seat_join(table_id=table_id, user=other, buy_in=plan[0].buy_in, request_id="waits-join")
    bot = LosesFirstActionAck(urls=[server.url], table_id=table_id, session=plan[0].sessions[0], origin="",
                              buy_in=plan[0].buy_in, hands_wanted=1, stats=bots_for(plan, [server.url], "", 1)[0].stats)

    def deal() -> Any:
        from django.db import connections

        from games.services.hands import hand_start_if_ready

        try:
            return hand_start_if_ready(table_id=table_id)
        finally:
            connections.close_all()

    async def deal_then_wait() -> None:
        loop = asyncio.get_running_loop()
        while await loop.run_in_executor(None, deal) is None:
            await asyncio.sleep(0.1)
        while not bot.stats.duplicates and not bot.stats.errors:
            await asyncio.sleep(0.05)
        bot.done.set()

    _run([bot], deal_then_wait, timeout=60)
    assert bot.stats.errors == []
    assert bot.lost is not None
    assert bot.stats.reconnects == 1 and bot.stats.resent == 1 and bot.stats.duplicates == 1
    assert HandAction.objects.filter(client_id=bot.lost).count() == 1
