"""Cards (docs/RULES.md, "Card notation everywhere").

A card is an ``int`` in ``0..51``: ``rank * 4 + suit``.

* rank index ``0..12`` stands for ``2 3 4 5 6 7 8 9 T J Q K A``;
* suit index ``0..3`` stands for ``d c h s`` so that a higher index is the higher suit
  (♠ ``s`` > ♥ ``h`` > ♣ ``c`` > ♦ ``d``).

>>> card_str(parse_card("As")), parse_card("2d"), parse_card("As")
('As', 0, 51)
>>> [card_str(c) for c in parse_cards(["Td", "th"])]
['Td', 'Th']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.engine.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "dchs"
DECK: tuple[int, ...] = tuple(range(52))


def rank_of(card: int) -> int:
    """Rank index 0 (deuce) .. 12 (ace)."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit index 0 (♦) .. 3 (♠)."""
    return card & 3


def make_card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def parse_card(text: object) -> int:
    """Parse ``"As"`` / ``"td"`` into a card int; raises :class:`CardError` with a clear message."""
    if not isinstance(text, str) or len(text) != 2:
        raise CardError(f"bad card {text!r}: expected rank+suit such as 'As' or 'Td'")
    rank = RANKS.find(text[0].upper())
    suit = SUITS.find(text[1].lower())
    if rank < 0 or suit < 0:
        raise CardError(f"bad card {text!r}: rank must be one of {RANKS}, suit one of {SUITS}")
    return make_card(rank, suit)


def parse_cards(texts: object, *, count: int | None = None, field: str = "cards") -> list[int]:
    """Parse a list of card strings, refusing duplicates and (optionally) a wrong count."""
    if not isinstance(texts, list | tuple):
        raise CardError(f"{field}: expected a list of cards such as [\"As\", \"Td\"]")
    cards = [parse_card(t) for t in texts]
    if count is not None and len(cards) != count:
        raise CardError(f"{field}: expected {count} cards, got {len(cards)}")
    check_distinct(cards, field=field)
    return cards


def check_distinct(cards: Iterable[int], *, field: str = "cards") -> None:
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"{field}: duplicate card {card_str(c)}")
        seen.add(c)


#: Every card's text, by card: views write each seat's cards on every frame.
_NAMES: tuple[str, ...] = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in DECK)


def card_str(card: int) -> str:
    return _NAMES[card]


def cards_str(cards: Sequence[int]) -> list[str]:
    names = _NAMES
    return [names[c] for c in cards]
