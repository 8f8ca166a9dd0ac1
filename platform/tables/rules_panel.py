"""The rules panel of a table page: the game's rule sheet (games/engine/sheet.py) for the
table's stake level, its lines translated into the page's language with their values filled
in (coins for amounts in minor units), and the figures the table's scripts read.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.adapters import rule_sheet
from tables.models import StakeLevel
from wallet.money import format_coins


def _coins(amount: int) -> str:
    """Coins as every page shows them (``CT.money`` too): grouped, two decimals."""
    return format_coins(amount, grouping=True)


def _render(item: dict[str, Any]) -> str:
    values = {
        name: _coins(value) if name in item["money"] else f"{value:,}"
        for name, value in item["values"].items()
    }
    return gettext(item["text"]).format(**values)


def rules_panel(level: StakeLevel) -> dict[str, Any]:
    """``lines`` (translated sentences, for the template) and ``figures`` (the sheet's numbers
    without its lines: players, timers, payouts, set size, penalty, and the phase notes
    translated; for the scripts)."""
    sheet = rule_sheet(level)
    figures = {name: value for name, value in sheet.items() if name != "lines"}
    if "phase_notes" in figures:
        figures["phase_notes"] = {phase: _render(item) for phase, item in figures["phase_notes"].items()}
    return {"lines": [_render(item) for item in sheet["lines"]], "figures": figures}
