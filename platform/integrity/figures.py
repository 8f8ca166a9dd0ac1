"""One settled hand's figures for the stored signals (docs/INTEGRITY.md "What each signal
measures"), from its record alone: no database. The game's engine gives the coins that moved
between seats (``pair_flows``) and what each seat's own cards were worth (``seat_worth``).

* **flow** of a pair: what ``b`` paid ``a`` by the game's flows, less what ``a`` paid ``b``;
* **play** of a seat: its coins less what its cards were worth (its coins had it played the
  solver's best arrangement, the others as they played): above 0, play better than its cards;
* **gift** of a pair: what ``b``'s own play (against its cards' worth) paid ``a``, less the
  same of ``a`` to ``b``: zero when both played their cards' worth, whatever the deal;
* **info** of a pair: what the two seats' own plays took from the other seats (their coins had
  each played its cards' worth, less their actual coins);
* **favour** of ``a`` to ``b``: what ``a``'s own play gave ``b`` (``b``'s coins less ``b``'s coins
  had ``a`` played its cards' worth) less the mean of what it gave each other seat: a paired
  test against the table, 0 on average for a player who plays badly against everyone alike;
* **bet** of a seat: how its bet leaned against the cards it saw (the engine's ``bet_lean``),
  kept per pair of player and banker: below 0 when it bet large on weak cards, small on strong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from games.engine.protocol import GameEngine


@dataclass(frozen=True)
class PairHand:
    a_seat: int
    b_seat: int
    flow: int
    gift: int | None
    info: int | None
    #: ``a``'s play favouring ``b`` against the other seats, and ``b``'s favouring ``a``.
    favour_ab: int | None = None
    favour_ba: int | None = None
    #: ``a``'s bet lean with ``b`` as the banker, and ``b``'s with ``a``.
    bet_ab: int | None = None
    bet_ba: int | None = None


@dataclass
class HandFigures:
    #: Per seat: its coins, the commission it paid, whether it fouled, its play against its
    #: cards' worth (None: not valued).
    coins: list[int]
    commissions: list[int]
    fouled: list[bool]
    play: list[int | None]
    #: Per seat: how its bet leaned against its cards (None: not a bet on seen cards).
    bet: list[int | None] = field(default_factory=list)
    #: Per pair of seats (``a`` first as the caller orders them) by seat indices.
    pairs: dict[tuple[int, int], PairHand] = field(default_factory=dict)


def _net(flows: Sequence[tuple[int, int, int]], to: int, frm: int) -> int:
    """What ``frm`` paid ``to`` less what ``to`` paid ``frm``."""
    return sum(c for p, r, c in flows if p == frm and r == to) - sum(c for p, r, c in flows if p == to and r == frm)


def _favour(coins: Sequence[int], worth: Sequence[Sequence[int] | None], giver: int, to: int) -> int | None:
    """What ``giver``'s own play gave ``to``, less the mean of what it gave each other seat
    (rounded toward zero); None without a third seat or a valued hand."""
    wg = worth[giver]
    others = [k for k in range(len(coins)) if k not in (giver, to)]
    if wg is None or not others:
        return None
    given = [coins[k] - wg[k] for k in others]
    return int(Fraction(coins[to] - wg[to]) - Fraction(sum(given), len(given)))


def hand_figures(eng: GameEngine, rec: Mapping[str, Any], order: Sequence[tuple[int, int]]) -> HandFigures:
    """The figures of the record ``rec`` for the seat pairs ``order`` (each ``(a, b)``)."""
    result = rec["result"]
    coins = [int(c) for c in result["coins"]]
    n = len(coins)
    fouled = [bool(f) for f in (result.get("fouled") or [False] * n)]
    flows = eng.pair_flows(rec, coins)
    worth = [eng.seat_worth(rec, s) for s in range(n)]
    valued = all(w is not None for w in worth)
    play: list[int | None] = [coins[s] - w[s] if w is not None else None for s, w in enumerate(worth)]
    cf_flows = [eng.pair_flows(rec, w) if w is not None else None for w in worth]
    commissions = [int(c) for c in eng.seat_commissions(rec)]
    bets = [eng.bet_lean(rec, s) for s in range(n)]
    banker = rec.get("banker")
    figures = HandFigures(coins=coins, commissions=commissions, fouled=fouled, play=play if valued else [None] * n,
                          bet=bets)
    def paid(x: int, y: int) -> int:
        """What ``x``'s own play (against its cards' worth) paid ``y``."""
        fx = cf_flows[x]
        assert fx is not None
        return _net(flows, y, x) - _net(fx, y, x)

    for a, b in order:
        gift = info = None
        wa, wb = worth[a], worth[b]
        if valued and wa is not None and wb is not None:
            gift = paid(b, a) - paid(a, b)
            others = [k for k in range(n) if k not in (a, b)]
            info = sum(wa[k] - coins[k] for k in others) + sum(wb[k] - coins[k] for k in others) if others else None
        figures.pairs[(a, b)] = PairHand(
            a, b, _net(flows, a, b), gift, info,
            favour_ab=_favour(coins, worth, a, b) if valued else None,
            favour_ba=_favour(coins, worth, b, a) if valued else None,
            bet_ab=bets[a] if banker == b else None, bet_ba=bets[b] if banker == a else None)
    return figures
