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


def invite_send(*, sender: User, recipient_id: int, table: Table) -> None:
    event = invite_event(sender_name=sender.shown_name, table_id=table.pk, table_name=table.name,
                         url=reverse("table", args=[table.pk]))
    transaction.on_commit(lambda: group_send((user_group(recipient_id), event)), robust=True)
