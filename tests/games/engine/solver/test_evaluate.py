"""The solver's row keys equal games.engine.poker's, and plain poker order agrees with treys."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games.engine.poker import STRAIGHT, STRAIGHT_FLUSH, category, rank3, rank5
from games.engine.solver.evaluate import fives, key3, key5, key5_plain, threes


def random_hands(n: int, size: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(n)]


def test_single_row_keys_equal_poker_on_a_large_sample() -> None:
    for hand in random_hands(60_000, 5, 1):
        assert key5(hand, True) == rank5(hand, suits=True)
        assert key5(hand, False) == key5_plain(hand) == rank5(hand, suits=False)
        assert key3(hand[:3]) == rank3(hand[:3], suits=True)


def test_every_five_card_hand_is_keyed_like_poker() -> None:
    """All 2,598,960 hands, suits on and off (a few seconds)."""
    for hand in combinations(range(52), 5):
        assert key5(hand, True) == rank5(hand, suits=True)
        assert key5_plain(hand) == rank5(hand, suits=False)


def test_every_straight_and_straight_flush_keeps_the_top_card_suit() -> None:
    tops = [[12, 0, 1, 2, 3]] + [list(range(r, r + 5)) for r in range(9)]
    rng = random.Random(2)
    for ranks in tops:
        for _ in range(40):
            suits = [rng.randrange(4) for _ in ranks]
            hand = [r * 4 + s for r, s in zip(ranks, suits, strict=True)]
            rng.shuffle(hand)
            assert key5(hand, True) == rank5(hand, suits=True)
            assert category(key5(hand, True)) in (STRAIGHT, STRAIGHT_FLUSH)


@pytest.mark.parametrize("size", [13, 17])
def test_all_subsets_of_a_hand_are_keyed_like_poker(size: int) -> None:
    for hand in random_hands(4, size, size):
        for suits in (True, False):
            got = fives(hand, suits)
            expected = [(rank5(c, suits=suits), sum(1 << hand.index(x) for x in c)) for c in combinations(hand, 5)]
            assert got == expected
        assert threes(hand) == [
            (rank3(c, suits=True), sum(1 << hand.index(x) for x in c)) for c in combinations(hand, 3)
        ]


def test_batch_evaluator_equals_poker() -> None:
    np = pytest.importorskip("numpy")
    from bench.fasteval import rank3_batch, rank5_batch

    hands = list(combinations(range(52), 5))
    arr = np.array(hands, dtype=np.int8)
    assert rank5_batch(arr, suits=True).tolist() == [rank5(h, suits=True) for h in hands]
    assert rank5_batch(arr, suits=False).tolist() == [rank5(h, suits=False) for h in hands]
    fronts = list(combinations(range(52), 3))
    assert rank3_batch(np.array(fronts)).tolist() == [rank3(f, suits=True) for f in fronts]


def test_plain_poker_order_matches_treys() -> None:
    """Without suits our order is standard poker order (treys: lower rank is better)."""
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    names = [r + s for r in "23456789TJQKA" for s in "dchs"]
    to_treys = [treys.Card.new(n) for n in names]
    pairs = sorted(
        (rank5(h, suits=False), -evaluator.evaluate([to_treys[c] for c in h[:2]], [to_treys[c] for c in h[2:]]))
        for h in random_hands(20_000, 5, 4)
    )
    for (k1, t1), (k2, t2) in zip(pairs, pairs[1:], strict=False):
        assert (k1 < k2 and t1 < t2) or (k1 == k2 and t1 == t2)
