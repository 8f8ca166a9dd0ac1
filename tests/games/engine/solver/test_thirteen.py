"""solve_thirteen: never a foul, a natural declared exactly when it is worth at least the best
rows, distinct legal alternatives, and the exact optimum of its model (checked against a brute
force over every split)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import cards_str, parse_cards
from games.engine.errors import EngineError
from games.engine.poker import rank3, rank5
from games.engine.solver import solve_thirteen
from games.engine.solver.evaluate import fives, threes
from games.engine.solver.greedy import greedy
from games.engine.solver.model import ThirteenModel, thirteen_model
from games.engine.solver.search import TopK
from games.engine.solver.thirteen import search_thirteen
from games.engine.thirteen.naturals import NATURAL_VALUES, best_natural
from tests.games.engine.solver.helpers import assert_legal, keys

MANY = settings(max_examples=1000, derandomize=True, deadline=None)
hands13 = st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True)


@MANY
@given(hands13)
def test_it_never_fouls_and_declares_only_a_natural_worth_its_rows(cards: list[int]) -> None:
    results = solve_thirteen(cards)
    assert_legal(results, cards, suits=True, k=3)
    natural = best_natural(cards)
    declare = natural is not None and NATURAL_VALUES[natural] >= best_rows_value(cards)
    assert all(r["declare"] == declare for r in results)


def best_rows_value(cards: list[int]) -> float:
    """The model's expected units of the best rows, whether or not the hand declares."""
    return search_thirteen(cards, thirteen_model(), 1).best()[0][0]


@st.composite
def natural_hands(draw: st.DrawFn) -> list[int]:
    """Hands built to hold a natural: six pairs, a dragon, three flushes, 12 of one suit."""
    kind = draw(st.sampled_from(["pairs", "dragon", "flushes", "twelve"]))
    suit_of = st.integers(0, 3)
    if kind == "dragon":
        return [r * 4 + draw(suit_of) for r in range(13)]
    if kind == "twelve":
        suit = draw(suit_of)
        own = draw(st.lists(st.integers(0, 12), min_size=12, max_size=12, unique=True))
        other = draw(st.sampled_from([c for c in range(52) if c & 3 != suit]))
        return [r * 4 + suit for r in own] + [other]
    if kind == "flushes":
        suits = draw(st.lists(suit_of, min_size=3, max_size=3, unique=True))
        cards = []
        for suit, size in zip(suits, (3, 5, 5), strict=True):
            cards += [
                r * 4 + suit for r in draw(st.lists(st.integers(0, 12), min_size=size, max_size=size, unique=True))
            ]
        return cards
    ranks = draw(st.lists(st.integers(0, 12), min_size=6, max_size=6, unique=True))
    cards = [r * 4 + s for r in ranks for s in (0, 1)]
    return cards + [draw(st.sampled_from([c for c in range(52) if c not in cards]))]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(natural_hands())
def test_a_natural_is_declared_with_its_value_unless_the_rows_are_worth_more(cards: list[int]) -> None:
    natural = best_natural(cards)
    assert natural is not None
    value = NATURAL_VALUES[natural]
    results = solve_thirteen(cards)
    assert_legal(results, cards, suits=True, k=3)
    if results[0]["declare"]:
        assert all(r["declare"] and r["score"] == value for r in results)
        assert best_rows_value(cards) <= value
    else:
        assert not any(r["declare"] for r in results)
        assert results[0]["score"] > value


def test_six_pairs_worth_less_than_their_rows_are_played_as_rows() -> None:
    """Quad kings in the back (a bonus of 4 when it wins) make the rows worth more than 3."""
    cards = parse_cards("Ks Kh Kd Kc Qs Qh 7s 7h 5s 5d 3c 3h 2c".split())
    assert best_natural(cards) == "six_pairs"
    best = solve_thirteen(cards, k=1)[0]
    assert not best["declare"] and best["score"] > NATURAL_VALUES["six_pairs"]
    assert {"Ks", "Kh", "Kd", "Kc"} <= set(cards_str(best["back"]))


def test_six_pairs_worth_more_than_their_rows_are_declared() -> None:
    cards = parse_cards("2s 2h 3s 3h 4c 4d 5s 5h 6c 6d 7s 7h 9d".split())
    assert best_natural(cards) == "six_pairs" and best_rows_value(cards) < NATURAL_VALUES["six_pairs"]
    assert all(r["declare"] and r["score"] == 3.0 for r in solve_thirteen(cards))


def model_value(f: int, m: int, b: int) -> float:
    model = thirteen_model()
    return model.front[f] + model.middle[m] + model.back[b]


def brute_force(cards: list[int]) -> float:
    """The best model value over every legal split of 13 cards (72,072 of them)."""
    best = float("-inf")
    for back in combinations(cards, 5):
        kb = rank5(back, suits=True)
        rest = [c for c in cards if c not in back]
        for middle in combinations(rest, 5):
            km = rank5(middle, suits=True)
            kf = rank3([c for c in rest if c not in middle], suits=True)
            if kf <= km <= kb:
                best = max(best, model_value(kf, km, kb))
    return best


@pytest.mark.parametrize("seed", range(3))
def test_the_search_finds_the_exact_optimum_of_its_model(seed: int) -> None:
    cards = random.Random(seed).sample(range(52), 13)
    best = solve_thirteen(cards, k=1)[0]
    assert best["score"] == pytest.approx(brute_force(cards), abs=1e-4)
    assert best["score"] == pytest.approx(model_value(*keys(best, suits=True)), abs=1e-4)


def plain_search(cards: list[int], model: ThirteenModel, k: int) -> TopK:
    """The search spelled out plainly: every middle scanned in key order, those that share a
    card with the back skipped; the same bounds, in the same order."""
    five = sorted(fives(cards, True), reverse=True)
    front = {mask: key for key, mask in threes(cards)}
    vf, vm, vb = model.front, model.middle, model.back
    front_top = max(vf[key] for key in front.values())
    top = TopK(k)
    for kb, bm in five:
        if vb[kb] + vm[kb] + min(front_top, model.front_cap(kb)) <= top.floor:
            break
        for km, mm in five:
            if km > kb or mm & bm:
                continue
            if vb[kb] + vm[km] + min(front_top, model.front_cap(km)) <= top.floor:
                break
            fm = (1 << 13) - 1 ^ bm ^ mm
            if front[fm] <= km:
                top.offer(vb[kb] + vm[km] + vf[front[fm]], (front[fm], km, kb), (fm, mm, bm))
    return top


def test_the_search_returns_exactly_what_the_plain_scan_returns() -> None:
    """Same arrangements, same order, same ties, for every k: the bitset walk of the rows visits
    exactly the middles the plain scan keeps."""
    rng = random.Random(4)
    two_suits = [c for c in range(52) if c & 3 in (0, 2)]
    hands = [rng.sample(range(52), 13) for _ in range(120)] + [rng.sample(two_suits, 13) for _ in range(30)]
    for cards in hands:
        for k in (1, 3, 5):
            assert search_thirteen(cards, thirteen_model(), k).best() == plain_search(cards, thirteen_model(), k).best()


def test_k1_is_the_best_of_k3() -> None:
    """The same optimum whatever ``k``; the same rows too unless the runner-up ties it."""
    rng = random.Random(6)
    for _ in range(200):
        cards = rng.sample(range(52), 13)
        one, three = solve_thirteen(cards, k=1), solve_thirteen(cards, k=3)
        assert one[0]["score"] == three[0]["score"]
        if three[1]["score"] < three[0]["score"]:
            assert one == three[:1]


def test_it_scores_at_least_the_greedy_rows_under_its_own_model() -> None:
    rng = random.Random(9)
    for _ in range(300):
        cards = rng.sample(range(52), 13)
        front, middle, back = greedy(cards, suits=True)
        greedy_value = model_value(rank3(front, suits=True), rank5(middle, suits=True), rank5(back, suits=True))
        assert solve_thirteen(cards, k=1)[0]["score"] >= greedy_value - 1e-4


def test_k_alternatives_are_offered_and_k_is_checked() -> None:
    cards = random.Random(1).sample(range(52), 13)
    assert len(solve_thirteen(cards, k=5)) == 5
    assert len(solve_thirteen(cards, k=1)) == 1
    with pytest.raises(EngineError):
        solve_thirteen(cards, k=0)
    with pytest.raises(EngineError):
        solve_thirteen(cards[:12])
    with pytest.raises(EngineError):
        solve_thirteen(cards[:12] + cards[:1])


def test_it_does_not_change_its_input() -> None:
    cards = random.Random(2).sample(range(52), 13)
    copy = list(cards)
    solve_thirteen(cards)
    assert cards == copy
