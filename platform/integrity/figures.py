"""One settled hand's figures for the stored signals (docs/INTEGRITY.md "What each signal
measures"), from its record alone: no database. The game's engine gives the coins that moved
between seats (``pair_flows``) and what each seat's own cards were worth (``seat_worth``).

* **flow** of a pair: what ``b`` paid ``a`` by the game's flows, less what ``a`` paid ``b``;
* **play** of a seat: its coins less what its cards were worth (its coins had it played the
  solver's best arrangement, the others as they played): above 0, play better than its cards;
* **gift** of a pair: what ``b``'s own play (against its cards' worth) paid ``a``, less the
  same of ``a`` to ``b``: zero when both played their cards' worth, whatever the deal;
* **info** of a pair: what the two seats' own plays took from the other seats (their coins had
  each played its cards' worth, less their actual coins).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.protocol import GameEngine


@dataclass(frozen=True)
class PairHand:
    a_seat: int
    b_seat: int
    flow: int
    gift: int | None
    info: int | None


@dataclass
class HandFigures:
    #: Per seat: its coins, the commission it paid, whether it fouled, its play against its
    #: cards' worth (None: not valued).
    coins: list[int]
    commissions: list[int]
    fouled: list[bool]
    play: list[int | None]
    #: Per pair of seats (``a`` first as the caller orders them) by seat indices.
    pairs: dict[tuple[int, int], PairHand] = field(default_factory=dict)


def _net(flows: Sequence[tuple[int, int, int]], to: int, frm: int) -> int:
    """What ``frm`` paid ``to`` less what ``to`` paid ``frm``."""
    return sum(c for p, r, c in flows if p == frm and r == to) - sum(c for p, r, c in flows if p == to and r == frm)


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
    figures = HandFigures(coins=coins, commissions=commissions, fouled=fouled, play=play if valued else [None] * n)
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
        figures.pairs[(a, b)] = PairHand(a, b, _net(flows, a, b), gift, info)
    return figures
