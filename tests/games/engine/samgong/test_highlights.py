"""The showdown's special events in the view: a 三公 hand that won, with its multiplier and win."""

from __future__ import annotations

import doctest

from games.engine.samgong import highlights as module
from games.engine.samgong.highlights import highlights
from games.engine.samgong.rules import resolve_rules
from games.engine.samgong.settle import settle_all_compare
from tests.games.engine.samgong.helpers import hand

BIG = 10**6


def test_the_worked_example_holds() -> None:
    assert doctest.testmod(module).failed == 0


def test_a_winning_sangong_is_announced_with_what_it_won() -> None:
    s = settle_all_compare([hand("Ks Qs Jh"), hand("9s Kd Qc")], [2, 1], [BIG] * 2, resolve_rules({"mode": "all_compare", "base": 100}))
    assert highlights(s, mode="all_compare") == [
        {"kind": "sangong", "seat": 0, "hand": "sangong", "multiplier": s["multipliers"][0], "coins": s["gross"][0]}
    ]


def test_big_three_faces_is_announced_and_a_point_hand_or_a_house_table_is_not() -> None:
    s = settle_all_compare([hand("Ks Kd Kh"), hand("9s Kc Qc")], [1, 1], [BIG] * 2,
                           resolve_rules({"mode": "all_compare", "base": 100}))
    assert s["gross"][0] > 0 and highlights(s, mode="all_compare")[0]["hand"] == s["hands"][0]
    point = settle_all_compare([hand("9s Kd Qc"), hand("5d Tc Jd")], [1, 1], [BIG] * 2,
                               resolve_rules({"mode": "all_compare", "base": 100}))
    assert point["gross"][0] > 0 and highlights(point, mode="all_compare") == []
    assert highlights(point, mode="house") == [] and highlights(None, mode="all_compare") == []
