"""solve_trio: never a foul, the best 13 of 17, distinct legal alternatives, specials and the
jackpot trips kept when they pay, and never worse than greedy under its own model."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import parse_card, parse_cards
from games.engine.errors import EngineError
from games.engine.solver import solve_trio
from games.engine.solver.evaluate import fives, threes
from games.engine.solver.greedy import greedy
from games.engine.solver.model import trio_model
from games.engine.thirteen_trio.scoring import specials
from tests.games.engine.solver.helpers import assert_legal, keys

deals = st.lists(st.integers(0, 51), min_size=18, max_size=18, unique=True)


@settings(max_examples=1000, derandomize=True, deadline=None)
@given(deals)
def test_it_never_fouls_and_offers_distinct_legal_rows(deal: list[int]) -> None:
    jackpot, cards = deal[0], deal[1:]
    results = solve_trio(cards, jackpot)
    assert_legal(results, cards, suits=False, k=3)
    assert not any(r["declare"] for r in results)


def model_value(rows: dict[str, list[int]], jackpot: int) -> float:
    return trio_model().value(*keys(rows, suits=False), len(specials(rows, jackpot)))


def test_its_score_is_the_model_value_of_its_rows_and_beats_greedy() -> None:
    rng = random.Random(5)
    for _ in range(60):
        deal = rng.sample(range(52), 18)
        jackpot, cards = deal[0], deal[1:]
        best = solve_trio(cards, jackpot, k=1)[0]
        assert best["score"] == pytest.approx(model_value(best, jackpot), abs=1e-4)
        front, middle, back = greedy(cards, suits=False)
        assert best["score"] >= model_value({"front": front, "middle": middle, "back": back}, jackpot) - 1e-4


def test_k1_is_the_best_of_k3() -> None:
    """The same optimum whatever ``k``; the same rows too unless the runner-up ties it."""
    rng = random.Random(8)
    for _ in range(40):
        deal = rng.sample(range(52), 18)
        one, three = solve_trio(deal[1:], deal[0], k=1), solve_trio(deal[1:], deal[0], k=3)
        assert one[0]["score"] == three[0]["score"]
        if three[1]["score"] < three[0]["score"]:
            assert one == three[:1]


def test_value_is_the_documented_formula_on_the_shoot_odds() -> None:
    """``2p − 2s + 2p² − 2qs + 2·specials`` with ``p, s = shoot_odds(...)``, to the last bit,
    also for a 5-card key standing in for a front (the searches' bounds)."""
    model = trio_model()
    rng = random.Random(4)
    hand = rng.sample(range(52), 17)
    rows = [key for key, _ in fives(hand, False)]
    fronts = [key for key, _ in threes(hand)] + rows[:100]
    for _ in range(3000):
        kf, km, kb, specials = rng.choice(fronts), rng.choice(rows), rng.choice(rows), rng.randrange(4)
        p, s = model.shoot_odds(kf, km, kb)
        assert model.value(kf, km, kb, specials) == 2 * (p + p * p - (1 + model.q) * s + specials)


def kinds(rows: dict[str, list[int]], jackpot: int) -> list[str]:
    return sorted(s["kind"] for s in specials(rows, jackpot))


def test_the_jackpot_trips_go_in_front_for_two_specials() -> None:
    hand = parse_cards("6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split())
    best = solve_trio(hand, parse_card("6h"))[0]
    assert kinds(best, parse_card("6h")) == ["front_trips", "jackpot"]


def with_cards(fixed: list[int], seed: int) -> tuple[int, list[int]]:
    """A random 17-card hand holding ``fixed`` and a jackpot card outside it."""
    rng = random.Random(seed)
    rest = [c for c in range(52) if c not in fixed]
    rng.shuffle(rest)
    return rest[0], fixed + rest[1 : 18 - len(fixed)]


@pytest.mark.parametrize("seed", range(25))
def test_it_keeps_the_jackpot_trips_together(seed: int) -> None:
    rank = seed % 13
    partners = [rank * 4 + s for s in (0, 1, 2)]
    _, cards = with_cards(partners, seed)
    jackpot = rank * 4 + 3
    cards = [c for c in cards if c != jackpot][:17]
    if len(cards) < 17:
        cards.append(next(c for c in range(52) if c not in cards and c != jackpot))
    best = solve_trio(cards, jackpot)[0]
    assert "jackpot" in kinds(best, jackpot)


@pytest.mark.parametrize("seed", range(25))
def test_a_hand_with_quads_always_scores_a_special(seed: int) -> None:
    """Quads pay 鐵支 for certain; the solver keeps them, or trades them for another
    special (e.g. 衝三 with two flushes behind) that its model rates higher."""
    quads = [(seed % 13) * 4 + s for s in range(4)]
    jackpot, cards = with_cards(quads, 100 + seed)
    assert kinds(solve_trio(cards, jackpot)[0], jackpot)


def test_quads_and_a_straight_flush_are_kept() -> None:
    quads = parse_cards("9s 9d 9c 9h 2h 5h Kc 8h Jh As 3d Kd Qc 7s 4d Tc 6c".split())
    jackpot = parse_card("2c")
    assert ("quads", "back") in [(s["kind"], s["row"]) for s in specials(solve_trio(quads, jackpot)[0], jackpot)]
    flush = parse_cards("5s 6s 7s 8s 9s 2h 2d Kc Kh Jh Ad 3d Qc 7c 4d Tc Th".split())
    assert "straight_flush" in kinds(solve_trio(flush, jackpot)[0], jackpot)


def test_bad_input_is_refused_and_input_is_not_changed() -> None:
    deal = random.Random(3).sample(range(52), 18)
    cards = deal[1:]
    copy = list(cards)
    solve_trio(cards, deal[0])
    assert cards == copy
    with pytest.raises(EngineError):
        solve_trio(cards, cards[0])
    with pytest.raises(EngineError):
        solve_trio(cards[:16], deal[0])
    with pytest.raises(EngineError):
        solve_trio(cards, deal[0], k=0)
