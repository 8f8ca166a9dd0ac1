"""The tests the stored pair signals are judged by (docs/INTEGRITY.md "What the stored signals
measure"): plain arithmetic over the sums a batch keeps, no database.

* a **self-normalised sum** ``z = Σx / √(Σx²)``: about standard normal when the per-hand figure
  has mean 0, whatever its spread;
* the **bets** test, a two-sample (Welch) ``z`` of a player's bet lean in the hands one banker
  banked against its bet lean with every other banker: a player who always bets against its
  cards (or bets at random) is its own baseline, so only a lean reserved for one banker shows.
  Until the player has ``min_rest`` hands with other bankers, the baseline is a bet that ignores
  the cards (lean 0), judged by the self-normalised sum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from integrity.selectors import MIN_HANDS

if TYPE_CHECKING:
    from integrity.models import PairSignal


@dataclass
class Sums:
    """Hands, sum and sum of squares of a per-hand figure."""

    hands: int = 0
    net: int = 0
    sq: int = 0

    def add(self, x: int) -> None:
        self.hands += 1
        self.net += x
        self.sq += x * x


def z_sum(net: int, sq: int) -> float:
    """The self-normalised sum.

    >>> round(z_sum(-30, 100), 2), z_sum(0, 0)
    (-3.0, 0.0)
    """
    return net / math.sqrt(sq) if sq else 0.0


def z_apart(one: Sums, rest: Sums, *, min_rest: int) -> float:
    """How far the mean of ``one`` lies from the mean of ``rest`` in standard errors (Welch);
    against 0 by the self-normalised sum while ``rest`` has fewer than ``min_rest`` hands.

    >>> round(z_apart(Sums(4, -8, 20), Sums(0, 0, 0), min_rest=30), 2)
    -1.79
    >>> round(z_apart(Sums(40, -80, 200), Sums(40, 0, 160), min_rest=30), 2)
    -5.59
    """
    if one.hands < 2:
        return 0.0
    if rest.hands < min_rest:
        return z_sum(one.net, one.sq)
    m1, m2 = one.net / one.hands, rest.net / rest.hands
    v1 = max(one.sq / one.hands - m1 * m1, 0.0) * one.hands / (one.hands - 1)
    v2 = max(rest.sq / rest.hands - m2 * m2, 0.0) * rest.hands / (rest.hands - 1)
    se = math.sqrt(v1 / one.hands + v2 / rest.hands)
    return (m1 - m2) / se if se else 0.0


def _bets_z(one: Sums, total: Sums | None) -> float:
    """The bets test of one way of a pair: its hands against the player's hands with the other
    bankers (0 before :data:`MIN_HANDS` hands)."""
    if one.hands < MIN_HANDS:
        return 0.0
    total = total or Sums()
    rest = Sums(total.hands - one.hands, total.net - one.net, total.sq - one.sq)
    return z_apart(one, rest, min_rest=MIN_HANDS)


def pair_bets_z(pair: PairSignal, bets: dict[int, Sums]) -> tuple[float, float]:
    """The bets test of ``a`` betting with ``b`` as the banker, and of ``b`` with ``a``;
    ``bets``: each player's bet lean with any banker, over every stake level."""
    ab = Sums(pair.bet_ab_hands, pair.bet_ab_net, pair.bet_ab_sq)
    ba = Sums(pair.bet_ba_hands, pair.bet_ba_net, pair.bet_ba_sq)
    return _bets_z(ab, bets.get(pair.a_id)), _bets_z(ba, bets.get(pair.b_id))
