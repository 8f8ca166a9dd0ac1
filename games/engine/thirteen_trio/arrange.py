"""Auto-arrangement: the rows a timed-out or disconnected seat plays (docs/RULES.md section 2 "Arranging").

:func:`arrange` picks 13 of the 17 cards into front 3 / middle 5 / back 5 and never
fouls: the best arrangement of :func:`games.engine.solver.solve_trio`, which maximises
the expected 墩 against two realistic opponents — ``P(shoot) − P(shot)`` with home runs,
plus the specials (衝三, 鐵支, 同花順, 彩金) that pay for certain (docs/SOLVER.md).

>>> from games.engine.cards import cards_str, parse_cards, parse_card
>>> hand = parse_cards("6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split())
>>> rows = arrange(hand, parse_card("6h"))
>>> sorted(cards_str(rows["front"]))     # the jackpot trips go in front: 衝三 + 彩金
['6c', '6d', '6s']
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.errors import EngineError
from games.engine.solver import trio as solver  # the module: the solver imports games.engine.thirteen
from games.engine.thirteen_trio.rules import HAND_SIZE


def arrange(cards: Sequence[int], jackpot: int) -> dict[str, list[int]]:
    """Rows for 17 cards, never a foul (docs/RULES.md section 2 "Arranging"; auto-play).

    Returns ``{"front": [3], "middle": [5], "back": [5]}`` of card ints, each row sorted
    high to low; the four cards left out are the ones not listed.
    """
    if len(cards) != HAND_SIZE or len(set(cards)) != HAND_SIZE:
        raise EngineError(f"cards: expected {HAND_SIZE} distinct cards, got {len(cards)}")
    if jackpot in cards:
        raise EngineError("jackpot: the jackpot card belongs to nobody")
    best = solver.solve_trio(list(cards), jackpot, k=1)[0]
    return {row: best[row] for row in ("front", "middle", "back")}
