"""Settlement at showdown (games/services/settlement.py, docs/RULES.md "Money"): a finished hand
posts one wallet transaction that moves each seat's result to the coin, and a seat that asked to
leave during the hand is cashed out with it."""

from __future__ import annotations

import pytest

from games.models import Hand
from games.services import seating
from games.services.hands import hand_start_if_ready
from tables.models import Seat
from tests.factories import hand_play_out
from wallet.selectors import table_money, wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_settled_hand_moves_each_seats_result_and_cashes_out_the_leaver(funded, table_for):
    table, users = table_for("thirteen"), [funded(coins=1_000_000) for _ in range(3)]
    buy_in = table.stake_level.min_buy_in * 3
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=buy_in, request_id=f"j{i}")
    hand = hand_start_if_ready(table_id=table.pk)
    assert seating.seat_leave(table_id=table.pk, user=users[2]) is False  # dealt in: leaves after the hand
    hand = hand_play_out(hand, users)
    assert hand.status == Hand.Status.SETTLED and hand.ledger_transaction_id is not None
    coins = {player["user"]: int(c) for player, c in zip(hand.players, hand.result["coins"], strict=True)}
    for user in users[:2]:
        assert table_money(user=user, table_ref=table.wallet_ref) == buy_in + coins[user.pk]
    assert not Seat.objects.filter(table=table, user=users[2]).exists()
    assert table_money(user=users[2], table_ref=table.wallet_ref) == 0
    assert wallet_balance(user=users[2]) == 1_000_000 + coins[users[2].pk]
