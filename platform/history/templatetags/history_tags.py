"""``{% load history_tags %}``: ``{{ cards|cardfaces }}`` shows ``["Ah", "Td"]`` as A♥ 10♦."""

from __future__ import annotations

from collections.abc import Sequence

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

SUITS = {"s": ("♠", "black"), "h": ("♥", "red"), "c": ("♣", "black"), "d": ("♦", "red")}


@register.filter
def cardfaces(cards: Sequence[str] | None) -> SafeString:
    if not cards:
        return mark_safe("")  # noqa: S308 - an empty string
    faces = []
    for card in cards:
        rank, suit = (card[:-1], card[-1]) if len(card) == 2 else ("?", "")
        symbol, colour = SUITS.get(suit, ("?", "hidden"))
        faces.append((colour, card, "10" if rank == "T" else rank, symbol))
    return format_html_join(" ", '<span class="pc {}" title="{}">{}{}</span>', faces)


@register.filter
def hidden_cards(count: int) -> SafeString:
    return format_html_join(" ", '<span class="pc hidden">{}</span>', (("🂠",) for _ in range(int(count))))
