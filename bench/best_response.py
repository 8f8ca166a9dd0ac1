"""Best response to greedy in ``thirteen``: the most any arrangement policy can win against
the plain greedy arranger in ``bench/strength.py``'s setting (2 players, each deal played
twice with the hands swapped; docs/SOLVER.md "Validation").

    .venv/bin/python bench/best_response.py --deals 20000 --workers 2     (≈ 13 minutes on 2 cores)

The best response to a hand sees only its own 13 cards, so it is the arrangement (or the
declaration of a natural) with the highest expected units against greedy holding 13 cards
drawn uniformly from the 39 others. It is computed here as exactly as sampling allows:

* Opponents: a pool of ``--pool`` random 13-card hands, each arranged by greedy (a numpy
  copy of ``games.engine.solver.greedy``, checked equal to it on the first 2,000 hands at
  start) and checked for naturals (an opponent holding one declares it, as in strength.py).
  For each of our hands, the pool hands that share no card with it are an exact uniform
  sample of the opponent's 13 cards (card removal included): about 1.28% of the pool,
  25,600 hands for the default pool of 2,000,000.
* Candidates: all 72,072 splits of our 13 cards that do not foul, plus declaring when we
  hold a natural. With no sweep bonus, a split's mean units over the opponents is exactly
  the sum over rows of its key's mean units against the sampled opponents' rows, so every
  split is scored against every sampled opponent with the engine's bonus-row values
  (``thirteen.scoring.row_value``; declarations by ``NATURAL_VALUES`` and natural ranks).
* The policy plays the split with the highest mean (ties: the first found).

Selecting the maximum of noisy means and scoring it on the same samples is biased upward,
so each policy is scored in two unbiased ways, and the biased figure is printed as an upper
bound:

1. *On the deals*: the chosen rows play the deal's actual other hand (greedy, declaring any
   natural) in both seatings, scored by ``thirteen.hands.scored_hand`` and
   ``thirteen.scoring.score_units`` exactly as strength.py does (the same deals for the
   same ``--seed``). Also scored this way: the shipped solver, and the solver with a table
   fitted to greedy alone (``--model-greedy FILE``; by default a table of the pool's
   greedy rows, i.e. the shipped table's format fitted to greedy with 2,000,000 hands).
2. *On fresh samples*: each hand's opponents are split in two halves; the best response
   chosen on the first half (and each other policy) is scored on the second, minus greedy's
   own rows (or declaration) on the same samples. Greedy against greedy is worth exactly 0
   on average (the seats are symmetric), so the mean of this edge over hands estimates the
   same quantity as 1 with a smaller error. The in-sample edge of the split chosen on all
   samples (biased upward) bounds the best response from above.

Prints the number of deals, pool and opponents per hand, then a table: for each policy its
mean units per hand on the deals with the standard error over deals, its difference from the
best response on the same deals with that difference's standard error, and the mean edge
over greedy on fresh samples with its standard error (greedy itself is listed as a check:
exactly 0); then the upper bound, and the best
response's mean on the deals with and without a natural in either hand.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fasteval import rank3_batch, rank5_batch  # noqa: E402

from games.engine.poker import CAT_SHIFT, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, TOP_SHIFT, TRIPS  # noqa: E402
from games.engine.solver.evaluate import cards_of  # noqa: E402
from games.engine.solver.greedy import greedy, greedy_masks  # noqa: E402
from games.engine.solver.model import POSITIONS, ThirteenModel, thirteen_model  # noqa: E402
from games.engine.solver.thirteen import declares, search_thirteen  # noqa: E402
from games.engine.thirteen.hands import scored_hand  # noqa: E402
from games.engine.thirteen.naturals import NATURAL_VALUES, best_natural, natural_rank  # noqa: E402
from games.engine.thirteen.scoring import score_units  # noqa: E402

Array = npt.NDArray[Any]

# Positions of every 5- and 3-subset of 13 cards (``combinations`` order, as solver.evaluate),
# their masks, and for each back the 56 middles of the 8 cards left and the front left after each.
C5 = np.array(list(combinations(range(13), 5)), dtype=np.int64)
C3 = np.array(list(combinations(range(13), 3)), dtype=np.int64)
MASK5 = (1 << C5).sum(axis=1)
_IDX5 = {int(m): i for i, m in enumerate(MASK5)}
_IDX3 = {int(m): i for i, m in enumerate((1 << C3).sum(axis=1))}
_FULL = (1 << 13) - 1


def _splits() -> tuple[Array, Array]:
    mid = np.zeros((len(C5), 56), dtype=np.int64)
    front = np.zeros((len(C5), 56), dtype=np.int64)
    for b, back in enumerate(C5):
        rest = [p for p in range(13) if p not in back]
        for j, middle in enumerate(combinations(rest, 5)):
            mm = sum(1 << p for p in middle)
            mid[b, j] = _IDX5[mm]
            front[b, j] = _IDX3[_FULL ^ int(MASK5[b]) ^ mm]
    return mid, front


MID, FRONT = _splits()
SPLIT_B = np.repeat(np.arange(len(C5)), 56)  # every (back, middle) pair, 72,072 splits
SPLIT_M = MID.ravel()
SPLIT_F = FRONT.ravel()

# The opponent pool, set in the parent before the deal workers fork.
POOL: dict[str, Array] = {}
_MODELS: dict[str, ThirteenModel] = {}


def row_values(row: int, keys: Array) -> Array:
    """``thirteen.scoring.row_value`` of an array of keys at one row position."""
    cat = keys >> CAT_SHIFT
    if row == 0:
        return np.where(cat == TRIPS, 3, 1)
    royal = (cat == STRAIGHT_FLUSH) & (((keys >> TOP_SHIFT) & 15) == 12)
    big = (14, 10, 8) if row == 1 else (7, 5, 4)
    out = np.ones(keys.shape, dtype=np.int64)
    if row == 1:
        out = np.where(cat == FULL_HOUSE, 2, out)
    out = np.where(cat == QUADS, big[2], out)
    out = np.where(cat == STRAIGHT_FLUSH, big[1], out)
    return np.where(royal, big[0], out)


def subset_keys(hands: Array) -> tuple[Array, Array]:
    """Keys (suits on) of every 5-subset ``(n, 1287)`` and 3-subset ``(n, 286)`` of ``(n, 13)`` hands."""
    n = len(hands)
    k5 = rank5_batch(hands[:, C5].reshape(-1, 5), suits=True).reshape(n, len(C5))
    k3 = rank3_batch(hands[:, C3].reshape(-1, 3)).reshape(n, len(C3))
    return k5, k3


def greedy_batch(hands: Array) -> Array:
    """``(n, 3)`` row keys (front, middle, back) of greedy's rows for ``(n, 13)`` hands, the same
    choice as ``greedy_masks`` (strongest back, ties by larger mask; then the strongest middle)."""
    k5, k3 = subset_keys(hands)
    rows = np.arange(len(hands))
    b = np.argmax((k5 << 13) | MASK5, axis=1)
    mids = MID[b]
    j = np.argmax((np.take_along_axis(k5, mids, axis=1) << 13) | MASK5[mids], axis=1)
    out = np.stack([k3[rows, FRONT[b, j]], k5[rows, mids[rows, j]], k5[rows, b]], axis=1)
    for i in np.flatnonzero(out[:, 0] > out[:, 1]):  # plain greedy would foul: the python fix-up
        out[i] = _mask_keys(hands[i].tolist(), greedy_masks(hands[i].tolist(), suits=True))
    return out


def _mask_keys(cards: list[int], masks: tuple[int, int, int]) -> tuple[int, int, int]:
    k5, k3 = subset_keys(np.array([cards], dtype=np.int64))
    fm, mm, bm = masks
    return int(k3[0, _IDX3[fm]]), int(k5[0, _IDX5[mm]]), int(k5[0, _IDX5[bm]])


def pool_chunk(args: tuple[int, int, int]) -> dict[str, Array]:
    """``count`` random 13-card hands: card bit masks, greedy's row keys, natural value and rank."""
    seed, part, count = args
    rng = np.random.default_rng([seed, part])
    hands = np.argsort(rng.random((count, 52)), axis=1)[:, :13].astype(np.int64)
    nat_value = np.zeros(count, dtype=np.int64)
    nat_rank = np.zeros(count, dtype=np.int64)
    for i, hand in enumerate(hands.tolist()):
        natural = best_natural(hand)
        if natural:
            nat_value[i], nat_rank[i] = NATURAL_VALUES[natural], natural_rank(natural)
    keys = np.concatenate([greedy_batch(hands[s : s + 500]) for s in range(0, count, 500)])
    out = {"cards": (1 << hands).sum(axis=1), "keys": keys, "nat_value": nat_value, "nat_rank": nat_rank}
    if part == 0:
        out["hands"] = hands
    return out


def check_greedy(hands: Array, keys: Array) -> None:
    """The numpy greedy equals the engine's greedy on these hands (row keys)."""
    for hand, got in zip(hands.tolist(), keys.tolist(), strict=True):
        want = _mask_keys(hand, greedy_masks(hand, suits=True))
        assert tuple(got) == want, (hand, got, want)


class Opponents:
    """Sampled opponents of one hand: row keys of those without a natural, and the naturals."""

    def __init__(self, keys: Array, nat_value: Array, nat_rank: Array) -> None:
        self.n = len(nat_value)
        plain = nat_value == 0
        self.rows = []
        for r in range(3):
            x = np.sort(keys[plain, r])
            paid = row_values(r, x)
            self.rows.append((x, np.concatenate([np.cumsum(paid[::-1])[::-1], [0]])))
        self.nat_value = nat_value[~plain]
        self.nat_rank = nat_rank[~plain]

    def table(self, r: int, keys: Array) -> Array:
        """Mean units of our row ``r`` with each key against the opponents' rows (naturals: 0)."""
        x, paid_from = self.rows[r]
        below = np.searchsorted(x, keys, "left")
        return (below * row_values(r, keys) - paid_from[np.searchsorted(x, keys, "right")]) / self.n

    def split_values(self, k5: Array, k3: Array) -> tuple[Array, Array, Array]:
        """Per-subset tables: front (286), middle (1287), back (1287); a split is worth their sum
        minus what the opponents' naturals take (:meth:`naturals_paid`)."""
        return self.table(0, k3), self.table(1, k5), self.table(2, k5)

    def naturals_paid(self) -> float:
        return float(self.nat_value.sum()) / self.n

    def declared(self, natural: str) -> float:
        """Mean units of declaring ``natural`` against these opponents."""
        value, rank = NATURAL_VALUES[natural], natural_rank(natural)
        against = np.where(rank < self.nat_rank, value, np.where(rank > self.nat_rank, -self.nat_value, 0))
        return (value * (self.n - len(self.nat_value)) + float(against.sum())) / self.n


class Hand:
    """One of our hands: its candidates' values against sampled opponents and the choices."""

    def __init__(self, cards: list[int], seed: int) -> None:
        self.cards = cards
        self.natural = best_natural(cards)
        self.k5, self.k3 = (a[0] for a in subset_keys(np.array([cards], dtype=np.int64)))
        kb, km, kf = self.k5[SPLIT_B], self.k5[SPLIT_M], self.k3[SPLIT_F]
        self.legal = np.flatnonzero((kf <= km) & (km <= kb))
        mask = sum(1 << c for c in cards)
        chosen = np.flatnonzero((POOL["cards"] & mask) == 0)
        halves = np.random.default_rng(seed).random(len(chosen)) < 0.5
        self.samples = len(chosen)
        self.opponents = [self._opponents(chosen), self._opponents(chosen[halves]), self._opponents(chosen[~halves])]
        self._tables: dict[int, tuple[Array, Array, Array]] = {}

    @staticmethod
    def _opponents(index: Array) -> Opponents:
        return Opponents(POOL["keys"][index], POOL["nat_value"][index], POOL["nat_rank"][index])

    def tables(self, opp: Opponents) -> tuple[Array, Array, Array]:
        if id(opp) not in self._tables:
            self._tables[id(opp)] = opp.split_values(self.k5, self.k3)
        return self._tables[id(opp)]

    def values(self, opp: Opponents) -> tuple[Array, float | None]:
        """Mean units of every legal split (in ``self.legal`` order) and of declaring (None: no natural)."""
        tf, tm, tb = self.tables(opp)
        s = self.legal
        rows = tf[SPLIT_F[s]] + tm[SPLIT_M[s]] + tb[SPLIT_B[s]] - opp.naturals_paid()
        return rows, opp.declared(self.natural) if self.natural else None

    def best(self, opp: Opponents) -> tuple[str, int | None, float]:
        """The best response against ``opp``: ("rows", split) or ("declare", None), and its value."""
        rows, declared = self.values(opp)
        i = int(np.argmax(rows))
        if declared is not None and declared > rows[i]:
            return "declare", None, declared
        return "rows", int(self.legal[i]), float(rows[i])

    def value_of(self, choice: tuple[str, int | None], opp: Opponents) -> float:
        kind, split = choice
        if kind == "declare":
            assert self.natural is not None
            return opp.declared(self.natural)
        tf, tm, tb = self.tables(opp)
        assert split is not None
        return float(tf[SPLIT_F[split]] + tm[SPLIT_M[split]] + tb[SPLIT_B[split]]) - opp.naturals_paid()

    def rows(self, choice: tuple[str, int | None]) -> tuple[dict[str, list[int]] | None, bool]:
        """Rows and declare flag for ``scored_hand`` (a declaration shows no rows)."""
        kind, split = choice
        if kind == "declare":
            return None, True
        assert split is not None
        masks = (int((1 << C3[SPLIT_F[split]]).sum()), int(MASK5[SPLIT_M[split]]), int(MASK5[SPLIT_B[split]]))
        return {name: cards_of(m, self.cards) for name, m in zip(POSITIONS, masks, strict=True)}, False

    def split_of(self, masks: tuple[int, int, int]) -> int:
        fm, mm, bm = masks
        return _IDX5[bm] * 56 + int(np.flatnonzero(MID[_IDX5[bm]] == _IDX5[mm])[0])


def solver_choice(hand: Hand, model: ThirteenModel) -> tuple[str, int | None]:
    """The solver's play with ``model``: its best rows, or declaring by its rule."""
    value, _, masks = search_thirteen(hand.cards, model, 1).best()[0]
    if hand.natural is not None and declares(hand.natural, value):
        return "declare", None
    return "rows", hand.split_of(masks)


POLICIES = ("best response", "best response, half the samples", "greedy-fitted solver", "shipped solver", "greedy")


def one_deal(seed: int) -> dict[str, Any]:
    """Every policy's units on one deal (mean of the two seatings against greedy) and each
    policy's edge over greedy on fresh samples (mean of the deal's two hands)."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    cards = [deck[:13], deck[13:26]]
    hands = [Hand(c, seed * 2 + i) for i, c in enumerate(cards)]
    theirs = [
        scored_hand(c, dict(zip(POSITIONS, greedy(c, suits=True), strict=True)), h.natural is not None)
        for c, h in zip(cards, hands, strict=True)
    ]
    deal = dict.fromkeys(POLICIES, 0.0)
    fresh = dict.fromkeys(POLICIES, 0.0)
    upper = 0.0
    for me, hand in enumerate(hands):
        full, first, second = hand.opponents
        g = ("declare", None) if hand.natural else ("rows", hand.split_of(greedy_masks(hand.cards, suits=True)))
        br_kind, br_split, br_value = hand.best(full)
        half_kind, half_split, _ = hand.best(first)
        choices = {
            "best response": (br_kind, br_split),
            "best response, half the samples": (half_kind, half_split),
            "greedy-fitted solver": solver_choice(hand, _MODELS["greedy"]),
            "shipped solver": solver_choice(hand, _MODELS["shipped"]),
            "greedy": g,
        }
        upper += (br_value - hand.value_of(g, full)) / 2
        base = hand.value_of(g, second)
        for name, choice in choices.items():
            rows, declare = hand.rows(choice)
            scored = [scored_hand(hand.cards, rows, declare), theirs[1 - me]]
            deal[name] += score_units(scored if me == 0 else scored[::-1], 0)[0][me] / 2
            fresh[name] += (hand.value_of(choice, second) - base) / 2
    natural = any(h.natural for h in hands)
    return {"deal": deal, "fresh": fresh, "upper": upper, "samples": [h.samples for h in hands], "natural": natural}


def build_pool(size: int, seed: int, workers: int) -> None:
    chunk = 20000
    jobs = [(seed, part, min(chunk, size - part * chunk)) for part in range((size + chunk - 1) // chunk)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        parts = pool.map(pool_chunk, jobs)
    check_greedy(parts[0]["hands"][:2000], parts[0]["keys"][:2000])
    for name in ("cards", "keys", "nat_value", "nat_rank"):
        POOL[name] = np.concatenate([p[name] for p in parts])


def pool_table() -> dict[str, Any]:
    """A ``thirteen.json``-style table of the pool's greedy rows (hands without a natural)."""
    plain = POOL["nat_value"] == 0
    rows = {}
    for r, name in enumerate(POSITIONS):
        keys, counts = np.unique(POOL["keys"][plain, r], return_counts=True)
        rows[name] = [[int(k), int(c)] for k, c in zip(keys, counts, strict=True)]
    return {"game": "thirteen", "hands": int(plain.sum()), "rows": rows}


def _mean_se(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0] if values else float("nan")), float("nan")
    return statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7, help="deals as bench/strength.py --seed")
    parser.add_argument("--pool", type=int, default=2_000_000, help="greedy opponent hands simulated")
    parser.add_argument("--pool-seed", type=int, default=1)
    parser.add_argument("--model-greedy", help="table fitted to greedy (default: the pool's greedy rows)")
    args = parser.parse_args()
    start = time.perf_counter()
    build_pool(args.pool, args.pool_seed, args.workers)
    built = time.perf_counter() - start
    greedy_data = json.loads(Path(args.model_greedy).read_text()) if args.model_greedy else pool_table()
    _MODELS["greedy"] = ThirteenModel(greedy_data)
    _MODELS["shipped"] = thirteen_model()
    seeds = range(args.seed * 10**7, args.seed * 10**7 + args.deals)
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        results = pool.map(one_deal, seeds, chunksize=50)
    samples = [s for r in results for s in r["samples"]]
    print(
        f"{args.deals} deals (seed {args.seed}), 2 players, both seatings; {args.pool} greedy opponent hands "
        f"({built:.0f} s), per hand {statistics.fmean(samples):.0f} opponents (min {min(samples)}); "
        f"greedy-fitted table: {args.model_greedy or 'the pool'} ({greedy_data['hands']} hands)"
    )
    print(
        f"{'policy':<34}{'on the deals':>13}{'std.err':>9}{'− best resp.':>13}{'std.err':>9}"
        f"{'fresh samples':>15}{'std.err':>9}"
    )
    best = [r["deal"]["best response"] for r in results]
    for name in POLICIES:
        deal = [r["deal"][name] for r in results]
        mean, se = _mean_se(deal)
        diff, dse = _mean_se([a - b for a, b in zip(deal, best, strict=True)])
        fmean, fse = _mean_se([r["fresh"][name] for r in results])
        fresh = f"{'(chosen on them)':>24}" if name == "best response" else f"{fmean:>+15.3f}{fse:>9.3f}"
        print(f"{name:<34}{mean:>+13.3f}{se:>9.3f}{diff:>+13.3f}{dse:>9.3f}{fresh}")
    upper, use = _mean_se([r["upper"] for r in results])
    print(f"upper bound (best response's in-sample edge, biased up): {upper:+.3f} ± {use:.3f}")
    for label, flag in (("with", True), ("without", False)):
        part = [r["deal"]["best response"] for r in results if r["natural"] == flag]
        mean, se = _mean_se(part)
        print(f"best response on the {len(part)} deals {label} a natural in either hand: {mean:+.3f} ± {se:.3f}")
    print(f"took {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
