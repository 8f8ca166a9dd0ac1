"""The lobby notice of an invitation from a friend (docs/PROTOCOL.md "Lobby"): the message sent
to the friend's sockets' group, and the frame their lobby socket sends them, in its language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

#: The channel-layer message type (handled by a consumer's ``friend_invite``).
INVITE_EVENT = "friend.invite"


def invite_event(*, sender_name: str, table_id: int, table_name: str, url: str) -> dict[str, Any]:
    return {"type": INVITE_EVENT, "sender": sender_name, "table": table_id, "table_name": table_name, "url": url}


def invite_frame(event: dict[str, Any]) -> dict[str, Any]:
    """The ``friend_invite`` frame: who invites, to which table (id, name, link), and the line to
    show, which names the table by its number as the lobby does."""
    message = gettext("%(name)s invites you to their table %(table)s.") % {
        "name": event["sender"], "table": event["table"]}
    return {"type": "friend_invite", "sender": event["sender"], "table": event["table"],
            "table_name": event["table_name"], "url": event["url"], "message": message,
            "join": gettext("Join the table")}
