"""``{% load history_tags %}``: ``{{ cards|cardfaces }}`` shows ``["Ah", "Td"]`` as A♥ 10♦;
``{% hand_link hand_id %}`` is a link to a hand's replay named by its public hand id ("Hand 9");
``{% local_time iso %}`` a time the page shows in the viewer's time zone."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django import template
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

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


@register.simple_tag
def hand_link(hand_id: int) -> SafeString:
    """``<a href="/history/hands/9/">Hand 9</a>``: every page names a hand by its hand id."""
    return format_html('<a href="{}" data-hand-id="{}">{}</a>', reverse("history-hand", args=[hand_id]), hand_id,
                       _("Hand %(id)s") % {"id": hand_id})


@register.simple_tag
def local_time(iso: str | None) -> SafeString:
    """``<time datetime="…">2026-12-03 07:50:52 UTC</time>``: the page script shows it in the
    viewer's own time zone and language; without the script it reads in UTC."""
    if not iso:
        return mark_safe("")  # noqa: S308 - an empty string
    moment = parse_datetime(iso)
    shown = moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC") if moment else iso
    return format_html('<time datetime="{}" data-local-time>{}</time>', iso, shown)
