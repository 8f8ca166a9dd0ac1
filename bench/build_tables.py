"""Build the solver's opponent tables by simulation (docs/SOLVER.md, "Tables").

    .venv/bin/python bench/build_tables.py thirteen --deals 25000 --arranger solver \
        --model games/engine/solver/data/thirteen.json --out games/engine/solver/data/thirteen.json

Deals random hands, arranges every seat with the chosen arranger (``greedy``, or
``solver`` with the model file given), and writes the distribution of the rows they
play: per row position the count of each key; for the trio also the copula grid of a
hand's three row ranks and ``home_run_q``. ``--mix FILE`` adds the counts of another
table file (e.g. a greedy one) so the opponents are a blend. Prints a summary table.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.solver.evaluate import key3, key5  # noqa: E402
from games.engine.solver.greedy import greedy  # noqa: E402
from games.engine.solver.model import POSITIONS, Marginal, ThirteenModel, TrioModel  # noqa: E402
from games.engine.solver.thirteen import search_thirteen  # noqa: E402
from games.engine.solver.trio import search_trio  # noqa: E402
from games.engine.thirteen.naturals import best_natural  # noqa: E402
from games.engine.thirteen_trio.scoring import shoots  # noqa: E402

GRID = 12
_MODEL: Any = None


def _init(game: str, model_path: str | None) -> None:
    global _MODEL
    if model_path:
        data = json.loads(Path(model_path).read_text())
        _MODEL = ThirteenModel(data) if game == "thirteen" else TrioModel(data)


def _keys(cards: list[int], game: str, jackpot: int) -> tuple[int, int, int]:
    suits = game == "thirteen"
    if _MODEL is None:
        f, m, b = greedy(cards, suits=suits)
    elif game == "thirteen":
        _, _, (fm, mm, bm) = search_thirteen(cards, _MODEL, 1).best()[0]
        f, m, b = ([c for i, c in enumerate(cards) if x >> i & 1] for x in (fm, mm, bm))
    else:
        _, _, (fm, mm, bm) = search_trio(cards, jackpot, _MODEL, 1).best()[0]
        f, m, b = ([c for i, c in enumerate(cards) if x >> i & 1] for x in (fm, mm, bm))
    return key3(f), key5(m, suits), key5(b, suits)


def _chunk(args: tuple[str, int, int]) -> list[tuple[int, int, int]]:
    """Row keys of every arranged hand in ``deals`` deals (thirteen: 4 hands a deal, naturals
    left out; trio: 3 hands of 17 and a jackpot card a deal, in seat order)."""
    game, seed, deals = args
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        deck = list(range(52))
        rng.shuffle(deck)
        if game == "thirteen":
            for s in range(4):
                hand = deck[13 * s : 13 * s + 13]
                if best_natural(hand) is None:
                    out.append(_keys(hand, game, -1))
        else:
            out.extend(_keys(deck[1 + 17 * s : 18 + 17 * s], game, deck[0]) for s in range(3))
    return out


def _copula(triples: list[tuple[int, int, int]], rng: random.Random) -> list[int]:
    margins = [Marginal(Counter(t[r] for t in triples).items()) for r in range(3)]
    counts = [0] * GRID**3
    for t in triples:
        bins = []
        for r, m in enumerate(margins):
            lo, hi = m.below(t[r]), m.at_most(t[r])
            bins.append(min(GRID - 1, int((lo + rng.random() * (hi - lo)) * GRID)))
        counts[(bins[0] * GRID + bins[1]) * GRID + bins[2]] += 1
    return counts


def _home_run_q(triples: list[tuple[int, int, int]]) -> float:
    """P(X shoots Z | X shoots Y) over the simulated deals (three hands a deal)."""
    one = both = 0
    for d in range(0, len(triples) - 2, 3):
        deal = triples[d : d + 3]
        for x in range(3):
            y, z = (x + 1) % 3, (x + 2) % 3
            for a, b in ((y, z), (z, y)):
                if shoots(deal[x], deal[a]):
                    one += 1
                    both += shoots(deal[x], deal[b])
    return both / one


def build(game: str, deals: int, model: str | None, seed: int, workers: int) -> dict[str, Any]:
    chunks = [(game, seed * 1000 + i, deals // (4 * workers)) for i in range(4 * workers)]
    with Pool(workers, initializer=_init, initargs=(game, model)) as pool:
        triples = [t for part in pool.map(_chunk, chunks) for t in part]
    data: dict[str, Any] = {
        "game": game,
        "hands": len(triples),
        "rows": {name: sorted(Counter(t[r] for t in triples).items()) for r, name in enumerate(POSITIONS)},
    }
    if game == "thirteen_trio":
        data["grid"] = GRID
        data["copula"] = _copula(triples, random.Random(seed))
        data["home_run_q"] = round(_home_run_q(triples), 4)
    return data


def mix(data: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Pool the counts of two table files of the same game (a blend of opponents)."""
    out = dict(data)
    out["hands"] = data["hands"] + other["hands"]
    out["rows"] = {}
    for name in POSITIONS:
        counts = Counter(dict(map(tuple, data["rows"][name])))
        counts.update(dict(map(tuple, other["rows"][name])))
        out["rows"][name] = sorted(counts.items())
    if "copula" in data:
        out["copula"] = [a + b for a, b in zip(data["copula"], other["copula"], strict=True)]
        w = data["hands"] / out["hands"]
        out["home_run_q"] = round(w * data["home_run_q"] + (1 - w) * other["home_run_q"], 4)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=["thirteen", "thirteen_trio"])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--arranger", choices=["greedy", "solver"], default="greedy")
    parser.add_argument("--model", help="table file the solver arranger uses")
    parser.add_argument("--mix", help="table file whose counts are added")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    start = time.perf_counter()
    data = build(args.game, args.deals, args.model if args.arranger == "solver" else None, args.seed, args.workers)
    if args.mix:
        data = mix(data, json.loads(Path(args.mix).read_text()))
    Path(args.out).write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{'game':<14}{'arranger':<10}{'hands':>8}{'front keys':>12}{'middle keys':>13}{'back keys':>11}{'s':>8}")
    sizes = [len(data["rows"][n]) for n in POSITIONS]
    took = time.perf_counter() - start
    print(f"{args.game:<14}{args.arranger:<10}{data['hands']:>8}{sizes[0]:>12}{sizes[1]:>13}{sizes[2]:>11}{took:>8.0f}")


if __name__ == "__main__":
    main()
