"""Check the trio search against exhaustive enumeration (docs/SOLVER.md, "Search").

    .venv/bin/python bench/trio_exhaustive.py --hands 8

For each random 17-card hand (the first with the jackpot trips in it) every legal
(back, middle) pair is tried — about 4.9 million — with the strongest legal front of the
seven cards left and, when possible, the jackpot trips in front (the only fronts that
can be best: the value grows with the front's key, and 彩金 is the one special a weaker
front can add). The best value must equal ``search_trio``'s. About 20 s a hand.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.solver import trio  # noqa: E402
from games.engine.solver.model import TrioModel, trio_model  # noqa: E402


def exhaustive(cards: list[int], jackpot: int, model: TrioModel) -> float:
    hand = trio._Hand(cards, jackpot)
    search = trio._Search(hand, model, 1)
    best = float("-inf")
    for kb, bm in hand.five:
        sb = hand.special5(kb, bm)
        for km, mm in hand.five:
            if km > kb or mm & bm:
                continue
            used = bm | mm
            fronts = search.fronts(used, km)
            if hand.jp and not used & hand.jp and hand.jp_key <= km:
                fronts.append((hand.jp_key, hand.jp, 2))
            for kf, _, sf in fronts:
                best = max(best, model.value(kf, km, kb, sb + hand.special5(km, mm) + sf))
    return best


def deal(rng: random.Random, with_jackpot_trips: bool) -> tuple[int, list[int]]:
    d = rng.sample(range(52), 18)
    if with_jackpot_trips:
        partners = [c for c in range(52) if c >> 2 == d[0] >> 2 and c != d[0]]
        d = [d[0], *partners, *[c for c in d[1:] if c not in partners][:14]]
    return d[0], d[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    model, rng = trio_model(), random.Random(args.seed)
    print(f"{'hand':>4}{'search':>11}{'exhaustive':>12}{'search ms':>11}{'exhaustive s':>14}  result")
    for i in range(args.hands):
        jackpot, cards = deal(rng, i == 0)
        start = time.perf_counter()
        got = trio.search_trio(cards, jackpot, model, 1).best()[0][0]
        mid = time.perf_counter()
        want = exhaustive(cards, jackpot, model)
        took = time.perf_counter() - mid
        verdict = "equal" if abs(got - want) < 1e-9 else "DIFFERENT"
        print(f"{i:>4}{got:>11.4f}{want:>12.4f}{(mid - start) * 1e3:>11.1f}{took:>14.1f}  {verdict}")


if __name__ == "__main__":
    main()
