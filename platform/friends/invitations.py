"""How an invitation to a table reaches a friend: the one function the friends list's "Invite"
calls (:func:`invite_send`), so another way to invite (a room's invitation) replaces only it.

It sends the friend a lobby notice over their sockets' group (``accounts.sockets.user_group``)
once the caller's transaction commits; a lost notice is logged, never an error for the sender."""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse

from accounts.models import User
from accounts.sockets import user_group
from friends.notices import invite_event
from games.groups import group_send
from tables.models import Table
from tables.rooms import room_invite


def invite_send(*, sender: User, recipient_id: int, table: Table) -> None:
    """Invite the friend to the sender's table: to a private room by the room's own invitation,
    which gives them a pass to it (``tables.rooms.room_invite``); to a public table by a notice
    with its link."""
    if table.room_code:
        room_invite(room_id=table.pk, inviter=sender, invitee=User.objects.get(pk=recipient_id))
        return
    event = invite_event(sender_name=sender.shown_name, table_id=table.pk, table_name=table.name,
                         url=reverse("table", args=[table.pk]))
    transaction.on_commit(lambda: group_send((user_group(recipient_id), event)), robust=True)
