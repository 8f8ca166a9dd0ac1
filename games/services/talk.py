"""Table talk (docs/PROTOCOL.md "Table talk"): a seated player's quick phrase or emote, shown to
everyone at the table (seated players and spectators) as a bubble by the seat.

There is no free text, so nothing to moderate: a request names one entry of a fixed catalogue,
which each page shows in its own reader's language. Nothing here touches the database: the
consumer knows the player's seat from the last state frame it sent, the per-player limit is one
Redis round trip from the event loop (in the process when embedded), and the bubble goes to the
table's channel-layer group, encoded once.

1. The player must be seated: ``seat`` is the table seat the connection's last frame showed.
2. The id must be in :data:`PHRASES` or :data:`EMOTES`.
3. The player spends one of GAMES_TALK_LIMIT sayings per GAMES_TALK_WINDOW seconds, over all
   their connections, tables and servers; a refusal is ``rate_limited`` with the seconds to
   wait, and sends nothing.
4. ``{"type": "talk", "seat", "user", "say"}`` goes to the table's group; every connection at
   the table sends it on as it came.
"""

from __future__ import annotations

from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.broadcast import table_group
from games.services import limits
from games.services.errors import NotSeated, PlayError
from kernel.rows import json_text

#: The quick phrases, by id, in the order the talk menu lists them.
PHRASES: dict[str, Promise] = {
    "hello": gettext_lazy("Hello, everyone!"),
    "hurry": gettext_lazy("Hurry up, please!"),
    "nice_hand": gettext_lazy("Nice hand!"),
    "lucky": gettext_lazy("What luck!"),
    "thinking": gettext_lazy("Let me think…"),
    "sorry_dropped": gettext_lazy("Sorry, I dropped out just now."),
    "well_played": gettext_lazy("Well played!"),
    "one_more": gettext_lazy("One more hand!"),
    "thanks": gettext_lazy("Thank you!"),
    "bye": gettext_lazy("I have to go. Bye!"),
}

#: The emotes, by id: the picture shown (an emoji) and what it says to a screen reader.
EMOTES: dict[str, tuple[str, Promise]] = {
    "smile": ("😊", gettext_lazy("Smile")),
    "laugh": ("😂", gettext_lazy("Laugh")),
    "cry": ("😭", gettext_lazy("Cry")),
    "angry": ("😠", gettext_lazy("Angry")),
    "thumbs_up": ("👍", gettext_lazy("Thumbs up")),
    "rose": ("🌹", gettext_lazy("Rose")),
}


class TalkRefused(PlayError):
    """A saying that is not in the catalogue."""

    code = "bad_message"


class TalkTooFast(PlayError):
    """Past the per-player talk limit: ``retry_after`` says in how many seconds to try again."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = round(retry_after, 1)


def talk_known(say: str) -> bool:
    """Whether ``say`` names a phrase or an emote."""
    return say in PHRASES or say in EMOTES


def talk_event(*, table_id: int, seat: int, user_id: int, say: str) -> dict[str, Any]:
    """The channel-layer event of one saying: its frame's text, encoded once for every connection."""
    frame = {"type": "talk", "seat": seat, "user": user_id, "say": say}
    return {"type": "table.talk", "table": table_id, "text": json_text(frame)}


async def talk_say(*, table_id: int, user_id: int, seat: int | None, say: str) -> dict[str, Any]:
    """Steps 1-4 above; the ``ack``'s fields."""
    if seat is None:
        raise NotSeated(_("Only players seated at this table may talk."))
    if not talk_known(say):
        raise TalkRefused(_("There is no phrase or emote called %(say)s.") % {"say": repr(say)[:40]})
    wait = await limits.request_allowance_async(
        user_id=user_id, name="talk", limit=settings.GAMES_TALK_LIMIT, window=settings.GAMES_TALK_WINDOW
    )
    if wait is not None:
        raise TalkTooFast(
            _("You are talking too fast: %(n)d phrases or emotes every %(s)d seconds. Try again in %(wait).1f s.")
            % {"n": settings.GAMES_TALK_LIMIT, "s": settings.GAMES_TALK_WINDOW, "wait": wait},
            retry_after=wait,
        )
    layer = get_channel_layer()
    if layer is not None:
        event = talk_event(table_id=table_id, seat=seat, user_id=user_id, say=say)
        await layer.group_send(table_group(table_id), event)
    return {"say": say}
