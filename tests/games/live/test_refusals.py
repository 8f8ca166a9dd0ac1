"""Wallet refusals reach the player as error frames with the wallet error's stable code and
its message in the player's language (docs/PROTOCOL.md); players here keep the default, 简体中文."""

from __future__ import annotations

import pytest

from games.models import ClientRequest
from tests.games.live.helpers import WsPlayer, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _at_table(funded, table_for, coins=None):
    user = await db(funded)(coins=coins) if coins is not None else await db(funded)()
    table = await db(table_for)("thirteen")
    return table, await WsPlayer(table.pk, user).connect()


def _error(request_id, code, message):
    return {"type": "error", "id": request_id, "code": code, "message": message}


async def test_a_buy_in_below_the_minimum(funded, table_for):
    table, player = await _at_table(funded, table_for)
    minimum = table.stake_level.min_buy_in
    reply = await player.request({"id": "low", "type": "join", "buy_in": minimum - 1})
    assert minimum == 1500  # the cheapest 十三张 level: 15.00 coins
    expected = _error("low", "below_minimum_buy_in", "买入 14.99 低于本桌最低买入 15.00。")
    assert reply == expected and list(reply) == list(expected)
    await player.close()


async def test_a_buy_in_beyond_the_balance(funded, table_for):
    table, player = await _at_table(funded, table_for, coins=100)
    minimum = table.stake_level.min_buy_in
    reply = await player.request({"id": "poor", "type": "join", "buy_in": minimum})
    assert minimum == 1500
    assert reply == _error("poor", "insufficient_funds", "余额不足：您的钱包有 1.00，需要 15.00。")
    await player.close()


async def test_any_other_wallet_refusal_is_wallet_refused(funded, table_for):
    table, player = await _at_table(funded, table_for)
    minimum = table.stake_level.min_buy_in
    assert (await player.request({"type": "join", "buy_in": minimum}))["type"] == "ack"
    assert (await player.request({"id": "t1", "type": "top_up", "amount": 100}))["type"] == "ack"
    # The platform forgets a spent id after its retention period (the sweeper); the wallet's
    # idempotency key is kept for ever and still refuses the same key for another amount.
    await db(ClientRequest.objects.all().delete)()
    reply = await player.request({"id": "t1", "type": "top_up", "amount": 200})
    key = f"topup:{table.pk}:{player.user.pk}:t1"
    assert reply == _error("t1", "wallet_refused", f"请求标识 {key} 已用于不同的 amount")
    await player.close()
