"""The jackpot card and the deal (docs/RULES.md section 2 "Table head and deal"; the original rule text: items 1-2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import thirteen_trio
from games.engine.cards import RANKS, make_card
from games.engine.deck import shuffle
from games.engine.errors import EngineError
from games.engine.thirteen_trio.deal import card_value, deal, start_seat
from games.engine.thirteen_trio.rules import role
from tests.games.engine.thirteen_trio.helpers import SEED, seats, start

# 頭 1, 對 2, 尾 3, 頭 4, 對 5, 尾 6, ... (the original rule text, item 1)
COUNT = {
    1: "頭",
    2: "對",
    3: "尾",
    4: "頭",
    5: "對",
    6: "尾",
    7: "頭",
    8: "對",
    9: "尾",
    10: "頭",
    11: "對",
    12: "尾",
    13: "頭",
}


def test_card_values_run_ace_1_to_king_13() -> None:
    values = [card_value(make_card(RANKS.index(r), 0)) for r in "A23456789TJQK"]
    assert values == list(range(1, 14))


@pytest.mark.parametrize("head", [0, 1, 2])
@pytest.mark.parametrize("value", range(1, 14))
def test_the_jackpot_value_counts_head_opposite_tail_from_the_head(head: int, value: int) -> None:
    seat = start_seat(head, value)
    assert role(head, seat) == COUNT[value]
    assert seat == (head - ((value - 1) % 3)) % 3


def test_a_six_starts_at_the_tail() -> None:
    # the original rule text: 第一局抽出的是6，則由尾家位開始發出第一張牌
    for head in range(3):
        assert role(head, start_seat(head, 6)) == "尾"
    assert start_seat(0, 6) == 1  # counter-clockwise from seat 0: 頭 0, 對 2, 尾 1


def test_roles_run_counter_clockwise_from_the_head() -> None:
    assert [role(0, s) for s in (0, 2, 1)] == ["頭", "對", "尾"]
    assert [role(1, s) for s in (1, 0, 2)] == ["頭", "對", "尾"]


def test_cards_go_one_at_a_time_counter_clockwise_from_the_start_seat() -> None:
    six = make_card(RANKS.index("6"), 2)  # 6h on top
    deck = [six] + [c for c in range(52) if c != six]
    jackpot, first, hands = deal(deck, head=0)
    assert jackpot == six and first == 1
    rest = deck[1:]
    # 尾 (seat 1) gets cards 1, 4, 7..., then seat 0 (頭), then seat 2 (對)
    assert hands[1] == rest[0::3] and hands[0] == rest[1::3] and hands[2] == rest[2::3]
    assert [len(h) for h in hands] == [17, 17, 17]


def test_the_deal_of_a_state_is_the_seeded_shuffle_with_the_top_card_turned_up() -> None:
    state = start()
    deck = shuffle(SEED)
    jackpot, first, hands = deal(deck, head=0)
    assert state["jackpot"] == deck[0] == jackpot and state["start_seat"] == first
    assert [s["cards"] for s in state["seats"]] == hands
    assert all(state["jackpot"] not in s["cards"] for s in state["seats"])


def test_client_seeds_change_the_deal() -> None:
    assert start()["seats"][0]["cards"] != start(client_seeds=["x"])["seats"][0]["cards"]


def test_a_deck_of_the_wrong_size_or_a_bad_value_is_refused() -> None:
    with pytest.raises(EngineError):
        deal(list(range(51)), head=0)
    with pytest.raises(EngineError):
        start_seat(0, 14)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 2))
def test_re_dealing_from_the_seed_gives_the_same_hands(raw: bytes, head: int) -> None:
    seed = raw.hex()
    carry = {"game": "thirteen_trio", "players": ["a", "b", "c"], "head": head, "next_game": 2, "disconnected": []}
    one = thirteen_trio.plugin.new_hand(rules={}, seats=seats(), carry=carry, server_seed=seed, now=0.0)
    two = thirteen_trio.plugin.new_hand(rules={}, seats=seats(), carry=carry, server_seed=seed, now=5.0)
    assert [s["cards"] for s in one["seats"]] == [s["cards"] for s in two["seats"]]
    assert one["jackpot"] == two["jackpot"] and one["head"] == head
    dealt = sorted(c for s in one["seats"] for c in s["cards"]) + [one["jackpot"]]
    assert sorted(dealt) == list(range(52))
    assert role(head, one["start_seat"]) == COUNT[card_value(one["jackpot"])]
