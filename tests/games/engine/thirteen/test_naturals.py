"""Naturals of docs/RULES.md section 1: all seven, their order, values, and qualification."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import parse_cards
from games.engine.thirteen.naturals import (
    NATURAL_VALUES,
    NATURALS,
    best_natural,
    has_three_flushes,
    natural_rank,
    qualifying_naturals,
)


def best(text: str) -> str | None:
    return best_natural(parse_cards(text.split()))


def test_the_seven_naturals_in_rank_order_with_their_values() -> None:
    assert [(name, rank, value) for name, rank, value in NATURALS] == [
        ("thirteen_suited", 1, 13),
        ("dragon", 2, 13),
        ("twelve_suited", 3, 8),
        ("trips_five_pairs", 4, 4),
        ("three_straights", 5, 4),
        ("three_flushes", 6, 3),
        ("six_pairs", 7, 3),
    ]
    assert NATURAL_VALUES["dragon"] == 13 and natural_rank("three_straights") < natural_rank("three_flushes")


@pytest.mark.parametrize(
    ("cards", "natural"),
    [
        ("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", "thirteen_suited"),
        ("2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ad", "dragon"),
        ("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2c", "twelve_suited"),
        ("2s 2h 2c 3d 3s 4h 4c 5d 5s 6h 6c 7d 7s", "trips_five_pairs"),
        ("2s 2h 2c 3d 3s 3h 3c 5d 5s 6h 6c 7d 7s", "trips_five_pairs"),  # quads as two pairs
        ("As 2d 3c  4h 5h 6s 7d 8c  4s 5c 6h 7c 8d", "three_straights"),  # A-2-3 front
        ("Qs Kd Ac  4h 5h 6s 7d 8c  4s 5c 6h 7c 8d", "three_straights"),  # Q-K-A front
        ("2s 3d 4c  As 2h 3s 4d 5c  Th Jc Qh Kc Ad", "three_straights"),  # wheel middle
        ("2h 3h 4h  5h 6h 7h 8h 9h  4s 5s 6s 7s 8s", "three_straights"),  # straight flushes count
        ("2c 5c 9c  3d 4d 8d Jd Qd  2s 6s 7s Js Ks", "three_flushes"),
        ("2c 5c 9c  3c 4c 8c Jc Qc  2s 6s 7s Js Ks", "three_flushes"),  # two rows of one suit
        ("2h 2c 3s 3d 4h 4d 5h 5c 6h 6c 7s 7c 9s", "six_pairs"),
        ("2h 2c 2s 2d 4h 4d 5h 5c 6h 6c 7s 7c 9s", "six_pairs"),  # quads count as two pairs
        ("2h 2c 3s 3d 4h 4d 5h 5c 6h 6c 7s Kc 9s", None),  # five pairs
        ("2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Kh", None),  # twelve ranks
        ("Ks Ad 2c  4h 5h 6s 7d 8c  4s 5c 6h 7c 8d", None),  # K-A-2 is no straight
        ("2c 5c 9c  3d 4d 8d Jd Qd  2s 6s 7s Js Kh", None),  # back is not one suit
    ],
)
def test_each_natural_is_recognised(cards: str, natural: str | None) -> None:
    assert best(cards) == natural


def test_the_best_of_several_qualifying_naturals_counts() -> None:
    cards = parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As".split())
    assert qualifying_naturals(cards)[:3] == ["thirteen_suited", "dragon", "three_straights"]
    both = parse_cards("2s 2h 2c 3d 3s 4h 4c 5d 5s 6h 6c 7d 7s".split())
    assert qualifying_naturals(both) == ["trips_five_pairs", "six_pairs"]


@settings(max_examples=300, derandomize=True)
@given(st.permutations(range(52)))
def test_naturals_do_not_depend_on_card_order(deck: list[int]) -> None:
    cards = deck[:13]
    assert best_natural(cards) == best_natural(list(reversed(cards)))
    found = qualifying_naturals(cards)
    assert found == sorted(found, key=natural_rank)


def three_flushes_by_search(suit_counts: list[int]) -> bool:
    """Three flushes as the rule says it: some suit for the front 3, the middle 5 and the back 5."""
    for suits in product(range(4), repeat=3):
        need = [0, 0, 0, 0]
        for size, suit in zip((3, 5, 5), suits, strict=True):
            need[suit] += size
        if need == suit_counts:
            return True
    return False


def test_three_flushes_are_found_as_a_search_over_the_rows_suits_finds_them() -> None:
    thirteen_cards = [list(c) for c in product(range(14), repeat=4) if sum(c) == 13]
    assert sum(map(has_three_flushes, thirteen_cards)) == sum(map(three_flushes_by_search, thirteen_cards)) > 0
    for counts in thirteen_cards:
        assert has_three_flushes(counts) == three_flushes_by_search(counts), counts


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.lists(st.integers(-2, 16), min_size=0, max_size=6))
def test_three_flushes_agree_with_the_search_on_any_counts(counts: list[int]) -> None:
    assert has_three_flushes(counts) == three_flushes_by_search(counts)
