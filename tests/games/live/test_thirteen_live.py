"""十三张 played through the WebSocket consumer, checked against the wallet."""

from __future__ import annotations

import pytest

from games.engine.cards import cards_str, parse_cards
from games.engine.thirteen.arrange import arrange
from games.models import Hand
from games.services.hands import hand_start_if_ready
from tests.games.live.helpers import WsPlayer, cards_in, db, gather
from wallet import selectors

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def arrangement(view: dict) -> dict:
    me = view["seats"][view["you"]]
    best = arrange(parse_cards(me["cards"]))
    rows = {r: cards_str(best[r]) for r in ("front", "middle", "back")}
    return {"type": "declare" if best["declare"] else "arrange", **rows}


async def seat_players(table, users, buy_in):
    players = [await WsPlayer(table.pk, u).connect() for u in users]
    for p in players:
        reply = await p.request({"type": "join", "buy_in": buy_in})
        assert reply["type"] == "ack", reply
    return players


@pytest.mark.parametrize("n", [2, 4])
async def test_a_whole_hand_settles_to_the_coin(n, funded, table_for):
    users = [await db(funded)() for _ in range(n)]
    table = await db(table_for)("thirteen", unit=100)
    level = table.stake_level
    players = await seat_players(table, users, level.min_buy_in)
    spectator = await WsPlayer(table.pk).connect()
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    assert hand is not None and len(hand.players) == n
    for p in players:
        frame = await p.next("state", where=lambda f: f["hand"] and f["hand"]["status"] == "active")
        view = frame["hand"]["view"]
        assert len(view["seats"][view["you"]]["cards"]) == 13
        reply = await p.request({"type": "action", "action": arrangement(view)})
        assert reply == {**reply, "type": "ack", "status": "applied"}
    for p in [*players, spectator]:
        await p.next("state", where=lambda f: f["hand"] and f["hand"]["status"] == "settled")
    hand = await db(Hand.objects.get)(pk=hand.pk)
    result = hand.result
    assert sum(result["coins"]) + result["house"] == 0
    for user, coins in zip(users, result["coins"], strict=True):
        money = await db(selectors.table_money)(user=user, table_ref=table.wallet_ref)
        assert money == level.min_buy_in + coins
    assert hand.ledger_transaction_id is not None
    # Hidden information: before settlement no seat saw another seat's cards.
    dealt = {i: set(cards_str(s["cards"])) for i, s in enumerate(hand.state["seats"])}
    for seat, p in enumerate(players):
        others = set().union(*(c for i, c in dealt.items() if i != seat))
        for frame in p.frames:
            if frame["hand"] and frame["hand"]["status"] == "active":
                assert not (cards_in(frame) & others), frame
    for frame in spectator.frames:
        if frame["hand"] and frame["hand"]["status"] == "active":
            assert not cards_in(frame)
    await gather(*(p.close() for p in [*players, spectator]))


async def test_the_hint_button_offers_the_solvers_arrangements_of_your_own_cards(funded, table_for):
    users = [await db(funded)() for _ in range(2)]
    table = await db(table_for)("thirteen")
    players = await seat_players(table, users, table.stake_level.min_buy_in)
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    p = players[0]
    frame = await p.next("state", where=lambda f: f["hand"] and f["hand"]["id"] == hand.pk)
    mine = set(frame["hand"]["view"]["seats"][frame["hand"]["view"]["you"]]["cards"])
    reply = await p.request({"type": "hint"})
    assert reply["type"] == "ack" and 1 <= len(reply["hints"]) <= 3
    for hint in reply["hints"]:
        assert set(hint["front"] + hint["middle"] + hint["back"]) == mine
    applied = await p.request({"type": "action", "action": reply["hints"][-1]})
    assert applied["status"] == "applied"
    await gather(*(q.close() for q in players))
