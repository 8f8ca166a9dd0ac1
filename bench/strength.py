"""Strength: the solver against the plain greedy arranger, scored by the engines' own rules.

    .venv/bin/python bench/strength.py --deals 20000 --workers 2

* ``thirteen``, two players: every deal is played twice, the solver holding each of the
  two hands once (the other played by greedy); a deal's result is the mean of the two,
  so the luck of the cards cancels. Scored by ``games.engine.thirteen.hands.scored_hand``
  and ``games.engine.thirteen.scoring.score_units``. Greedy declares every natural; the
  solver declares one when it is worth at least its best rows (docs/SOLVER.md "Naturals").
* ``thirteen_trio``, three players: deals come from ``games.engine.thirteen_trio.deal.deal``;
  the solver sits in seat ``deal % 3`` (rotating), greedy in the other two; scored by
  ``games.engine.thirteen_trio.scoring.score_hands`` (shoots, home runs, specials, jackpot).

Prints the solver's mean units (墩 in the trio) per hand, the standard error over the deals,
and the mean in standard errors. ``--model13`` / ``--model-trio FILE`` play the solver with
another table file; ``--vs-model13`` / ``--vs-model-trio FILE`` replace greedy by the solver
with that table (opponents that optimise too).

``--naturals N`` instead deals ``N`` random 13-card hands, counts those holding a natural
and those the solver plays as rows all the same, and measures what playing them is worth:
each such hand against ``--opponents`` greedy hands dealt from the other 39 cards (an
opponent holding a natural declares it), rows against declaring, scored by
``games.engine.thirteen.scoring.pair_units``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.solver.evaluate import cards_of  # noqa: E402
from games.engine.solver.greedy import greedy  # noqa: E402
from games.engine.solver.model import ThirteenModel, TrioModel, thirteen_model, trio_model  # noqa: E402
from games.engine.solver.thirteen import declares, search_thirteen  # noqa: E402
from games.engine.solver.trio import search_trio  # noqa: E402
from games.engine.thirteen.hands import scored_hand  # noqa: E402
from games.engine.thirteen.naturals import NATURAL_VALUES, best_natural  # noqa: E402
from games.engine.thirteen.scoring import declared_hand, ordinary_hand, pair_units, score_units  # noqa: E402
from games.engine.thirteen_trio.deal import deal as deal_trio  # noqa: E402
from games.engine.thirteen_trio.scoring import score_hands  # noqa: E402

_MODELS: dict[str, Any] = {}


def _load(game: str, path: str | None) -> Any:
    if not path:
        return thirteen_model() if game == "thirteen" else trio_model()
    data = json.loads(Path(path).read_text())
    return ThirteenModel(data) if game == "thirteen" else TrioModel(data)


def _init(model_paths: dict[str, str | None]) -> None:
    for name, path in model_paths.items():
        if name.startswith("vs:"):
            if path:
                _MODELS[name] = _load(name[3:], None if path == "shipped" else path)
        else:
            _MODELS[name] = _load(name, path)


def _rows(cards: list[int], masks: tuple[int, int, int]) -> dict[str, list[int]]:
    return {name: cards_of(m, cards) for name, m in zip(("front", "middle", "back"), masks, strict=True)}


def _greedy_rows(cards: list[int], suits: bool, jackpot: int = -1) -> dict[str, list[int]]:
    """The opponent's rows: greedy, or the solver with ``--vs-model*`` tables."""
    if suits and "vs:thirteen" in _MODELS:
        return _rows(cards, search_thirteen(cards, _MODELS["vs:thirteen"], 1).best()[0][2])
    if not suits and "vs:thirteen_trio" in _MODELS:
        return _rows(cards, search_trio(cards, jackpot, _MODELS["vs:thirteen_trio"], 1).best()[0][2])
    return dict(zip(("front", "middle", "back"), greedy(cards, suits=suits), strict=True))


def _solve(cards: list[int]) -> tuple[dict[str, list[int]], bool]:
    """The solver's rows and whether it declares (the engine's rule, with the chosen table)."""
    value, _, masks = search_thirteen(cards, _MODELS["thirteen"], 1).best()[0]
    natural = best_natural(cards)
    return _rows(cards, masks), natural is not None and declares(natural, value)


def thirteen_deal(seed: int) -> float:
    """Mean units of the solver over the two seatings of one two-player deal."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hands = [deck[:13], deck[13:26]]
    ours = [_solve(h) for h in hands]
    theirs = [(_greedy_rows(h, True), best_natural(h) is not None) for h in hands]
    total = 0
    for me in (0, 1):
        scored = []
        for seat, cards in enumerate(hands):
            rows, declare = ours[seat] if seat == me else theirs[seat]
            scored.append(scored_hand(cards, rows, declare))
        units, _ = score_units(scored, 0)
        total += units[me]
    return total / 2


Gain = tuple[float, float, float]  # the model's gain over declaring, measured mean, its std. error


def natural_hand(args: tuple[int, int]) -> tuple[str | None, Gain | None]:
    """One random hand: its natural (or None) and, when the solver plays it as rows, the
    model's gain over declaring and the gain measured against ``opponents`` greedy hands."""
    seed, opponents = args
    rng = random.Random(seed)
    cards = rng.sample(range(52), 13)
    natural = best_natural(cards)
    if natural is None:
        return None, None
    value, _, masks = search_thirteen(cards, _MODELS["thirteen"], 1).best()[0]
    if declares(natural, value):
        return natural, None
    rows = _rows(cards, masks)
    ours, declared = ordinary_hand(rows["front"], rows["middle"], rows["back"]), declared_hand(natural)
    rest = [c for c in range(52) if c not in cards]
    gains = []
    for _ in range(opponents):
        other = rng.sample(rest, 13)
        held = best_natural(other)
        theirs = declared_hand(held) if held else ordinary_hand(*greedy(other, suits=True))
        gains.append(pair_units(ours, theirs)[0] - pair_units(declared, theirs)[0])
    gain = (value - NATURAL_VALUES[natural], statistics.fmean(gains), statistics.stdev(gains) / opponents**0.5)
    return natural, gain


def naturals(hands: int, opponents: int, workers: int, models: dict[str, str | None], seed: int) -> None:
    """Print how many of ``hands`` random hands hold a natural, how many of those the solver
    plays as rows, and the model's and the measured gain of playing them, by natural."""
    jobs = [(seed * 10**7 + i, opponents) for i in range(hands)]
    with Pool(workers, initializer=_init, initargs=(models,)) as pool:
        results = [r for r in pool.map(natural_hand, jobs, chunksize=500) if r[0] is not None]
    played = [(name, gain) for name, gain in results if gain is not None]
    print(f"{hands} hands, {len(results)} hold a natural, {len(played)} played as rows")
    print(f"{'natural':<18}{'held':>6}{'as rows':>8}{'model gain':>12}{'measured gain':>15}{'std.err':>9}")
    for name in [*(n for n in NATURAL_VALUES if any(n == r[0] for r in results)), "all"]:
        held = sum(1 for n, _ in results if name in ("all", n))
        gains = [g for n, g in played if name in ("all", n)]
        if not gains:
            print(f"{name:<18}{held:>6}{0:>8}")
            continue
        model = statistics.fmean(g[0] for g in gains)
        measured = statistics.fmean(g[1] for g in gains)
        se = sum(g[2] ** 2 for g in gains) ** 0.5 / len(gains)
        print(f"{name:<18}{held:>6}{len(gains):>8}{model:>+12.3f}{measured:>+15.3f}{se:>9.3f}")


def trio_deal(seed: int) -> float:
    """墩 of the solver in seat ``seed % 3`` of one three-player deal, greedy in the others."""
    deck = list(range(52))
    rng = random.Random(seed)
    rng.shuffle(deck)
    jackpot, _, hands = deal_trio(deck, 0)
    me = seed % 3
    rows = []
    for seat, cards in enumerate(hands):
        if seat == me:
            rows.append(_rows(cards, search_trio(cards, jackpot, _MODELS["thirteen_trio"], 1).best()[0][2]))
        else:
            rows.append(_greedy_rows(cards, False, jackpot))
    return float(score_hands(rows, jackpot)["units"][me])


def run(game: str, deals: int, workers: int, models: dict[str, str | None], seed: int) -> tuple[float, float, float]:
    fn = thirteen_deal if game == "thirteen" else trio_deal
    start = time.perf_counter()
    with Pool(workers, initializer=_init, initargs=(models,)) as pool:
        results = pool.map(fn, range(seed * 10**7, seed * 10**7 + deals), chunksize=200)
    mean = statistics.fmean(results)
    se = statistics.stdev(results) / len(results) ** 0.5
    return mean, se, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", default="thirteen,thirteen_trio")
    parser.add_argument("--model13", help="thirteen table file for the solver (default: shipped)")
    parser.add_argument("--model-trio", help="thirteen_trio table file for the solver (default: shipped)")
    parser.add_argument("--vs-model13", help="opponents: the solver with this thirteen table ('shipped' for ours)")
    parser.add_argument("--vs-model-trio", help="opponents: the solver with this trio table ('shipped' for ours)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--naturals", type=int, metavar="N", help="measure naturals played as rows in N hands")
    parser.add_argument("--opponents", type=int, default=2000, help="greedy hands each natural is measured against")
    args = parser.parse_args()
    models = {
        "thirteen": args.model13,
        "thirteen_trio": args.model_trio,
        "vs:thirteen": args.vs_model13,
        "vs:thirteen_trio": args.vs_model_trio,
    }
    if args.naturals:
        naturals(args.naturals, args.opponents, args.workers, models, args.seed)
        return
    print(f"{'game':<15}{'players':>8}{'deals':>8}{'mean/hand':>11}{'std.err':>9}{'z':>7}{'target':>8}{'s':>7}")
    for game in args.games.split(","):
        mean, se, took = run(game, args.deals, args.workers, models, args.seed)
        players, target = (2, 0.8) if game == "thirteen" else (3, 0.9)
        row = f"{game:<15}{players:>8}{args.deals:>8}{mean:>+11.3f}{se:>9.3f}{mean / se:>7.1f}"
        print(f"{row}{target:>+8.1f}{took:>7.0f}")


if __name__ == "__main__":
    main()
