"""Complete hands of every game and mode through the consumer, checked against the wallet,
with every frame checked for hidden information."""

from __future__ import annotations

import pytest

from games.models import Hand
from games.services.hands import hand_start_if_ready
from tests.games.live.helpers import WsPlayer, cards_in, db, gather, play_until_settled
from wallet import selectors

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CASES = [
    ("thirteen", "", 3),
    ("thirteen_trio", "", 3),
    ("samgong", "all_compare", 5),
    ("samgong", "banker_bid", 4),
    ("samgong", "banker_rotate", 4),
    ("samgong", "pairwise", 6),
    ("samgong", "house", 2),
]


def _seat_cards(hand: Hand) -> dict[int, set[str]]:
    from games.engine.cards import card_str

    out = {}
    for i, seat in enumerate(hand.state["seats"]):
        cards = seat.get("cards") or []
        out[i] = {c if isinstance(c, str) else card_str(c) for c in cards}
    return out


@pytest.mark.parametrize("game,mode,n", CASES)
async def test_complete_hand_moves_exactly_the_result_through_the_wallet(game, mode, n, funded, table_for):
    users = [await db(funded)() for _ in range(n)]
    table = await db(table_for)(game, mode)
    level = table.stake_level
    buy_in = level.min_buy_in
    players = [await WsPlayer(table.pk, u).connect() for u in users]
    for p in players:
        reply = await p.request({"type": "join", "buy_in": buy_in})
        assert reply["type"] == "ack", reply
    spectator = await WsPlayer(table.pk).connect()
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    assert hand is not None, "the hand should deal"
    await play_until_settled(players, hand.pk)
    await spectator.next("state", where=lambda f: f["hand"] and f["hand"]["status"] == "settled")
    hand = await db(Hand.objects.get)(pk=hand.pk)
    result = hand.result
    assert sum(result["coins"]) + result["house"] == 0
    for user, coins in zip(users, result["coins"], strict=True):
        assert await db(selectors.table_money)(user=user, table_ref=table.wallet_ref) == buy_in + coins
    # Hidden information, over every frame: a seat sees nothing beyond its own cards and what
    # the public (spectator) frame of the same version shows.
    public = {f["version"]: cards_in(f) for f in spectator.frames}
    dealt = _seat_cards(hand)
    for seat, p in enumerate(players):
        others = set().union(*(c for i, c in dealt.items() if i != seat))
        for frame in p.frames:
            if frame["hand"] and frame["hand"]["id"] == hand.pk and frame["version"] in public:
                leaked = (cards_in(frame) & others) - public[frame["version"]]
                assert not leaked, (seat, frame["version"], leaked)
    await gather(*(p.close() for p in [*players, spectator]))
