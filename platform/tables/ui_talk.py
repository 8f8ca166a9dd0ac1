"""What the table page's talk and connection-strength scripts show (static/js/ct-talk.js,
static/js/ct-link.js), in the page's language: the talk catalogue of games.services.talk (each
reader sees a phrase in their own language; the socket carries only its id) and the labels.
``{name}`` marks a value the script fills in."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.services.talk import EMOTES, PHRASES

TALK: dict[str, Promise] = {
    "talk": _("Table talk"),
    "talk_phrases": _("Quick phrases"),
    "talk_emotes": _("Emotes"),
    "talk_mute": _("Mute table talk"),
    "talk_muted": _("Table talk is muted"),
    "talk_sit_to_talk": _("Sit down to talk."),
    # the connection's strength, lower left of the table page (docs/PROTOCOL.md "Connection strength")
    "link": _("Connection"),
    "link_good": _("Good"),
    "link_fair": _("Fair"),
    "link_poor": _("Poor"),
    "link_none": _("No connection"),
    "link_figures": _("Last round trip {last} ms · average {avg} ms · frames missed {missed}"),
    "link_no_figures": _("No round trip measured yet"),
}


def talk_page_data() -> dict[str, Any]:
    """The page's talk catalogue and labels, rendered in the active language."""
    return {
        "phrases": [[key, str(text)] for key, text in PHRASES.items()],
        "emotes": [[key, glyph, str(label)] for key, (glyph, label) in EMOTES.items()],
        "strings": {key: str(text) for key, text in TALK.items()},
    }


def ping_every_ms() -> int:
    """How often the table page pings, in milliseconds (``GAMES_PING_EVERY``)."""
    return max(100, round(settings.GAMES_PING_EVERY * 1000))
