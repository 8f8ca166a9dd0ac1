"""Row evaluation against docs/RULES.md section 1 ("5-card categories", "Ties inside a category")
and section 2 ("No suits are compared")."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import poker
from games.engine.cards import parse_cards
from games.engine.poker import (
    CATEGORY_NAMES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    category,
    describe,
    is_royal,
    rank3,
    rank5,
)


def r5(text: str, suits: bool = True) -> int:
    return rank5(parse_cards(text.split()), suits=suits)


def r3(text: str) -> int:
    return rank3(parse_cards(text.split()), suits=True)


# -- a plain brute-force reference, written the obvious way --------------------------------


def reference5(cards: list[int]) -> tuple[int, list[int]]:
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    order = [r for r, _ in groups]
    shape = [n for _, n in groups]
    flush = len({c & 3 for c in cards}) == 1
    straight_top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_top = 3
    if straight_top is not None:
        return (8 if flush else 4), [straight_top]
    if flush:
        return 5, ranks
    cat = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0)
    return cat, order


def reference3(cards: list[int]) -> tuple[int, list[int]]:
    counts = Counter(c >> 2 for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    cat = {3: 3, 2: 1, 1: 0}[groups[0][1]]
    return cat, [r for r, _ in groups]


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def cmp(a: object, b: object) -> int:
    return int((a > b) - (a < b))  # type: ignore[operator]


hands5 = st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True)


# -- category order ---------------------------------------------------------------------

LADDER = [
    ("Ad Kc 9h 7s 3d", HIGH_CARD),
    ("2d 2c 4h 5s 6d", PAIR),
    ("2d 2c 3h 3s 4d", TWO_PAIR),
    ("2d 2c 2h 3s 4d", TRIPS),
    ("Ad 2c 3h 4s 5d", STRAIGHT),
    ("2d 3d 4d 5d 7d", FLUSH),
    ("2d 2c 2h 3s 3d", FULL_HOUSE),
    ("2d 2c 2h 2s 3d", QUADS),
    ("Ad 2d 3d 4d 5d", STRAIGHT_FLUSH),
]


def test_categories_rank_in_the_rules_order() -> None:
    keys = [r5(text) for text, _ in LADDER]
    assert [category(k) for k in keys] == [cat for _, cat in LADDER]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert list(CATEGORY_NAMES) == [
        "high card",
        "pair",
        "two pair",
        "trips",
        "straight",
        "flush",
        "full house",
        "quads",
        "straight flush",
    ]


def test_the_lowest_of_each_category_beats_the_highest_of_the_one_below() -> None:
    tops = [
        "Ad Kc Qh Js 9d",
        "Ad Ac Kh Qs Jd",
        "Ad Ac Kh Ks Qd",
        "Ad Ac Ah Ks Qd",
        "Ad Kc Qh Js Td",
        "Ad Kd Qd Jd 9d",
        "Ad Ac Ah Ks Kd",
        "Ad Ac Ah As Kd",
    ]
    bottoms = [
        "2d 2c 3h 4s 5d",
        "2d 2c 3h 3s 4d",
        "2d 2c 2h 3s 4d",
        "Ad 2c 3h 4s 5d",
        "2d 3d 4d 5d 7d",
        "2d 2c 2h 3s 3d",
        "2d 2c 2h 2s 3d",
        "Ad 2d 3d 4d 5d",
    ]
    for top, bottom in zip(tops, bottoms, strict=True):
        assert r5(top) < r5(bottom), (top, bottom)
        assert r5(top, False) < r5(bottom, False)


def test_every_five_card_hand_gets_its_textbook_category_and_class_count() -> None:
    counts: Counter[int] = Counter()
    plain, suited = set(), set()
    for hand in combinations(range(52), 5):
        key = rank5(hand, suits=True)
        counts[category(key)] += 1
        suited.add(key)
        plain.add(rank5(hand, suits=False))
    assert counts == {
        HIGH_CARD: 1302540,
        PAIR: 1098240,
        TWO_PAIR: 123552,
        TRIPS: 54912,
        STRAIGHT: 10200,
        FLUSH: 5108,
        FULL_HOUSE: 3744,
        QUADS: 624,
        STRAIGHT_FLUSH: 40,
    }
    assert len(plain) == 7462  # the classic number of distinct poker hand values
    # suits split only flushes (1277 rank sets), straights (10) and straight flushes (10) 4 ways
    assert len(suited) == 7462 + 3 * (1277 + 10 + 10)


# -- ties inside a category ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("Ad Kc 9h 7s 3d", "Ad Kc 9h 7s 4d"),  # high card: last kicker decides
        ("Kd Kc Ah 7s 3d", "Ad Ac 2h 3s 4d"),  # pair: made rank first
        ("Kd Kc Ah 7s 3d", "Kh Ks Ac 7d 4c"),  # pair: then kickers high to low
        ("Kd Kc Qh Qs 3d", "Kh Ks Qd Qc 4c"),  # two pair: the fifth card
        ("Kd Kc 2h 2s Ad", "Kh Ks 3d 3c 4c"),  # two pair: low pair before kicker
        ("Kd Kc Qh Qs Ad", "Ah Ac 2d 2c 3c"),  # two pair: high pair first
        ("Kd Kc Kh 2s 3d", "Kd Kc Kh 2s 4d"),  # trips: kickers
        ("Kd Kc Kh As Qd", "Ad Ac Ah 2s 3d"),  # trips: made rank first
        ("Kd Kc Kh 2s 2d", "Ad Ac Ah 2h 2c"),  # full house: trips first
        ("Kd Kc Kh 2s 2d", "Kd Kc Kh 3s 3d"),  # full house: then the pair
        ("Kd Kc Kh Ks Ad", "Ad Ac Ah As 2d"),  # quads: quad rank
        ("2d 2c 2h 2s 3d", "2d 2c 2h 2s 4d"),  # quads: kicker
        ("Ad Kd Qd Jd 9d", "Ah Kh Qh Jh Th"),  # flush vs straight flush
        ("As Ks Qs Js 2s", "3d Ad Kd Qd Jd"),  # flush: ranks high to low, before suit
        ("Ah Kh Qh Jh 9h", "As Ks Qs Js 9s"),  # flush: then the suit of the highest card
        ("Ad 2c 3h 4s 5d", "2d 3c 4h 5s 6d"),  # straight: wheel is lowest
        ("9d Tc Jh Qs Kd", "Td Jc Qh Ks Ad"),  # straight: broadway is highest
        ("2s 3s 4s 5s 6c", "2d 3d 4d 5d 6h"),  # straight: suit of the top card only
        ("Ad 2c 3h 4s 5d", "As 2c 3h 4s 5h"),  # wheel: the suit of the 5, not the ace
        ("As 2s 3s 4s 5s", "2d 3d 4d 5d 6d"),  # straight flush: wheel lowest
        ("Ac Kc Qc Jc Tc", "Ah Kh Qh Jh Th"),  # royal flush: suit
        ("9s Ts Js Qs Ks", "Td Jd Qd Kd Ad"),  # straight flush: top card before suit
    ],
)
def test_ties_inside_a_category_break_as_the_rules_say(lower: str, higher: str) -> None:
    assert r5(lower) < r5(higher)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ad Kc 9h 7s 3d", "As Kd 9c 7h 3c"),  # high card: all equal is a tie, suits or not
        ("Kd Kc Ah 7s 3d", "Kh Ks Ac 7d 3c"),
        ("Kd Kc Qh Qs 3d", "Kh Ks Qd Qc 3c"),
    ],
)
def test_equal_non_suited_rows_tie_even_with_suits(a: str, b: str) -> None:
    assert r5(a) == r5(b)
    assert r5(a, False) == r5(b, False)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ah Kh Qh Jh 9h", "As Ks Qs Js 9s"),
        ("2s 3s 4s 5s 6c", "2d 3d 4d 5d 6h"),
        ("Ac Kc Qc Jc Tc", "Ah Kh Qh Jh Th"),
        ("Ad 2c 3h 4s 5d", "As 2c 3h 4s 5h"),
    ],
)
def test_without_suits_equal_rows_tie(a: str, b: str) -> None:
    assert r5(a, False) == r5(b, False)
    assert r5(a, True) != r5(b, True)


def test_suits_only_break_ties_never_rank_order() -> None:
    assert r5("Ad Kd Qd Jd 9d") > r5("As Ks Qs Js 8s")
    assert r5("2d 3c 4h 5s 6d") > r5("As 2s 3h 4h 5s")


# -- the front, and the foul check ---------------------------------------------------------


def test_front_is_only_high_card_pair_or_trips() -> None:
    assert category(r3("Ad Kd Qd")) == HIGH_CARD  # no flush, no straight
    assert category(r3("2d 3c 4h")) == HIGH_CARD
    assert category(r3("Qd Qc 4h")) == PAIR
    assert category(r3("Qd Qc Qh")) == TRIPS
    assert r3("Ad Kd Qd") < r3("2d 2c 3h") < r3("2d 2c 4h") < r3("3d 3c 2h") < r3("2d 2c 2h")
    for combo in combinations(range(0, 52, 3), 3):
        assert category(rank3(combo, suits=True)) in (HIGH_CARD, PAIR, TRIPS)


@pytest.mark.parametrize(
    ("front", "middle", "fouled"),
    [
        ("Kd Kc Ah", "Kh Ks Ad 3c 2d", False),  # equal kicker against the middle's highest
        ("Kd Kc Ah", "Kh Ks Qd Jc 2d", True),  # front kicker A beats the middle's Q
        ("Kd Kc 2h", "Kh Ks 3d 2c 4d", False),
        ("Kd Kc 5h", "Kh Ks 4d 3c 2d", True),
        ("Ad Kc Qh", "As Ks Qd 3c 2d", False),  # high card: all three equal is not a foul
        ("Ad Kc Qh", "As Ks Jd Tc 9d", True),
        ("Ad Kc Qh", "2s 2c 3d 4c 5d", False),  # category first
        ("Qd Qc Qh", "As Ac Kd Kc 2d", True),  # trips beat two pair
        ("2d 2c 2h", "3s 3c 3d 4c 5d", False),
        ("Ad Ac Ah", "2s 3c 4d 5c 6d", False),  # straight beats trips
        ("5d 5c 5h", "4s 4c 4d Ac Kd", True),  # trips: the made rank
    ],
)
def test_front_against_middle_foul_check(front: str, middle: str, fouled: bool) -> None:
    f, m = parse_cards(front.split()), parse_cards(middle.split())
    assert (rank3(f, suits=True) > rank5(m, suits=True)) is fouled
    assert (rank3(f, suits=False) > rank5(m, suits=False)) is fouled


def test_describe_and_royal() -> None:
    assert describe(r3("Kd Kc 2h")) == "pair of kings"
    assert describe(r5("Kd Kc Kh 2s 2d")) == "full house, kings full of twos"
    assert describe(r5("As 2c 3h 4s 5d")) == "five-high straight"
    assert describe(r5("Ah Kh Qh Jh Th")) == "royal flush"
    assert describe(r5("9h Kh Qh Jh Th")) == "king-high straight flush"
    assert describe(r5("Ad 9c 7h 4s 3d")) == "ace high"
    assert is_royal(r5("Ah Kh Qh Jh Th", False))
    assert not is_royal(r5("9h Kh Qh Jh Th")) and not is_royal(r5("Ad Kc Qh Js Td"))
    assert all(isinstance(describe(r5(t)), str) for t, _ in LADDER)


def test_rank_row_dispatches_on_length() -> None:
    assert poker.rank_row(parse_cards(["Kd", "Kc", "2h"]), suits=True) == r3("Kd Kc 2h")
    assert poker.rank_row(parse_cards("Kd Kc 2h 3s 4s".split()), suits=True) == r5("Kd Kc 2h 3s 4s")


# -- agreement with the brute-force reference ----------------------------------------------


@settings(max_examples=400, derandomize=True)
@given(hands5)
def test_plain_order_agrees_with_a_brute_force_reference(cards: list[int]) -> None:
    a, b = cards[:5], cards[5:]
    ka, kb = rank5(a, suits=False), rank5(b, suits=False)
    ra, rb = reference5(a), reference5(b)
    assert category(ka) == ra[0]
    assert sign(ka - kb) == cmp(ra, rb)


@settings(max_examples=400, derandomize=True)
@given(hands5)
def test_suited_order_only_refines_ties_by_the_rules_suit(cards: list[int]) -> None:
    a, b = cards[:5], cards[5:]
    ka, kb = rank5(a, suits=True), rank5(b, suits=True)
    ra, rb = reference5(a), reference5(b)
    if ra != rb:
        assert sign(ka - kb) == cmp(ra, rb)
    elif ra[0] in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
        top = ra[1][0]
        sa = max(c & 3 for c in a if c >> 2 == top)
        sb = max(c & 3 for c in b if c >> 2 == top)
        assert sign(ka - kb) == sign(sa - sb) != 0
    else:
        assert ka == kb


@settings(max_examples=400, derandomize=True)
@given(st.lists(st.integers(0, 51), min_size=8, max_size=8, unique=True))
def test_foul_check_agrees_with_the_rules_wording(cards: list[int]) -> None:
    front, middle = cards[:3], cards[3:]
    fc, fr = reference3(front)
    mc, mr = reference5(middle)
    if mc > TRIPS:
        expected_foul = False
    elif fc != mc:
        expected_foul = fc > mc
    else:  # made ranks, then the front's kickers against the middle's highest kickers
        expected_foul = fr > mr[: len(fr)]
    assert (rank3(front, suits=True) > rank5(middle, suits=True)) is expected_foul
    assert (rank3(front, suits=False) > rank5(middle, suits=False)) is expected_foul


def test_the_module_doctests_hold() -> None:
    import doctest

    assert doctest.testmod(poker).failed == 0
