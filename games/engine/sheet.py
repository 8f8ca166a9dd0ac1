"""Rule sheets: what a table's rules panel says, as data (docs/RULES.md, each game's section).

A game's ``rule_sheet(rules, seats)`` returns the numbers of its rule set — how many players a
hand needs, the timers, the payouts, the set and its leaver penalty — and the lines the panel
shows. A line is an English message id with ``{name}`` fields and their values; the values
named in ``money`` are minor units, which the platform shows as coins. The platform translates
the message id (it is marked with :func:`games.engine.labels.gettext_noop`) and fills it in,
so the panel always says what the engine plays.

>>> line("{n} players", n=3)
{'text': '{n} players', 'values': {'n': 3}, 'money': []}
>>> line("Stake {x}", money=("x",), x=100)["money"]
['x']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict


class SheetLine(TypedDict):
    """One line of a rules panel: a message id, its values, and which of them are coins."""

    text: str
    values: dict[str, int]
    money: list[str]


def line(text: str, *, money: Sequence[str] = (), **values: int) -> SheetLine:
    """A rules-panel line: ``text`` (a message id) with integer ``values``; ``money`` names the
    values in minor units."""
    return {"text": text, "values": dict(values), "money": list(money)}


def sheet(*, players: tuple[int, int], lines: list[SheetLine], **extra: Any) -> dict[str, Any]:
    """A rule sheet: ``players`` (at least, at most), the panel's ``lines`` and any game data
    the table page reads (``payouts``, ``phase_notes``: a line per phase shown while it runs...)."""
    return {"players": list(players), "lines": lines, **extra}
