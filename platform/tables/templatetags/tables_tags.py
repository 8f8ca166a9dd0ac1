"""``{% load tables_tags %}``: ``{{ level|level_title }}``, ``{{ table|table_title }}``,
``{{ table|table_heading }}`` and
``{{ stake_level_id|stake_level_title }}`` in the page's language (tables/titles.py), and
``{% game_tiles as tiles %}``, the home page's games."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from games.engine.registry import games
from tables import titles
from tables.models import StakeLevel, Table

register = template.Library()


@register.filter
def level_title(level: StakeLevel) -> str:
    return titles.level_title(level)


@register.filter
def table_title(table: Table) -> str:
    return titles.table_title(table)


@register.filter
def table_heading(table: Table) -> str:
    return titles.table_heading(table)


@register.filter
def stake_level_title(level_id: int | None) -> str:
    """The title of the stake level with this id (a hand record keeps the id); "" if none."""
    level = StakeLevel.objects.filter(pk=level_id).first() if level_id else None
    return "" if level is None else titles.level_title(level)


@register.filter
def table_number(table_id: int | None) -> str:
    return "" if table_id is None else titles.table_number(table_id)


@register.simple_tag
def game_tiles() -> list[dict[str, str]]:
    """The home page's tile of every registered game (games/engine/registry.py): its code, mark,
    name and blurb, in the page's language."""
    return [{"code": engine.name, "glyph": engine.glyph, "label": gettext(engine.label), "blurb": gettext(engine.blurb)}
            for engine in games()]
