"""The stored signals (integrity.services.signals): hands played through the services are taken
in by a batch after they settle; a fouling dumper's pair is flagged and gets a case, an honest
table's pairs are not; nothing is taken in twice; a house-banked 三公 table moves no coins
between its players."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.services import hands as hands_service
from games.services import seating
from history.models import HandRecordSeat
from integrity.models import Case, PairSignal, PlayerSignal
from integrity.services.signals import signals_update
from tests.factories import funded_user, table_at
from tests.integrity.test_selectors import _play

LATER = timedelta(hours=1)


def _seated(names: list[str], game: str = "thirteen", mode: str = "") -> tuple[Any, list[Any]]:
    table = table_at(game, mode)
    users = [funded_user(n, 100_000_000) for n in names]
    for u in users:
        seating.seat_join(table_id=table.pk, user=u, buy_in=table.stake_level.min_buy_in * 200,
                          request_id=f"join-{u.username}")
    return table, users


def _update() -> int:
    return signals_update(settled_before=timezone.now() + LATER)


@pytest.mark.django_db
def test_a_dumpers_pair_is_flagged_and_opens_a_case_while_an_honest_tables_pairs_are_not() -> None:
    dumping, (dumper, receiver) = _seated(["dumper", "receiver"])
    _play(dumping, [dumper, receiver], 30, dumper=dumper)
    honest, players = _seated(["ann", "bob", "cat"])  # seated now: a seat silent for long is away
    _play(honest, players, 30)
    assert PairSignal.objects.count() == 0  # nothing until a batch runs
    assert _update() == 60
    pair = PairSignal.objects.get(a=min(dumper.pk, receiver.pk), b=max(dumper.pk, receiver.pk))
    assert pair.hands == 30 and "flow" in pair.flags
    # the fouls paid the receiver, and paid them beyond what the dumper's cards were worth
    assert (pair.flow_net > 0) == (pair.a_id == receiver.pk) == (pair.gift_net > 0)
    assert not PairSignal.objects.filter(a__in=players, b__in=players).exclude(flags=[]).exists()
    [case] = Case.objects.all()
    assert case.pair == pair and case.status == Case.Status.OPEN and set(case.accounts.all()) == {dumper, receiver}
    assert len(case.hand_ids) == 30
    fouls = PlayerSignal.objects.get(user=dumper)
    assert fouls.hands == 30 and fouls.fouls >= 15 and fouls.play_net < 0


@pytest.mark.django_db
def test_a_batch_takes_each_record_in_once_and_waits_for_the_lag() -> None:
    table, users = _seated(["ann", "bob"])
    _play(table, users, 3)
    assert signals_update(settled_before=timezone.now() - LATER) == 0
    assert signals_update(limit=2, settled_before=timezone.now() + LATER) == 2
    assert _update() == 1 and _update() == 0
    [pair] = PairSignal.objects.all()
    a_coins = dict(HandRecordSeat.objects.filter(user=pair.a).values_list("record_id", "coins"))
    b_coins = dict(HandRecordSeat.objects.filter(user=pair.b).values_list("record_id", "coins"))
    lost = [-b_coins[r] if b_coins[r] < 0 else min(a_coins[r], 0) for r in a_coins]
    assert pair.hands == 3 and pair.flow_net == sum(lost)  # two seats: each hand's flow is what the loser lost
    assert sum(p.coins for p in PlayerSignal.objects.all()) + sum(
        p.commission for p in PlayerSignal.objects.all()) == 0


@pytest.mark.django_db
def test_players_at_a_house_banked_table_never_pay_one_another() -> None:
    from tests.factories import hand_play_out

    table, users = _seated(["ann", "bob", "cat"], "samgong", "house")
    for _ in range(3):
        hand = hands_service.hand_start_if_ready(table_id=table.pk)
        assert hand is not None
        hand_play_out(hand, users)
    _update()
    assert PairSignal.objects.count() == 3
    assert all(p.flow_net == 0 and p.flow_sq == 0 for p in PairSignal.objects.all())


def _bets_hand(table: Any, users: list[Any], dumper: Any, partner: Any, rng: random.Random) -> None:
    """One 三公 抢庄 hand through the services: ``partner`` alone bids; ``dumper`` bets the largest
    multiplier on weak face-up cards and the smallest on strong ones when ``partner`` banks; the
    others bet at random."""
    from games.adapters import engine
    from games.engine.samgong.hands import card_points
    from games.models import Hand

    eng, by_id = engine("samgong"), {u.pk: u for u in users}
    hand = hands_service.hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    for _ in range(40):
        hand.refresh_from_db()
        if hand.status != Hand.Status.ACTIVE:
            return
        state = hand.state
        seat = next(s for s in range(len(hand.players)) if eng.legal_actions(state, s))
        user = by_id[hand.players[seat]["user"]]
        kinds = {a["type"] for a in eng.legal_actions(state, seat)}
        bets = state["rules"]["bet_multipliers"]
        if "bid" in kinds:
            action = {"type": "bid" if user == partner else "pass"}
        elif "bet" in kinds and user == dumper and hand.players[state["banker"]]["user"] == partner.pk:
            weak = sum(card_points(c) for c in state["cards"][seat][:2]) % 10 <= 4
            action = {"type": "bet", "multiplier": max(bets) if weak else min(bets)}
        elif "bet" in kinds:
            action = {"type": "bet", "multiplier": rng.choice(bets)}
        else:
            action = dict(eng.auto_action(state, seat))
        assert hands_service.hand_act(table_id=table.pk, user=user, action=action)["status"] == "applied"
    raise AssertionError("the hand did not end")


@pytest.mark.django_db
def test_bets_against_the_cards_kept_for_one_banker_flag_the_pair_and_random_bets_do_not() -> None:
    table, users = _seated(["dumper", "banker", "cat", "dan"], "samgong", "banker_bid")
    dumper, partner = users[0], users[1]
    rng = random.Random(5)
    for _ in range(36):
        _bets_hand(table, users, dumper, partner, rng)
    assert _update() == 36
    pair = PairSignal.objects.get(a=min(dumper.pk, partner.pk), b=max(dumper.pk, partner.pk))
    hands, net = (pair.bet_ab_hands, pair.bet_ab_net) if pair.a_id == dumper.pk else (pair.bet_ba_hands,
                                                                                      pair.bet_ba_net)
    assert hands == 36 and net < 0 and "bets" in pair.flags
    assert PlayerSignal.objects.get(user=dumper).bet_hands == 36
    honest = PairSignal.objects.filter(a__in=users[1:], b__in=users[1:])
    assert honest.count() == 3 and not honest.exclude(flags=[]).exists()
    summary = Case.objects.get(pair=pair).summary  # the case keeps the bets figures it was opened on
    assert summary["bet_ab_net" if pair.a_id == dumper.pk else "bet_ba_net"] == net
