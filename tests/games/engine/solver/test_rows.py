"""solver.rows: a hand's rows packed in key order (the order of the searches) and the bitsets
that pick the rows sharing no card with given ones."""

from __future__ import annotations

import random

import pytest

from games.engine.solver.evaluate import fives, threes
from games.engine.solver.rows import layout


def hands(size: int, seed: int) -> list[list[int]]:
    """Random hands, and hands of two suits (flushes) or of few ranks (straights, quads)."""
    rng = random.Random(seed)
    out = [rng.sample(range(52), size) for _ in range(30)]
    two_suits = [c for c in range(52) if c & 3 in (1, 3)]
    few_ranks = [c for c in range(52) if c >> 2 in (12, 0, 1, 2, 3, 4, 7, 8, 9, 10, 11)]
    out += [rng.sample(two_suits, size) for _ in range(15)] + [rng.sample(few_ranks, size) for _ in range(15)]
    return out


def expected(cards: list[int], size: int, suits: bool) -> list[tuple[int, int]]:
    """``(key, mask)`` of every subset, strongest first (ties: larger mask first)."""
    return sorted(fives(cards, suits) if size == 5 else threes(cards), reverse=True)


@pytest.mark.parametrize(("n", "size", "suits"), [(13, 5, True), (17, 5, False), (17, 3, False), (13, 3, True)])
def test_rows_are_every_subset_in_key_order(n: int, size: int, suits: bool) -> None:
    for cards in hands(n, n * size):
        rows = layout(n, size, suits).rows(cards)
        assert [(rows.key(v), rows.mask(v)) for v in reversed(rows.packed)] == expected(cards, size, suits)
        assert max(rows.packed) < 2**30  # one machine digit: fast to sort


@pytest.mark.parametrize(("n", "size", "suits"), [(13, 5, True), (17, 5, False), (17, 3, False)])
def test_bitsets_pick_the_rows_without_given_cards(n: int, size: int, suits: bool) -> None:
    rng = random.Random(n + size)
    for cards in hands(n, 7)[:12]:
        rows = layout(n, size, suits).rows(cards)
        for j in range(n):
            assert rows.holding[j] == sum(1 << i for i, v in enumerate(rows.packed) if rows.mask(v) >> j & 1)
        for picked in (3, 5, 8):
            used = sum(1 << j for j in rng.sample(range(n), picked))
            assert rows.without(used) == sum(1 << i for i, v in enumerate(rows.packed) if not rows.mask(v) & used)
            assert rows.touching(used) == rows.every ^ rows.without(used)
        v = rng.choice(rows.packed)
        assert rows.up_to(v) == sum(1 << i for i, w in enumerate(rows.packed) if rows.key(w) <= rows.key(v))
