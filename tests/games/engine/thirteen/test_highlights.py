"""The showdown's special events in the view: 全垒打, 大获全胜 (a sweep, never a doubled 打枪), 报到."""

from __future__ import annotations

import doctest
from fractions import Fraction

from games.engine.thirteen import highlights as module
from games.engine.thirteen.hands import settle
from games.engine.thirteen.highlights import highlights
from games.engine.thirteen.scoring import declared_hand
from tests.games.engine.thirteen.helpers import hand

STRONG = hand("As Ad 2c", "Ks Kd Qs Qd 3c", "7s 7d 7c 2d 3d")
WEAK = hand("2s 3s 4h", "6d 6s Ac Qc Jc", "8d 8h 9d 9s Kc")
WEAKER = hand("5s 4d 2h", "Jh Td 8s 6c 4c", "Ah Kh Qh 9c 6h")


def test_the_worked_example_holds() -> None:
    assert doctest.testmod(module).failed == 0


def test_sweeping_both_others_is_a_home_run_and_each_sweep_says_what_it_paid() -> None:
    result = settle([STRONG, WEAK, WEAKER], dealer=0, unit=100, stacks=[10**6] * 3, rate=Fraction(0))
    events = highlights(result)
    shoots = [e for e in events if e["kind"] == "sweep" and e["seat"] == 0]
    assert {e["from"] for e in shoots} == {1, 2}
    for e in shoots:
        pair = next(p for p in result["pairs"] if set(p["seats"]) == {0, e["from"]})
        assert e["units"] == abs(pair["units"]) and e["coins"] == abs(pair["coins"]) and "doubled" not in e
    home = [e for e in events if e["kind"] == "home_run"]
    assert home == [{"kind": "home_run", "seat": 0, "units": sum(e["units"] for e in shoots),
                     "coins": sum(e["coins"] for e in shoots)}]


def test_a_declared_natural_is_announced_with_what_it_won() -> None:
    natural = declared_hand("six_pairs")
    result = settle([natural, WEAK], dealer=0, unit=100, stacks=[10**6] * 2, rate=Fraction(0))
    assert highlights(result) == [{"kind": "natural", "seat": 0, "natural": "six_pairs", "units": 3, "coins": 300}]


def test_two_hands_that_split_the_rows_have_no_event() -> None:
    split = hand("Qh Jh 5d", "7h 7c 3c 4c 5c", "Th Tc 2d 3d Jd")  # wins front and middle, loses the back
    result = settle([split, WEAK], dealer=0, unit=100, stacks=[10**6] * 2, rate=Fraction(0))
    assert result["pairs"][0]["rows"] == [1, 1, -1]
    assert highlights(result) == []


def test_a_fouled_hand_is_swept_for_the_sweep_it_pays() -> None:
    fouled = hand("Ks Kh 2c", "3s 3d 4h 5c 6d", "Jd Jc 7h 8s 9c")  # a pair of kings in front of threes
    result = settle([fouled, WEAK], dealer=0, unit=100, stacks=[10**6] * 2, rate=Fraction(0))
    assert fouled.fouled
    assert highlights(result) == [{"kind": "sweep", "seat": 1, "from": 0, "units": 3, "coins": 300}]
