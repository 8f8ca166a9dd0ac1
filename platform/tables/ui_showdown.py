"""The strings of the table page's showdown (static/js/ct-showdown.js): the banner of the hand's
special events (``hl_<kind>`` for each kind of ``hand.view.highlights``, docs/PROTOCOL.md) and
the sound switch. Passed to the page with the other table strings (:mod:`tables.ui_strings`)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

SHOWDOWN: dict[str, Promise] = {
    "hl_shoot": _("Scoop"),
    # 十三张's word for winning every row against one hand (its rule text: 大获全胜), which pays the rows only
    "hl_sweep": _("Clean sweep"),
    "hl_home_run": _("Home run"),
    "hl_natural": _("Natural declared"),
    "hl_jackpot": _("Jackpot"),
    "hl_sangong": _("Three faces"),
    "hl_collects": _("{name} collects {x}"),
    "hl_collects_from": _("{name} collects {x} from {from}"),
    "hl_doubled": _("Doubled"),
    "sound_mute": _("Mute sounds"),
    "sound_on": _("Sounds on"),
    "sound_off": _("Sounds off"),
    "squeeze_help": _("Drag the card aside to peek at it"),
    "squeeze_label": _("Your last card, face down: drag it aside or tap to turn it over"),
    "bet_won": _("won"),
    "bet_lost": _("lost"),
    "bet_push": _("pushed"),
}
