"""What players call a stake level and a table, in the active language: the game's and the
mode's translated labels and the stake ("三公 · 通比 · 底注 1.00", "Sam Gong (三公) · All compare
(通比) · Base 1.00"), never a mode's code. The ``name`` fields stay for staff (admin); pages,
history and exports show these titles.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine.registry import engine_for
from tables.models import StakeLevel, Table
from wallet.money import format_coins

#: A stake level's unit by the game's ``stake_word``, capitalised as the table page heads it.
STAKE_WORDS = {"unit": gettext_noop("Unit %(coins)s"), "base": gettext_noop("Base %(coins)s")}


def game_label(game: str) -> str:
    return _(engine_for(game).label)


def mode_label(game: str, mode: str) -> str:
    """The mode's translated label ("" for a game without modes; the code for an unknown one)."""
    if not mode:
        return ""
    label = engine_for(game).modes.get(mode)
    return _(label) if label else mode


def stake_title(game: str, mode: str, unit: int) -> str:
    engine = engine_for(game)
    stake = _(STAKE_WORDS[engine.stake_word]) % {"coins": format_coins(unit, grouping=True)}
    parts = [_(engine.label), mode_label(game, mode), stake]
    return " · ".join(part for part in parts if part)


def level_title(level: StakeLevel) -> str:
    return stake_title(level.game, level.mode, level.unit)


def table_number(table_id: int | str) -> str:
    return _("Table %(number)s") % {"number": table_id}


def room_heading(code: str) -> str:
    return _("Room %(code)s") % {"code": code}


def table_heading(table: Table) -> str:
    """What a table's page is headed: a private room by its code, which its players share
    (docs/RULES.md "Private rooms"), any other table by its number."""
    return room_heading(str(table.room_code)) if table.is_room else table_number(table.pk)


def table_title(table: Table) -> str:
    """The level's title and the table's heading, e.g. "三公 · 通比 · 底注 1.00 · 牌桌 3" (a room:
    "… · 房间 K7M2QP")."""
    return f"{level_title(table.stake_level)} · {table_heading(table)}"
