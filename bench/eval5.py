"""Row-evaluation throughput: ours against treys and pokerkit on the same hands, same run.

    .venv/bin/python bench/eval5.py            # add --verify-all to check all 2,598,960 hands

Every evaluator gets the same random 5-card hands (cards converted to each library's
own type beforehand, outside the timing). Per-hand rows call one function per hand in a
Python loop; batch rows evaluate a numpy array in one call; "all 5-subsets" rows key every
5-card subset of 13-card hands, the solver's real workload. treys and pokerkit follow plain
poker order only (no A-2-3-4-5-lowest-with-suit tie-breaks, no 3-card fronts), so they
are speed references; the tests use treys as an order oracle. Best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from bench.fasteval import rank3_batch, rank5_batch  # noqa: E402
from games.engine.cards import card_str  # noqa: E402
from games.engine.poker import rank3, rank5  # noqa: E402
from games.engine.solver.evaluate import fives, key3, key5, key5_plain, threes  # noqa: E402


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def library_rows(hands: list[list[int]], repeat: int) -> list[tuple[str, str, int, float]]:
    """treys (public ``Evaluator.evaluate`` and its internal 5-card path) and pokerkit."""
    import treys
    from pokerkit import Card, StandardHighHand

    t_cards = [treys.Card.new(card_str(c)) for c in range(52)]
    t_hands = [[t_cards[c] for c in h] for h in hands]
    ev = treys.Evaluator()
    rows = [
        (
            "treys Evaluator.evaluate",
            "per hand",
            len(hands),
            best_of(repeat, lambda: [ev.evaluate(h[:2], h[2:]) for h in t_hands]),
        ),
        (
            "treys Evaluator._five (internal)",
            "per hand",
            len(hands),
            best_of(repeat, lambda: [ev._five(h) for h in t_hands]),
        ),
    ]
    p_cards = [next(iter(Card.parse(card_str(c)))) for c in range(52)]
    few = [[p_cards[c] for c in h] for h in hands[: max(1, len(hands) // 20)]]
    lookup = StandardHighHand.lookup
    rows.append(
        (
            "pokerkit StandardHighHand(cards)",
            "per hand",
            len(few),
            best_of(1, lambda: [StandardHighHand(h) for h in few]),
        )
    )
    rows.append(
        ("pokerkit lookup.get_entry", "per hand", len(few), best_of(1, lambda: [lookup.get_entry(h) for h in few]))
    )
    return rows


def our_rows(hands: list[list[int]], arr: np.ndarray, repeat: int) -> list[tuple[str, str, int, float]]:
    n = len(hands)
    return [
        ("poker.rank5 (engine), suits", "per hand", n, best_of(repeat, lambda: [rank5(h, suits=True) for h in hands])),
        (
            "poker.rank5 (engine), no suits",
            "per hand",
            n,
            best_of(repeat, lambda: [rank5(h, suits=False) for h in hands]),
        ),
        ("solver key5, suits", "per hand", n, best_of(repeat, lambda: [key5(h, True) for h in hands])),
        ("solver key5_plain, no suits", "per hand", n, best_of(repeat, lambda: [key5_plain(h) for h in hands])),
        ("fasteval rank5_batch, suits", "batch", n, best_of(repeat, lambda: rank5_batch(arr, suits=True))),
        ("fasteval rank5_batch, no suits", "batch", n, best_of(repeat, lambda: rank5_batch(arr, suits=False))),
    ]


def three_rows(hands: list[list[int]], arr: np.ndarray, repeat: int) -> list[tuple[str, str, int, float]]:
    fronts = [h[:3] for h in hands]
    n = len(fronts)
    return [
        ("poker.rank3 (engine)", "per hand", n, best_of(repeat, lambda: [rank3(f, suits=True) for f in fronts])),
        ("solver key3", "per hand", n, best_of(repeat, lambda: [key3(f) for f in fronts])),
        ("fasteval rank3_batch", "batch", n, best_of(repeat, lambda: rank3_batch(arr[:, :3]))),
        ("treys / pokerkit", "n/a", 0, 0.0),
    ]


def subset_rows(count: int, repeat: int) -> list[tuple[str, str, int, float]]:
    rng = random.Random(2)
    hands13 = [rng.sample(range(52), 13) for _ in range(count)]
    n = count * 1287
    return [
        (
            "poker.rank5 over combinations",
            "all 5-subsets",
            n,
            best_of(repeat, lambda: [[rank5(c, suits=True) for c in combinations(h, 5)] for h in hands13]),
        ),
        (
            "solver fives (keys and masks)",
            "all 5-subsets",
            n,
            best_of(repeat, lambda: [fives(h, True) for h in hands13]),
        ),
        (
            "solver threes (3-subsets)",
            "all 3-subsets",
            count * 286,
            best_of(repeat, lambda: [threes(h) for h in hands13]),
        ),
    ]


def verify_all() -> None:
    """Our evaluators against poker.rank5 on every 5-card hand, both suit settings."""
    all_hands = np.array(list(combinations(range(52), 5)), dtype=np.int8)
    for suits in (True, False):
        batch = rank5_batch(all_hands, suits=suits).tolist()
        for i, hand in enumerate(combinations(range(52), 5)):
            expected = rank5(hand, suits=suits)
            assert batch[i] == expected == key5(hand, suits), hand
    print(f"verified: rank5_batch and key5 equal poker.rank5 on all {len(all_hands):,} hands, suits on and off")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verify-all", action="store_true")
    args = parser.parse_args()
    rng = random.Random(1)
    hands = [rng.sample(range(52), 5) for _ in range(args.hands)]
    arr = np.array(hands, dtype=np.int8)
    rows = our_rows(hands, arr, args.repeat) + library_rows(hands, args.repeat)
    treys_ns = next(t / n for name, _, n, t in rows if name == "treys Evaluator.evaluate") * 1e9
    print(f"5-card rows, {args.hands:,} random hands (best of {args.repeat})")
    print(f"{'evaluator':<36}{'mode':<15}{'hands':>10}{'ns/hand':>10}{'M hands/s':>11}{'vs treys':>10}")
    for name, mode, n, took in rows + subset_rows(200, args.repeat):
        ns = took / n * 1e9
        print(f"{name:<36}{mode:<15}{n:>10,}{ns:>10.0f}{1e3 / ns:>11.2f}{treys_ns / ns:>9.1f}x")
    print("\n3-card fronts")
    print(f"{'evaluator':<36}{'mode':<15}{'hands':>10}{'ns/hand':>10}{'M hands/s':>11}")
    for name, mode, n, took in three_rows(hands, arr, args.repeat):
        if not n:
            print(f"{name:<36}{mode:<15}{'-':>10}{'-':>10}{'-':>11}   (no 3-card evaluator)")
            continue
        ns = took / n * 1e9
        print(f"{name:<36}{mode:<15}{n:>10,}{ns:>10.0f}{1e3 / ns:>11.2f}")
    if args.verify_all:
        verify_all()


if __name__ == "__main__":
    main()
