"""What every open socket of a player hears when the player may no longer play: banned, logged
out (from any session), self-excluded or cooling off (docs/RESPONSIBLE_PLAY.md "Stopping play").

Each signed-in socket, the table's and the lobby's, joins its user's channel-layer group on
connect; a stop is one message to that group, so it reaches every socket of the player on every
server (Redis) or in the one embedded server (in memory). The socket answers with an ``error``
frame carrying the reason's code and message in its own language, refuses every request but
leaving from then on, and after a log-out closes (:data:`CLOSE_LOGGED_OUT`).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

#: The channel-layer message type of a stop (handled by a consumer's ``account_stop``).
STOP_EVENT = "account.stop"
#: The close code of a socket whose player logged out (docs/PROTOCOL.md "Close codes").
CLOSE_LOGGED_OUT = 4401

#: Each reason play stops for, and what the player is told.
STOP_MESSAGES: dict[str, str] = {
    "banned": gettext_noop("This account is banned."),
    "logged_out": gettext_noop("You logged out: log in again to play."),
    "self_excluded": gettext_noop(
        "You have excluded yourself from play: your seats are left, and your table money goes back to your wallet."
    ),
    "cooling_off": gettext_noop(
        "You are taking a break from play: your seats are left, and your table money goes back to your wallet."
    ),
}


def user_group(user_id: int) -> str:
    """The channel-layer group every signed-in socket of the user listens on."""
    return f"user.{user_id}"


def stop_event(reason: str) -> dict[str, Any]:
    """The channel-layer message that tells a player's sockets play stopped, and why."""
    if reason not in STOP_MESSAGES:
        raise ValueError(f"unknown stop reason {reason!r}")
    return {"type": STOP_EVENT, "reason": reason}


def stop_frame(reason: str) -> dict[str, Any]:
    """The ``error`` frame a socket sends its player on a stop, in the active language."""
    return {"type": "error", "id": None, "code": reason, "message": gettext(STOP_MESSAGES[reason])}
