"""The showdown of a hand record as the replay shows it: what was compared, and who won each comparison.

Each game's :func:`showdown` (``games.engine.<game>.showdown``) reads a record — complete or a
player's copy (only cards the copy holds are used) — and returns its comparisons in order: the
rows of 十三张 and the trio one by one, 三公's hands. Names are English message ids
(:func:`games.engine.labels.gettext_noop`, ``{n}``-style arguments in ``args``); the platform
translates them. Plain data, no Django.

>>> from games.engine.cards import parse_cards
>>> straight_flush = parse_cards("2s 3s 4s 5s 6s".split())
>>> row_category(parse_cards(["Ah", "Ad", "Kc"]), suits=True), row_category(straight_flush, suits=False)
('Pair', 'Straight flush')
>>> pair_outcome([0, 1], 1), pair_outcome([0, 1], -2), pair_outcome([0, 1], 0)["winner"] is None
({'seats': [0, 1], 'winner': 0, 'units': 1}, {'seats': [0, 1], 'winner': 1, 'units': 2}, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from games.engine import poker
from games.engine.labels import gettext_noop

ROWS = ("front", "middle", "back")

#: Each row's comparison (message ids), in the order rows are compared.
ROW_TITLES: dict[str, str] = {"front": gettext_noop("Row 1: front"), "middle": gettext_noop("Row 2: middle"),
                              "back": gettext_noop("Row 3: back")}

#: The poker categories (``poker.HIGH_CARD`` .. ``poker.STRAIGHT_FLUSH``), as the table pages name them.
CATEGORY_LABELS: tuple[str, ...] = (
    gettext_noop("High card"),
    gettext_noop("Pair"),
    gettext_noop("Two pair"),
    gettext_noop("Trips"),
    gettext_noop("Straight"),
    gettext_noop("Flush"),
    gettext_noop("Full house"),
    gettext_noop("Quads"),
    gettext_noop("Straight flush"),
)
FOULED = gettext_noop("fouled")


class Shown(TypedDict):
    """One hand in a comparison: a seat's (``seat``) or the table's (``seat`` None, named ``title``)."""

    seat: int | None
    cards: list[str]
    name: str | None  # message id of its category
    args: dict[str, Any]
    title: NotRequired[str]
    note: NotRequired[str]  # message id: "fouled", "declared a natural"...


class Outcome(TypedDict):
    """How a comparison came out between ``seats``: ``winner`` (None: a tie or nobody), the
    ``units`` it was worth where the game counts them, or a message id ``text`` instead."""

    seats: list[int]
    winner: int | None
    units: NotRequired[int]
    text: NotRequired[str]
    args: NotRequired[dict[str, Any]]


class Comparison(TypedDict):
    title: str  # message id: "Front", "Hands"...
    hands: list[Shown]
    outcomes: list[Outcome]


def row_category(cards: Sequence[int], *, suits: bool) -> str:
    """The message id of a row's poker category."""
    return CATEGORY_LABELS[poker.category(poker.rank_row(cards, suits=suits))]


def pair_outcome(seats: Sequence[int], units: int) -> Outcome:
    """``seats[0]`` against ``seats[1]`` by the units the first won (negative: the second won)."""
    winner = seats[0] if units > 0 else seats[1] if units < 0 else None
    return {"seats": list(seats), "winner": winner, "units": abs(units)}


def seat_rows(rec: Mapping[str, Any], seat: int) -> dict[str, list[str]] | None:
    """The seat's three played rows, or None when the record holds none (a declared natural
    sent without rows)."""
    s = rec["seats"][seat]
    if not all(s.get(row) for row in ROWS):
        return None
    return {row: list(s[row]) for row in ROWS}
