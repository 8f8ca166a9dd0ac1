"""比打槍 scoring (docs/RULES.md section 2 "Arranging", "Scoring", "Specials"; the original rule text: 勝負計算, 特殊牌加墩)."""

from __future__ import annotations

import pytest

from games.engine.thirteen_trio.scoring import is_foul, next_head, row_keys, score_hands, shoots, specials
from tests.games.engine.thirteen_trio.helpers import MIDDLING, STRONG, WEAK, assert_one_deck, card, hand

# -- shoots between two hands (打槍): wins ≥ 1 row and loses none ------------------------------

A = hand("Kc 9d 4h", "Jc Jd 2s 3c 5d", "Tc Td 7s 7c Ah")  # K high / pair of jacks / tens and sevens
FRONT_TIE, FRONT_LOW = "Kd 9h 4s", "Qc 9s 4d"
MIDDLE_TIE, MIDDLE_LOW, MIDDLE_HIGH = "Jh Js 2d 3h 5h", "8c 8d 2h 3s 5s", "Qh Qs 2d 3h 5h"
BACK_TIE, BACK_LOW = "Th Ts 7d 7h Ad", "8h 8s 6c 6d Kh"


@pytest.mark.parametrize(
    ("front", "middle", "back", "a_shoots"),
    [
        (FRONT_LOW, MIDDLE_LOW, BACK_LOW, True),  # 3 wins (甲的三墩都贏過乙的三墩)
        (FRONT_TIE, MIDDLE_LOW, BACK_LOW, True),  # 2 wins + 1 tie (贏二墩平一墩)
        (FRONT_TIE, MIDDLE_TIE, BACK_LOW, True),  # 1 win + 2 ties (贏一墩平二墩)
        (FRONT_TIE, MIDDLE_HIGH, BACK_LOW, False),  # 1 win, 1 loss, 1 tie
        (FRONT_LOW, MIDDLE_HIGH, BACK_LOW, False),  # 2 wins, 1 loss (任一墩輸給該家則無輸贏)
        (FRONT_TIE, MIDDLE_TIE, BACK_TIE, False),  # all tied
    ],
)
def test_a_shoot_needs_one_row_won_and_none_lost(front: str, middle: str, back: str, a_shoots: bool) -> None:
    b = hand(front, middle, back)
    assert_one_deck(A, b, jackpot="6h")
    assert not is_foul(b)
    assert shoots(row_keys(A), row_keys(b)) is a_shoots
    assert not shoots(row_keys(b), row_keys(A))


def test_no_suits_are_compared_equal_rows_tie() -> None:
    flush_h = hand("2c 3d 5h", "8c 8d 9h 9s Kd", "Ah Kh 9h 7h 4h")
    flush_s = hand("2d 3c 5s", "8h 8s 9c 9d Ks", "As Ks 9s 7s 4s")
    assert row_keys(flush_h) == row_keys(flush_s)
    assert not shoots(row_keys(flush_h), row_keys(flush_s))
    straight = hand("2c 3d 5h", "8c 8d 9h 9s Kd", "As Kd Qc Jh Th")
    straight_2 = hand("2d 3c 5s", "8h 8s 9c 9d Ks", "Ac Kh Qd Js Tc")
    assert row_keys(straight) == row_keys(straight_2)


# -- fouls (相公) --------------------------------------------------------------------------------


def test_a_hand_is_fouled_unless_back_beats_middle_beats_front_equal_allowed() -> None:
    assert is_foul(hand("Ac Ad Ah", "2d 3h 5s 7c 9d", "Kc Kd Ks 4h 4d"))  # front over middle
    assert is_foul(hand("2c 3d 5h", "Kc Kd Ks 4h 4d", "Ac Ad 2s 3c 7h"))  # middle over back
    assert not is_foul(hand("Qc Qd 7h", "Qh Qs 7c 3d 2h", "As Ad 9d 8c 4c"))  # front equals middle's pair
    assert not is_foul(hand("2c 3d 5h", "8c 8d 9h 9s Kd", "8h 8s 9c 9d Ks"))  # middle equals back
    assert not is_foul(hand("2c 3d 5h", "As 2d 3c 4h 5s", "2s 3h 4c 5d 6h"))  # the wheel is the lowest straight


# -- three hands: home run, fouls ---------------------------------------------------------------

FOULED = hand("Ac Ad As", "2d 3h 5s 6c 9h", "Kc Ks Qs 4c 5d")  # trips over a high-card middle
FOULED_2 = hand("Jd Jh Js", "2h 3s 4s 6h 8h", "Th Qd Qc Kh 6s")
FOULED_3 = hand("8c 8d Kd", "2c 3d 4h 5c 7h", "6d 9s Jc Ts Qh")  # WEAK's cards, fouled


def test_a_home_run_wins_2_from_each_4_in_all() -> None:
    # STRONG shoots both (全壘打: 各家2墩, 共4墩) and MIDDLING shoots WEAK: 1 more
    assert_one_deck(STRONG, WEAK, MIDDLING, jackpot="6c")
    scored = score_hands([STRONG, WEAK, MIDDLING], card("6c"))
    assert scored["shoots"] == [[0, 1], [0, 2], [2, 1]]
    assert scored["home_run"] == 0 and scored["units"] == [4, -3, -1]


def test_home_run_over_two_hands_that_do_not_shoot_each_other_is_4() -> None:
    # b wins the front from c, c wins the middle and back from b: nothing between them
    b = hand("Kh Qh 2s", "As Ah 3d 4d 5c", "Ks Kd 8h 8d 2c")
    c = hand("Jc 9c 3c", "Tc Th 6c 6d 2d", "9s 9h 9d 5s 5d")
    strong = hand("Ac Ad 2h", "Qc Qd Js Jh 3s", "7c 7d 7h 7s 4c")  # also quads in back (鐵支)
    assert_one_deck(b, c, strong, jackpot="6h")
    scored = score_hands([strong, b, c], card("6h"))
    assert scored["shoots"] == [[0, 1], [0, 2]] and scored["home_run"] == 0
    # 4 for the home run, 2 for the quads
    assert scored["units"] == [4 + 2, -2 - 1, -2 - 1]


def test_a_fouled_hand_loses_every_row_to_every_unfouled_hand() -> None:
    assert_one_deck(FOULED, WEAK, MIDDLING, jackpot="Qd")
    scored = score_hands([FOULED, WEAK, MIDDLING], card("Qd"))
    assert scored["fouled"] == [True, False, False]
    # WEAK shoots the fouled hand even though every WEAK row is weaker; MIDDLING shoots both
    assert scored["shoots"] == [[1, 0], [2, 0], [2, 1]]
    assert scored["home_run"] == 2 and scored["units"] == [-1 - 2, 1 - 2, 4]


def test_one_unfouled_hand_against_two_fouled_is_a_home_run() -> None:
    assert_one_deck(FOULED, WEAK, FOULED_2, jackpot="Tc")
    scored = score_hands([FOULED, WEAK, FOULED_2], card("Tc"))
    assert scored["fouled"] == [True, False, True]
    assert scored["home_run"] == 1 and scored["units"] == [-2, 4, -2]


def test_two_fouled_hands_pay_each_other_nothing() -> None:
    assert_one_deck(FOULED, FOULED_2, FOULED_3, jackpot="Tc")
    scored = score_hands([FOULED, FOULED_2, FOULED_3], card("Tc"))
    assert scored["units"] == [0, 0, 0] and scored["shoots"] == [] and scored["home_run"] is None


# -- specials (特殊牌加墩): 1 墩 from each other player, per row, cumulative -------------------

# Two neutral hands: they never shoot each other, and the hands under test below win a row
# from each and lose a row to each, so every unit below comes from specials.
# Family 1 (the special is in front): strong fronts lose; weak backs (straights) win.
N1A = hand("Kc Kh 2s", "Ac Ad Ah 2h 3h", "8c 9d Th Js Qc")  # KK / trip aces / queen-high straight
N1B = hand("Ks Kd 3c", "8d 8h 8s 4h 5d", "2d 4d 7d Td Jd")  # KK / trip eights / flush
# Family 2 (the specials are in middle / back): strong fronts, weak middles and backs.
N2A = hand("Ac Ad 2s", "Ah As 5c 3s 2c", "Kc Kd 7c 7d 3d")
N2B = hand("Kh Ks 2d", "Qc Qd Jc Jd 3c", "Th Ts Tc 2h 3h")


def units_of(h: dict[str, list[int]], family: int, jackpot: str) -> tuple[list[int], list[dict[str, str]]]:
    a, b = (N1A, N1B) if family == 1 else (N2A, N2B)
    assert_one_deck(h, a, b, jackpot=jackpot)
    scored = score_hands([h, a, b], card(jackpot))
    assert scored["shoots"] == [] and scored["fouled"] == [False] * 3
    return scored["units"], [{k: s[k] for k in ("seat", "kind", "row")} for s in scored["specials"]]


def test_front_trips_chong_san_pays_1_from_each() -> None:
    h = hand("9c 9h 9s", "Qd Qh Qs 4c 5c", "As 2c 3d 4s 5s")
    assert units_of(h, 1, "6h") == ([2, -1, -1], [{"seat": 0, "kind": "front_trips", "row": "front"}])


def test_jackpot_trips_in_front_are_chong_san_plus_jackpot_2_from_each() -> None:
    h = hand("6s 6d 6c", "Qd Qh Qs 4c 5c", "As 2c 3d 4s 5s")  # jackpot 6h: the other three sixes
    units, found = units_of(h, 1, "6h")
    assert units == [4, -2, -2]
    assert [f["kind"] for f in found] == ["front_trips", "jackpot"]


@pytest.mark.parametrize(
    ("h", "row"),
    [
        (hand("2c 3d 4c", "6s 6d 6c 9c 9h", "Qd Qh Qs Tc Ts"), "middle"),  # in a full house
        (hand("3s 4c 5c", "As 2c 3d 4s 5s", "6s 6d 6c Qd Qh"), "back"),
    ],
)
def test_the_jackpot_in_middle_or_back_pays_1_from_each(h: dict[str, list[int]], row: str) -> None:
    assert units_of(h, 1, "6h") == ([2, -1, -1], [{"seat": 0, "kind": "jackpot", "row": row}])


def test_the_jackpot_needs_all_three_cards_in_one_row() -> None:
    h = hand("6s 6d 2c", "6c 9c 9h 9s 3d", "Qd Qh Qs Tc Ts")  # three sixes split over two rows
    assert specials(h, card("6h")) == []


def test_quads_in_middle_and_back_pay_2_from_each() -> None:
    h = hand("5d 8c Qh", "6c 6d 6h 6s 4d", "9c 9d 9h 9s 4h")
    units, found = units_of(h, 2, "Jh")
    assert units == [4, -2, -2]
    assert found == [{"seat": 0, "kind": "quads", "row": "middle"}, {"seat": 0, "kind": "quads", "row": "back"}]


def test_quads_in_back_pay_1_from_each() -> None:
    h = hand("5d 6c Qh", "8c 8d 8s 4d 4h", "9c 9d 9h 9s 5s")
    assert units_of(h, 2, "Jh") == ([2, -1, -1], [{"seat": 0, "kind": "quads", "row": "back"}])


def test_a_straight_flush_in_back_pays_1_from_each() -> None:
    h = hand("5d 6c Qh", "9c 9d 9s 4d 4h", "5h 6h 7h 8h 9h")
    assert units_of(h, 2, "Jh") == ([2, -1, -1], [{"seat": 0, "kind": "straight_flush", "row": "back"}])


def test_quads_in_middle_and_a_straight_flush_in_back_add_up() -> None:
    h = hand("5d 8c Qh", "4c 4d 4h 4s 6c", "5s 6s 7s 8s 9s")
    units, found = units_of(h, 2, "Jh")
    assert units == [4, -2, -2]
    assert [(f["kind"], f["row"]) for f in found] == [("quads", "middle"), ("straight_flush", "back")]


def test_straight_flushes_in_middle_and_back_pay_2_from_each() -> None:
    h = hand("4c 8c Qs", "5s 6s 7s 8s 9s", "5h 6h 7h 8h 9h")  # equal rows: not a foul
    units, found = units_of(h, 2, "Jh")
    assert units == [4, -2, -2]
    assert [(f["kind"], f["row"]) for f in found] == [("straight_flush", "middle"), ("straight_flush", "back")]


def test_the_other_players_specials_are_paid_to_them_too() -> None:
    # N2B's back holds Tc Th Ts: with Td turned up it is the jackpot, 1 from each of the others
    h = hand("5d 6c Qh", "8c 8d 8s 4d 4h", "9c 9d 9h 9s 5s")
    assert_one_deck(h, N2A, N2B, jackpot="Td")
    scored = score_hands([h, N2A, N2B], card("Td"))
    assert [(s["seat"], s["kind"]) for s in scored["specials"]] == [(0, "quads"), (2, "jackpot")]
    assert scored["units"] == [2 - 1, -1 - 1, -1 + 2]


def test_specials_never_count_for_a_fouled_hand_but_it_still_pays_them() -> None:
    fouled = hand("6s 6d 6c", "2c 3d 4c 5c 7c", "9c 9h 9s Qd Qh")  # jackpot trips in front, high-card middle
    assert_one_deck(fouled, N1A, N1B, jackpot="6h")
    assert is_foul(fouled) and len(specials(fouled, card("6h"))) == 2
    scored = score_hands([fouled, N1A, N1B], card("6h"))
    assert scored["specials"] == [] and scored["fouled"] == [True, False, False]
    assert scored["units"] == [-2, 1, 1]  # only shot by both
    quads = hand("5d 8c Qh", "6c 6d 6h 6s 4d", "9c 9d 9s 4h 4s")  # quads over a full house
    assert_one_deck(quads, N2A, N2B, jackpot="Jh")
    scored = score_hands([quads, N2A, N2B], card("Jh"))
    assert is_foul(quads) and scored["specials"] == [] and scored["units"] == [-2, 1, 1]


def test_a_straight_flush_middle_over_a_quads_back_is_a_foul() -> None:
    assert is_foul(hand("2c 3d 4h", "5s 6s 7s 8s 9s", "Qc Qd Qh Qs 2s"))


def test_there_are_no_naturals_a_dragon_is_an_ordinary_hand() -> None:
    # 一條龍 (one card of every rank) earns nothing special: here a home run over two fouls
    dragon = hand("4h 3s 2c", "9d 8h 7s 6d 5c", "Ac Kd Qh Js Tc")
    fouled_1 = hand("Ad Ah As", "2d 3d 5d 7d 9c", "Kc Ks Kh Qc Qd")
    fouled_2 = hand("2h 2s 3h", "4d 6h 8c 9s Jh", "Jd Jc 7c 7h 5h")
    assert_one_deck(dragon, fouled_1, fouled_2, jackpot="Ts")
    scored = score_hands([dragon, fouled_1, fouled_2], card("Ts"))
    assert scored["fouled"] == [False, True, True] and scored["specials"] == []
    assert scored["units"] == [4, -2, -2]


# -- the next table head (每局遊戲由上一局尾墩牌型最大的玩家當桌長) --------------------------------


def test_the_strongest_unfouled_back_becomes_head() -> None:
    hands = [WEAK, MIDDLING, STRONG]
    assert next_head(0, hands, [False, False, False]) == 2
    assert next_head(0, hands, [False, False, True]) == 1  # the full house is fouled


def test_equal_backs_go_to_the_tied_seat_met_first_counter_clockwise_from_the_head() -> None:
    tie_a = hand("2c 3d 4h", "5c 6d 7h 9s Jc", "Ah Kh 9h 7h 4h")
    tie_b = hand("2d 3c 4s", "5d 6c 7s 9h Jd", "As Ks 9s 7s 4s")
    weak = WEAK
    # head 0: counter-clockwise order 0, 2, 1
    assert next_head(0, [weak, tie_a, tie_b], [False] * 3) == 2
    assert next_head(0, [tie_a, weak, tie_b], [False] * 3) == 0  # the head itself first
    assert next_head(1, [tie_a, weak, tie_b], [False] * 3) == 0  # from head 1: 1, 0, 2
    assert next_head(2, [tie_a, tie_b, weak], [False] * 3) == 1  # from head 2: 2, 1, 0


def test_all_fouled_leaves_the_head_unchanged() -> None:
    hands = [FOULED, FOULED_2, FOULED_3]
    assert [is_foul(h) for h in hands] == [True] * 3
    assert next_head(1, hands, [True] * 3) == 1
