"""Scoring of docs/RULES.md section 1: rows, bonus rows, fouls, naturals, comparison order, money."""

from __future__ import annotations

import doctest
from fractions import Fraction
from typing import Any

import pytest

from games.engine.thirteen import arrange, hands, money, naturals, requests, rules, scoring
from games.engine.thirteen.money import commissions, settle_coins, trim_transfers
from games.engine.thirteen.requests import score_request
from games.engine.thirteen.scoring import comparison_order, declared_hand, pair_units, row_value
from tests.games.engine.thirteen.helpers import SEED_ABCD, declared, hand, seat

WEAK = hand("7h 5d 3c", "Js Td 8h 6h 4c", "Qh Jh Tc 8c 5s")  # high cards everywhere


def units(*seats: dict[str, Any]) -> list[int]:
    answer: list[int] = score_request({"game": "thirteen", "seats": list(seats)})["units"]
    return answer


# -- rows and bonus rows -------------------------------------------------------------------


def test_a_sweep_whose_back_is_quads_earns_six() -> None:
    quads = hand("Ah Ad 2c", "Kh Kd Qs Qc 3d", "9s 9h 9d 9c 4s")
    assert pair_units(quads, WEAK) == (6, {"kind": "rows", "rows": [1, 1, 4]})
    assert pair_units(WEAK, quads)[0] == -6


def test_winning_two_rows_and_losing_one_nets_one() -> None:
    a = hand("9s 9d 2c", "Kh Kd 3s 4c 5d", "Qs Qc Jd Jc 9h")
    b = hand("7h 5d 3c", "Ts Td 8h 6h 4h", "As Ks Qh Jh Th")
    assert not a.fouled and not b.fouled
    assert pair_units(a, b) == (1, {"kind": "rows", "rows": [1, 1, -1]})


def test_a_tied_row_scores_zero() -> None:
    a = hand("9h 5d 3c", "Js Td 8h 6h 4c", "Kh Qh Jc 8c 5s")
    b = hand("9s 5h 3d", "Jh Tc 8d 6d 4d", "Ks Qd Jd 8s 5c")
    assert pair_units(a, b) == (0, {"kind": "rows", "rows": [0, 0, 0]})


@pytest.mark.parametrize(
    ("row", "cards", "value"),
    [
        (0, "Qs Qh Qd", 3),
        (0, "Qs Qh 2d", 1),
        (1, "Qs Qh Qd 2s 2h", 2),
        (2, "Qs Qh Qd 2s 2h", 1),
        (1, "Qs Qh Qd Qc 2h", 8),
        (2, "Qs Qh Qd Qc 2h", 4),
        (1, "9s Ts Js Qs Ks", 10),
        (2, "9s Ts Js Qs Ks", 5),
        (1, "As Ts Js Qs Ks", 14),
        (2, "As Ts Js Qs Ks", 7),
        (1, "As 2s 3s 4s 5s", 10),
        (2, "As Ks Js 9s 5s", 1),
    ],
)
def test_bonus_rows_follow_the_table(row: int, cards: str, value: int) -> None:
    from games.engine.cards import parse_cards
    from games.engine.poker import rank_row

    assert row_value(row, rank_row(parse_cards(cards.split()), suits=True)) == value


def test_bonus_is_instead_of_one_not_added() -> None:
    fh = hand("Ah Kd 2c", "Qs Qh Qd 2s 2h", "As Ac Ad 3s 3h")
    assert pair_units(fh, WEAK) == (4, {"kind": "rows", "rows": [1, 2, 1]})


# -- fouls ---------------------------------------------------------------------------------


def test_a_foul_against_back_quads_pays_six() -> None:
    quads = hand("Ah Ad 2c", "Kh Kd Qs Qc 3d", "9s 9h 9d 9c 4s")
    fouled = hand("As Ac 2d", "7s 6d 5h 3h 2h", "Ks Qd Jd Ts 8d")
    assert fouled.fouled
    assert pair_units(fouled, quads)[0] == -6
    assert pair_units(quads, fouled) == (6, {"kind": "foul", "rows": None})


def test_a_foul_against_middle_full_house_and_back_quads_pays_seven() -> None:
    strong = hand("Ah Kd 2c", "Qs Qh Qd 2s 2h", "9s 9h 9d 9c 4s")
    fouled = hand("As Ac 2d", "7s 6d 5h 3h 3c", "Ks Qc Jd Ts 8d")
    assert not strong.fouled and fouled.fouled
    assert pair_units(strong, fouled)[0] == 7


def test_a_fouled_hand_loses_every_row_even_ones_it_would_win() -> None:
    fouled = hand("As Ac Ad", "Ks Kc 2d 3h 4h", "Qs Qc Jd Ts 8d")  # trips front over a pair
    assert fouled.fouled
    assert pair_units(fouled, WEAK)[0] == -3


def test_two_fouled_hands_pay_nothing() -> None:
    f1 = hand("As Ac 2d", "7s 6d 5h 3h 3c", "Ks Qc Jd Ts 8d")
    f2 = hand("Ks Kc 2c", "9s 8d 6h 4h 3d", "Ah Qh Jc Tc 7d")
    assert f1.fouled and f2.fouled
    assert pair_units(f1, f2) == (0, {"kind": "foul", "rows": None})


def test_declaring_without_a_natural_is_a_foul() -> None:
    r = score_request(
        {
            "game": "thirteen",
            "seats": [
                declared("2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd 2d"),
                seat("7c 5h 3s", "Jd Tc 8s 6d 4s", "Qs Jc Th 8h 5s"),
            ],
        }
    )
    assert r == {"units": [-3, 3], "fouled": [True, False], "natural": [None, None]}


def test_a_foul_pays_a_natural_its_value() -> None:
    fouled = hand("As Ac 2d", "7s 6d 5h 3h 3c", "Ks Qc Jd Ts 8d")
    assert pair_units(declared_hand("three_flushes"), fouled)[0] == 3
    assert pair_units(fouled, declared_hand("dragon"))[0] == -13


# -- naturals --------------------------------------------------------------------------------

DRAGON = "2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ad"
SIX_PAIRS = "2h 2c 3s 3d 4h 4d 5h 5c 6h 6c 7s 7c 9s"
THREE_STRAIGHTS = "2s 3s 4d  5h 6h 7s 8c 9d  5c 6d 7d 8d 9c"
THREE_FLUSHES = "2h 4h 9h  2c 3c 4c Jc Qc  5s 6s 8s Js Qs"


def test_dragon_against_six_pairs_wins_thirteen() -> None:
    assert units(declared(DRAGON), declared(SIX_PAIRS)) == [13, -13]


def test_three_straights_beat_three_flushes_by_four() -> None:
    r = score_request({"game": "thirteen", "seats": [declared(THREE_FLUSHES), declared(THREE_STRAIGHTS)]})
    assert r["natural"] == ["three_flushes", "three_straights"]
    assert r["units"] == [-4, 4]


def test_naturals_of_equal_rank_tie() -> None:
    other = "2s 2d 3h 3c 4s 4c 5s 5d 6s 6d 8s 8d Ah"
    assert units(declared(SIX_PAIRS), declared(other)) == [0, 0]


def test_a_natural_beats_an_ordinary_hand_by_its_value_whatever_the_rows() -> None:
    strong = seat("Ah Ad Ac", "Kh Kd Ks Kc 3d", "9s Ts Js Qs 8s")
    assert units(declared("2h 2c 3s 3h 4h 4d 5h 5c 6h 6c 7s 7c Jh"), strong) == [3, -3]


def test_an_undeclared_natural_plays_as_an_ordinary_hand() -> None:
    r = score_request(
        {
            "game": "thirteen",
            "seats": [
                seat("2s 3h 4c", "5d 6s 7h 8c 9d", "Ts Jh Qc Kd Ad"),  # a dragon, not declared
                seat("2h 2c 5s", "3s 3d 4h 4d 6c", "7s 7c 7d 9s 9c"),
            ],
        }
    )
    assert r == {"units": [-1, 1], "fouled": [False, False], "natural": [None, None]}


# -- comparison order and money ------------------------------------------------------------


def test_comparison_order_starts_at_the_dealer_and_runs_clockwise() -> None:
    assert comparison_order(4, 0) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert comparison_order(3, 1) == [(1, 2), (1, 0), (2, 0)]
    assert comparison_order(2, 1) == [(1, 0)]


def test_the_seeds_four_player_example() -> None:
    r = score_request({"game": "thirteen", "seats": SEED_ABCD})
    assert r["units"] == [3, -7, 5, -1]
    assert r["fouled"] == [False] * 4


def test_the_seeds_short_money_example_cuts_c_against_d_to_two() -> None:
    order = comparison_order(4, 0)  # A deals: A-B, A-C, A-D, B-C, B-D, C-D
    units_ = [0, 4, 0, -1, 0, 3]  # A beats C by 4, C beats B by 1, C beats D by 3
    assert trim_transfers(units_, order, stacks=[10**6, 10**6, 7, 10**6], unit=1) == [0, 4, 0, -1, 0, 2]
    # in minor units: unit $1.00 = 100, C holds $7.00
    moved = trim_transfers(units_, order, stacks=[10**6, 10**6, 700, 10**6], unit=100)
    assert moved[-1] == 200


def test_trimming_with_real_hands_when_c_holds_three() -> None:
    r = score_request(
        {"game": "thirteen", "seats": SEED_ABCD, "dealer": 0, "unit": 1, "stacks": [100, 100, 3, 100], "commission": 0}
    )
    # A-C: C wins 1 (budget 3 → 2); B-C: C sweeps 3, cut to 2 (→ 0); C-D: nothing left
    assert r["coins"] == [3 - 1 + 1, -3 - 2 - 1, 1 + 2 + 0, -1 + 1 - 0]
    assert r["commission"] == 0


def test_wins_use_up_the_budget_like_losses() -> None:
    order = comparison_order(3, 0)  # (0,1), (0,2), (1,2)
    assert trim_transfers([5, -5, 0], order, stacks=[5, 50, 50], unit=1) == [5, 0, 0]


def test_commission_is_on_each_net_win_rounded_down() -> None:
    assert commissions([19, 20, 39, -78], Fraction(5, 100)) == [0, 1, 1, 0]
    r = settle_coins([7, -3], [(0, 1), (0, 2)], stacks=[1000, 1000, 1000], unit=50, rate=Fraction(3, 100))
    # seat 0 wins 350 and pays 150: net 200, 3% → 6; seat 2 wins 150: 4.5 → 4
    assert r["trimmed"] == [200, -350, 150]
    assert r["commissions"] == [6, 0, 4]
    assert r["coins"] == [194, -350, 146]
    assert sum(r["coins"]) + r["commission"] == 0


def test_score_request_coins_take_commission_at_the_given_rate() -> None:
    r = score_request(
        {"game": "thirteen", "seats": SEED_ABCD, "dealer": 0, "unit": 250, "stacks": [10000] * 4, "commission": 4}
    )
    assert r["coins"] == [750 - 30, -1750, 1250 - 50, -250]
    assert r["commission"] == 80


def test_the_doctests_hold() -> None:
    for module in (arrange, hands, money, naturals, requests, rules, scoring):
        assert doctest.testmod(module).failed == 0, module.__name__
