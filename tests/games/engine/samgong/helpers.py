"""Shared helpers for the 三公 engine tests."""

from __future__ import annotations

from typing import Any

from games.engine.cards import parse_cards
from games.engine.samgong.hands import evaluate

SEED = "5a" * 32


def ev(text: str, ranking: str = "classic") -> tuple[int, ...]:
    """Evaluate a hand written as "Ks Qd 9c"."""
    return evaluate(parse_cards(text.split()), ranking)


def hand(text: str) -> list[int]:
    return parse_cards(text.split())


def seats(*stacks: int) -> list[dict[str, Any]]:
    return [{"player": f"p{i}", "stack": s} for i, s in enumerate(stacks)]


def stacked_deck(top: str) -> list[int]:
    """A deck whose first cards are ``top`` (in order), the rest in canonical order."""
    first = hand(top)
    return first + [c for c in range(52) if c not in first]
