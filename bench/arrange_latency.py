"""Arrangement latency: solve_thirteen (13 cards) and solve_trio (17 cards), one process.

    .venv/bin/python bench/arrange_latency.py --hands 1000

Loading comes first and is timed on its own: importing the solver (which builds the
evaluation tables) and loading the shipped opponent tables. Then the same process
arranges ``--hands`` random hands per game, one at a time, with ``k`` alternatives (the
hint button's request; auto-play asks for ``k=1``), and prints the percentiles.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def load_times() -> list[tuple[str, float]]:
    start = time.perf_counter()
    import games.engine.solver as solver  # noqa: F401
    from games.engine.solver.model import thirteen_model, trio_model

    imported = time.perf_counter()
    thirteen_model()
    loaded13 = time.perf_counter()
    trio_model()
    loaded_trio = time.perf_counter()
    return [
        ("import solver (key tables)", imported - start),
        ("load thirteen opponent table", loaded13 - imported),
        ("load thirteen_trio opponent table", loaded_trio - loaded13),
    ]


def measure(game: str, hands: int, k: int, seed: int) -> list[float]:
    from games.engine.solver import solve_thirteen, solve_trio

    rng = random.Random(seed)
    times = []
    for _ in range(hands):
        deal = rng.sample(range(52), 18)
        start = time.perf_counter()
        if game == "thirteen":
            solve_thirteen(deal[:13], k)
        else:
            solve_trio(deal[1:], deal[0], k)
        times.append(time.perf_counter() - start)
    return times


def percentile(sorted_times: list[float], q: float) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(q * len(sorted_times)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("-k", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")
    print(f"{'one-time loading':<36}{'ms':>8}")
    for name, took in load_times():
        print(f"{name:<36}{took * 1e3:>8.1f}")
    print(
        f"\n{'game':<15}{'cards':>6}{'hands':>7}{'k':>3}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}"
        f"{'mean ms':>9}{'target p99':>12}"
    )
    for game, cards, target in (("thirteen", 13, 50), ("thirteen_trio", 17, 200)):
        times = sorted(measure(game, args.hands, args.k, args.seed))
        p50, p90, p99 = (percentile(times, q) * 1e3 for q in (0.5, 0.9, 0.99))
        print(
            f"{game:<15}{cards:>6}{args.hands:>7}{args.k:>3}{p50:>9.1f}{p90:>9.1f}{p99:>9.1f}"
            f"{times[-1] * 1e3:>9.1f}{statistics.fmean(times) * 1e3:>9.1f}{target:>12}"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
