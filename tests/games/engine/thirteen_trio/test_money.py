"""Money of 三人十三支 (docs/RULES.md section 2 "Money", "Disconnecting or leaving"; intro rounding)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import EngineError
from games.engine.thirteen_trio.money import commission, game_coins, penalty, split
from games.engine.thirteen_trio.rules import BASES, check_start, end_set, game_minimum, resolve_rules, set_minimum


def test_one_dun_is_the_base_and_5_percent_of_each_net_win_is_commission() -> None:
    assert game_coins([4, -2, -2], base=10_000, commission_percent=5) == ([38_000, -20_000, -20_000], 2_000)
    assert game_coins([1, 1, -2], base=100, commission_percent=5) == ([95, 95, -200], 10)
    assert game_coins([0, 0, 0], base=100, commission_percent=5) == ([0, 0, 0], 0)


def test_commission_is_rounded_down_and_never_taken_on_a_loss() -> None:
    assert commission(39, 5) == 1 and commission(19, 5) == 0 and commission(-100, 5) == 0
    assert game_coins([1, 1, -2], base=33, commission_percent=5) == ([32, 32, -66], 2)


def test_the_bases_are_100_to_1000_coins_in_minor_units() -> None:
    assert BASES == (10_000, 20_000, 30_000, 50_000, 100_000)
    assert resolve_rules(None)["base"] == 10_000 and resolve_rules(None)["commission_percent"] == 5


@pytest.mark.parametrize(("base", "forms"), [(100, 3_000), (200, 6_000), (300, 9_000), (500, 15_000), (1000, 30_000)])
def test_table_minimum_is_30_bases_and_game_minimum_11_bases(base: int, forms: int) -> None:
    # 成局點數 3000 … 30000 for bases 100 … 1000 (the original rule text)
    assert set_minimum({"base": base}) == forms
    assert game_minimum({"base": base}) == 11 * base


def test_check_start_asks_30_bases_for_a_set_and_11_bases_between_games() -> None:
    rules = {"base": 100}
    assert check_start(rules, [3_000, 3_000, 3_000], None) == []
    assert check_start(rules, [3_000, 2_999, 9_999], None) == [
        {"seat": 1, "reason": "below_set_minimum", "stack": 2_999, "minimum": 3_000}
    ]
    mid_set = {"next_game": 4}
    assert check_start(rules, [1_100, 2_000, 3_000], mid_set) == []
    assert check_start(rules, [1_099, 2_000, 50], mid_set) == [
        {"seat": 0, "reason": "below_game_minimum", "stack": 1_099, "minimum": 1_100},
        {"seat": 2, "reason": "below_game_minimum", "stack": 50, "minimum": 1_100},
    ]
    # a removal ends the set: the next game needs the set minimum again
    assert check_start(rules, [1_100, 2_000, 3_000], end_set(mid_set))[0]["reason"] == "below_set_minimum"
    with pytest.raises(EngineError, match="stacks"):
        check_start(rules, [1, 2], None)


def test_unknown_or_bad_rules_are_refused() -> None:
    with pytest.raises(EngineError, match="rules.ante"):
        resolve_rules({"ante": 5})
    with pytest.raises(EngineError, match="rules.base"):
        resolve_rules({"base": 0})
    with pytest.raises(EngineError, match="rules.base"):
        resolve_rules({"base": 1.5})


def test_the_penalty_is_half_a_base_40_40_20() -> None:
    # 斷線者將加罰底數一半之點數，由未斷線的兩位玩家各分得40%，系統收取20%
    assert penalty(base=10_000, payer=2, head=0) == {
        "seat": 2,
        "amount": 5_000,
        "coins": [2_000, 2_000, -5_000],
        "house": 1_000,
    }
    assert penalty(base=100, payer=0, head=1) == {"seat": 0, "amount": 50, "coins": [-50, 20, 20], "house": 10}


def test_penalty_rounding_floors_the_house_and_gives_leftovers_after_the_head() -> None:
    # base 107: ½ base = 53, house ⌊10.6⌋ = 10, 43 for two equal claims: 21 each + 1 left over,
    # which goes to the first claimant in seat order after the table head
    assert penalty(base=107, payer=0, head=0)["coins"] == [-53, 22, 21]
    assert penalty(base=107, payer=0, head=1)["coins"] == [-53, 21, 22]
    assert penalty(base=107, payer=1, head=1)["coins"] == [21, -53, 22]
    assert penalty(base=107, payer=1, head=2)["coins"] == [22, -53, 21]
    assert penalty(base=107, payer=0, head=0)["house"] == 10


def test_split_gives_leftovers_one_each_in_seat_order_after_the_given_seat() -> None:
    assert split(10, [1, 1, 1], after=0) == [3, 4, 3]
    assert split(11, [1, 1, 1], after=2) == [4, 4, 3]
    assert split(7, [2, 0, 1], after=1) == [4, 0, 3]  # ⌊4.67⌋, ⌊2.33⌋, leftover to seat 2
    assert split(7, [2, 0, 1], after=2) == [5, 0, 2]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.integers(1, 10**7), st.integers(0, 2), st.integers(0, 2))
def test_the_penalty_always_balances(base: int, payer: int, head: int) -> None:
    p = penalty(base=base, payer=payer, head=head)
    assert sum(p["coins"]) + p["house"] == 0
    assert p["amount"] == base // 2 and p["house"] == p["amount"] * 20 // 100
    others = [c for s, c in enumerate(p["coins"]) if s != payer]
    assert sum(others) == p["amount"] - p["house"] and abs(others[0] - others[1]) <= 1
    assert min(others) >= p["amount"] * 40 // 100
