"""The lobby's and table page's strings about rules, waiting, sets and leaving (translated for
the page's language; ``{name}`` marks a value the script fills in)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

LOBBY_PLAYERS: dict[str, Promise] = {
    "players_exactly": _("Needs {n} players"),
    "players_range": _("{lo}–{hi} players"),
}

RULES: dict[str, Promise] = {
    **LOBBY_PLAYERS,
    "rules": _("Rules"),
    "set_game": _("Set: game {n} of {m}"),
    "set_next": _("Set: next game {n} of {m}"),
    "waiting_need": _("Waiting for {k} more player(s): {n} needed to deal."),
    "waiting_sitting_out": _("{s} sitting out"),
    "waiting_connected": _("Waiting for players to come back: two connected players are needed to deal."),
    "waiting_closed": _("This table is closed."),
    "leave_title": _("Leave in the middle of a set?"),
    "leave_set_penalty": _("{n} of the set's {m} games are left (this one included). If you leave, your seat is "
                           "played automatically to the end of the set and you pay a penalty of {x}. Your table "
                           "money comes back to your wallet when the set ends."),
    "leave_set": _("{n} of the set's {m} games are left (this one included). If you leave, your seat is played "
                   "automatically to the end of the set. Your table money comes back to your wallet when the "
                   "set ends."),
    "leave_anyway": _("Leave anyway"),
    "stay": _("Stay"),
    "leave_after_set": _("You leave when the set ends: {n} game(s) left, played automatically."),
    "pays": _("pays {p}:1"),
    "pays_half": _("pays {p}:1 (½ with {n} points)"),
}
