"""Writes of friends (docs/FRIENDS.md): requests, accepting, removing, blocking, inviting.

Every refusal is a :class:`FriendRefused` with a code and a message in the player's language,
and changes nothing. Requests and invitations are rate-limited per player
(``games.services.limits.request_allowance``, shared by every server process)."""

from __future__ import annotations

import math

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from friends import invitations
from friends.errors import FriendRefused
from friends.models import Block, Friendship
from friends.selectors import are_friends, is_blocked, player_by_name, viewer_table
from games.services.limits import request_allowance

#: Friend requests a player may send an hour (refused ones count: names are not to be probed).
REQUESTS_PER_HOUR = 20
#: Invitations a player may send a minute.
INVITES_PER_MINUTE = 10


def _allow(user: User, name: str, limit: int, window: int) -> None:
    wait = request_allowance(user_id=user.pk, name=name, limit=limit, window=window)
    if wait is not None:
        raise FriendRefused(_("Too many at once: try again in %(n)d minutes.") % {"n": max(1, math.ceil(wait / 60))},
                            code="rate_limited")


def _pair(a: int, b: int) -> Q:
    return Q(from_user_id=a, to_user_id=b) | Q(from_user_id=b, to_user_id=a)


def friend_request_send(*, user: User, name: str) -> Friendship:
    """Ask the player called ``name`` to be friends; a request they sent ``user`` already is
    accepted instead. A player who blocked ``user`` reads as no such player."""
    _allow(user, "friend_request", REQUESTS_PER_HOUR, 3600)
    other = player_by_name(name=name)
    if other is None or is_blocked(by=other, user=user):
        raise FriendRefused(_("No player is called %(name)s.") % {"name": name.strip()[:40]}, code="not_found")
    if other.pk == user.pk:
        raise FriendRefused(_("That is you."), code="self")
    if is_blocked(by=user, user=other):
        raise FriendRefused(_("You blocked this player: unblock them first."), code="blocked")
    with transaction.atomic():
        row = Friendship.objects.select_for_update().filter(_pair(user.pk, other.pk)).first()
        if row is not None and row.status == Friendship.Status.ACCEPTED:
            raise FriendRefused(_("You are friends already."), code="already_friends")
        if row is not None and row.from_user_id == user.pk:
            raise FriendRefused(_("You have asked already: they have not answered yet."), code="already_sent")
        if row is not None:
            return _accept(row)
        try:
            with transaction.atomic():
                return Friendship.objects.create(from_user=user, to_user=other)
        except IntegrityError:  # the other sent theirs at the same moment: one row per pair
            raise FriendRefused(_("You have asked already: they have not answered yet."), code="already_sent") from None


def _accept(row: Friendship) -> Friendship:
    row.status, row.accepted_at = Friendship.Status.ACCEPTED, timezone.now()
    row.save(update_fields=["status", "accepted_at"])
    return row


def friend_request_accept(*, user: User, request_id: int) -> Friendship:
    with transaction.atomic():
        row = Friendship.objects.select_for_update().filter(
            pk=request_id, to_user=user, status=Friendship.Status.PENDING).first()
        if row is None:
            raise FriendRefused(_("That request is no longer there."), code="no_request")
        return _accept(row)


def friend_request_decline(*, user: User, request_id: int) -> None:
    """Decline a request sent to ``user``, or withdraw one ``user`` sent."""
    Friendship.objects.filter(Q(to_user=user) | Q(from_user=user), pk=request_id,
                              status=Friendship.Status.PENDING).delete()


def friend_remove(*, user: User, friend_id: int) -> None:
    Friendship.objects.filter(_pair(user.pk, friend_id)).delete()


def friend_block(*, user: User, other_id: int) -> Block:
    """Block a player: any friendship or request between the two ends, ``user`` leaves their
    friends list, and they can send ``user`` no request or invitation."""
    if other_id == user.pk:
        raise FriendRefused(_("That is you."), code="self")
    if not User.objects.filter(pk=other_id).exists():
        raise FriendRefused(_("There is no such player."), code="not_found")
    with transaction.atomic():
        Friendship.objects.filter(_pair(user.pk, other_id)).delete()
        block, _created = Block.objects.get_or_create(blocker=user, blocked_id=other_id)
    return block


def friend_block_by_name(*, user: User, name: str) -> Block:
    other = player_by_name(name=name)
    if other is None:
        raise FriendRefused(_("No player is called %(name)s.") % {"name": name.strip()[:40]}, code="not_found")
    return friend_block(user=user, other_id=other.pk)


def friend_unblock(*, user: User, other_id: int) -> None:
    Block.objects.filter(blocker=user, blocked_id=other_id).delete()


def friend_invite(*, user: User, friend_id: int) -> None:
    """Invite a friend to the open table ``user`` sits at (:func:`friends.invitations.invite_send`)."""
    _allow(user, "friend_invite", INVITES_PER_MINUTE, 60)
    table = viewer_table(user=user)
    if table is None:
        raise FriendRefused(_("Sit down at a table first: then you can invite friends to it."), code="not_seated")
    friend = User.objects.filter(pk=friend_id, is_active=True).first()
    if friend is None or not are_friends(user=user, other_id=friend_id) or is_blocked(by=friend, user=user):
        raise FriendRefused(_("You can invite only your friends."), code="not_friend")
    invitations.invite_send(sender=user, recipient_id=friend_id, table=table)
