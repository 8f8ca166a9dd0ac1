"""The automatic arrangement of a ``thirteen`` hand (docs/RULES.md section 1, "Disconnected
players ... their hand is auto-played"): what a timed-out seat plays.

It never fouls, and it declares a natural when the natural is worth at least as much as
its best rows. The rows are the best arrangement of :func:`games.engine.solver.solve_thirteen`:
the split into back 5 / middle 5 / front 3 with back ≥ middle ≥ front that maximises the
expected units against realistic opponents, bonus rows included (docs/SOLVER.md).

>>> from games.engine.cards import parse_cards, cards_str
>>> a = arrange(parse_cards("As Ah Kd Kc 7s 7h 7d 4c 5d 6h 8s 9c 2d".split()))
>>> [cards_str(a[row]) for row in ("front", "middle", "back")], a["declare"]
([['Kc', 'Kd', '2d'], ['As', 'Ah', '7s', '7h', '4c'], ['9c', '8s', '7d', '6h', '5d']], False)
"""

from __future__ import annotations

from typing import Any

from games.engine.errors import EngineError
from games.engine.solver import thirteen as solver  # the module: the solver imports this package too


def arrange(cards: list[int]) -> dict[str, Any]:
    """A legal, never-fouled arrangement of 13 cards (docs/RULES.md section 1, "Rows").

    Returns ``{"front": [3 cards], "middle": [5], "back": [5], "declare": bool}`` with card
    ints, each row highest card first; ``declare`` is True when the cards hold a natural worth
    at least the expected units of the rows (docs/RULES.md "Naturals", docs/SOLVER.md "Naturals").
    """
    if len(cards) != 13 or len(set(cards)) != 13:
        raise EngineError("cards: expected 13 different cards")
    best = solver.solve_thirteen(list(cards), k=1)[0]
    return {row: best[row] for row in ("front", "middle", "back", "declare")}
