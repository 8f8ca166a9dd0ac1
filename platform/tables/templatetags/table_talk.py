"""``{% load table_talk %}{% table_talk %}``: the table page's talk controls, the connection
strength in its lower left, and the data their scripts read (tables/ui_talk.py)."""

from __future__ import annotations

from typing import Any

from django import template

from tables import ui_talk

register = template.Library()


@register.inclusion_tag("tables/_talk.html")
def table_talk() -> dict[str, Any]:
    return {"talk": ui_talk.talk_page_data(), "ping_ms": ui_talk.ping_every_ms()}
