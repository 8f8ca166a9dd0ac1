"""Shared helpers for the thirteen tests: hands written as row strings."""

from __future__ import annotations

from typing import Any

from games.engine.cards import parse_cards
from games.engine.thirteen.scoring import Hand, ordinary_hand


def hand(front: str, middle: str, back: str) -> Hand:
    return ordinary_hand(*(parse_cards(r.split()) for r in (front, middle, back)))


def seat(front: str, middle: str, back: str, *, declare: bool = False) -> dict[str, Any]:
    """A score-request seat whose 13 cards are exactly its three rows."""
    rows = {"front": front.split(), "middle": middle.split(), "back": back.split()}
    return {"cards": rows["front"] + rows["middle"] + rows["back"], **rows, "declare": declare}


def declared(cards: str) -> dict[str, Any]:
    return {"cards": cards.split(), "declare": True}


# The seed's four-player example (A deals; A +3, B -7, C +5, D -1), with real hands.
SEED_ABCD = [
    seat("4s 4d 2h", "Js Jd Ts Td 3h", "5c 6c 7h 8c 9c"),  # A: straight back
    seat("2s 3s 4h", "6d 6s Ac Qc Jc", "8d 8h 9d 9s Kc"),  # B
    seat("As Ad 2c", "Ks Kd Qs Qd 3c", "7s 7d 7c 2d 3d"),  # C
    seat("5s Th Jh", "5d 5h Tc 8s 4c", "Ah Kh Qh 9h 6h"),  # D: flush back
]
