"""The chaos run's checks (bench/harness/checks.py) hold on hands played through the services, and
each one finds the fault it is there for."""

from __future__ import annotations

from typing import Any

import pytest

from bench.harness import checks
from games.engine.registry import engine_for
from games.models import Hand
from games.services.hands import hand_act, hand_start_if_ready
from games.services.seating import seat_join
from tests.factories import funded_user, table_at
from wallet import services as wallet

pytestmark = pytest.mark.django_db


def _settled_hand() -> tuple[Any, Hand]:
    table = table_at("thirteen")
    players = [funded_user(f"c{i}", 10_000_000) for i in range(2)]
    for i, user in enumerate(players):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"c-join-{i}")
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    for user in players:
        hand.refresh_from_db()
        seat = hand.seat_of(user.pk)
        hand_act(table_id=table.pk, user=user, action=engine_for("thirteen").auto_action(hand.state, seat),
                 client_id=f"c-act-{user.pk}")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    return table, hand


def _failing() -> set[str]:
    return {name for name, problems in checks.checks_run().items() if problems}


def test_hands_played_through_the_services_pass_every_check_but_cash_out() -> None:
    _settled_hand()
    assert _failing() == {"every leaver cashed out"}  # the players are still seated


def test_a_second_settlement_of_a_hand_is_found() -> None:
    table, hand = _settled_hand()
    wallet.wallet_settle_hand(hand_ref=f"hand:{hand.pk}", table_ref=table.wallet_ref, deltas={}, house={},
                              idempotency_key=f"settle:hand:{hand.pk}:again", memo="again")
    assert "no hand settled twice" in _failing()


def test_a_hand_left_in_play_is_found() -> None:
    _table, hand = _settled_hand()
    Hand.objects.filter(pk=hand.pk).update(status=Hand.Status.ACTIVE)
    assert {"every hand ended settled or voided", "every ended hand has its record"} <= _failing()


def test_a_voided_hand_that_moved_coins_is_found() -> None:
    _table, hand = _settled_hand()
    Hand.objects.filter(pk=hand.pk).update(status=Hand.Status.VOIDED)
    assert "voided hands returned stakes" in _failing()
