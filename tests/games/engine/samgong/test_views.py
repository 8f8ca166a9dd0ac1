"""view: own cards, public face-up cards, revealed cards; nothing else (protocol ``view``)."""

from __future__ import annotations

import pytest

from games.engine import samgong as sg
from tests.games.engine.samgong.helpers import SEED, seats

T0 = 50.0


def hand_state(mode: str, n: int, **rules: object) -> dict:
    return sg.plugin.new_hand(rules={"mode": mode, **rules}, seats=seats(*[5000] * n), carry=None, server_seed=SEED, now=T0)


def shown(view: dict) -> list[list[str | None]]:
    return [s["cards"] for s in view["seats"]]


def test_a_seat_sees_only_its_own_cards_before_reveal() -> None:
    s = hand_state("pairwise", 3)
    v = sg.plugin.view(s, 1)
    assert all(c is not None for c in shown(v)[1])
    assert shown(v)[0] == [None, None, None] and shown(v)[2] == [None, None, None]
    assert shown(sg.plugin.view(s, None)) == [[None] * 3] * 3


def test_revealed_cards_become_public() -> None:
    s, _ = sg.plugin.apply(hand_state("pairwise", 3), 2, {"type": "reveal"}, now=T0)
    v = sg.plugin.view(s, 0)
    assert all(c is not None for c in shown(v)[2]) and shown(v)[1] == [None] * 3
    assert v["seats"][2]["revealed"]


def test_banker_bid_face_up_cards_are_public_the_third_is_not() -> None:
    s = hand_state("banker_bid", 4)
    for p in range(4):
        s, _ = sg.plugin.apply(s, p, {"type": "pass"}, now=T0)
    for p in range(4):
        if p != s["banker"]:
            s, _ = sg.plugin.apply(s, p, {"type": "bet", "multiplier": 1}, now=T0)
    other = (s["banker"] + 1) % 4
    v = sg.plugin.view(s, s["banker"])
    assert shown(v)[other][:2] == [c for c in sg.plugin.view(s, other)["seats"][other]["cards"][:2]]
    assert shown(v)[other][2] is None and shown(v)[other][0] is not None


def test_settled_hand_shows_everything_and_the_result() -> None:
    s = hand_state("all_compare", 2)
    while s["phase"] != "settled":
        s, _ = sg.plugin.on_deadline(s, now=sg.plugin.deadline(s))
    v = sg.plugin.view(s, None)
    assert all(c is not None for cards in shown(v) for c in cards)
    assert v["result"] == sg.plugin.result(s)


def test_view_never_carries_the_deck_or_lotteries() -> None:
    v = sg.plugin.view(hand_state("banker_rotate", 4), 0)
    assert "deck" not in v and "lots" not in v and v["offer"] is not None


def test_bets_are_secret_until_the_bet_phase_ends() -> None:
    s, _ = sg.plugin.apply(hand_state("all_compare", 3), 0, {"type": "bet", "multiplier": 5}, now=T0)
    assert sg.plugin.view(s, 1)["seats"][0]["bet"] is None and sg.plugin.view(s, 0)["seats"][0]["bet"] == 5
    for p in (1, 2):
        s, _ = sg.plugin.apply(s, p, {"type": "bet", "multiplier": 1}, now=T0)
    assert sg.plugin.view(s, 1)["seats"][0]["bet"] == 5


@pytest.mark.parametrize("seat", [0, 1, None])
def test_legal_actions_are_in_the_view(seat: int | None) -> None:
    s = hand_state("all_compare", 2)
    assert sg.plugin.view(s, seat)["legal_actions"] == ([] if seat is None else sg.plugin.legal_actions(s, seat))
