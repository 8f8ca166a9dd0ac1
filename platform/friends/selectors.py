"""Reads of friends (docs/FRIENDS.md): a player's friends with where they are, the requests
either way, the players they blocked, and :func:`is_blocked` for invitations.

What a friend shows is public already: their name, whether a socket of theirs is open, and the
open table they sit at (its id, name and game). Never a card, a stack or a hand."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.urls import reverse

from accounts.models import User
from accounts.names import name_key
from friends.models import Block, Friendship
from friends.online import online_among
from games.engine.registry import engine_for
from tables.models import Seat, Table


@dataclass(frozen=True)
class FriendRow:
    user_id: int
    name: str
    online: bool
    table_id: int | None  # the open table the friend sits at, shown while they are online
    table_name: str
    game: str  # the table's game, as players read it
    table_url: str


def is_blocked(*, by: User, user: User) -> bool:
    """Whether ``by`` blocked ``user``: then ``user`` may send ``by`` no request or invitation."""
    return Block.objects.filter(blocker=by, blocked=user).exists()


def player_by_name(*, name: str) -> User | None:
    """The active player known by ``name`` at the tables: their display name (compared as the
    platform compares names, ``accounts.names.name_key``), or the username of a player without one."""
    name = name.strip()
    if not name or len(name) > 150:
        return None
    found = User.objects.filter(name_key=name_key(name), is_active=True).first()
    return found or User.objects.filter(username=name, display_name="", is_active=True).first()


def _friend_ids(user: User) -> list[int]:
    rows = Friendship.objects.filter(Q(from_user=user) | Q(to_user=user), status=Friendship.Status.ACCEPTED)
    return [b if a == user.pk else a for a, b in rows.values_list("from_user_id", "to_user_id")]


def friend_ids(*, user: User) -> list[int]:
    """The ids of ``user``'s friends."""
    return _friend_ids(user)


def are_friends(*, user: User, other_id: int) -> bool:
    return Friendship.objects.filter(
        Q(from_user=user, to_user_id=other_id) | Q(from_user_id=other_id, to_user=user),
        status=Friendship.Status.ACCEPTED,
    ).exists()


def friend_list(*, user: User) -> list[FriendRow]:
    """``user``'s friends, online first, then by name: three queries and one presence read."""
    ids = _friend_ids(user)
    if not ids:
        return []
    online = online_among(user_ids=ids)
    names = {pk: shown or username for pk, shown, username in
             User.objects.filter(pk__in=ids).values_list("pk", "display_name", "username")}
    seats = {
        seat.user_id: seat.table for seat in
        Seat.objects.filter(user_id__in=online, table__status=Table.Status.OPEN).select_related("table__stake_level")
    }
    rows = []
    for pk in ids:
        table = seats.get(pk)
        rows.append(FriendRow(
            user_id=pk, name=names.get(pk, ""), online=pk in online,
            table_id=table.pk if table else None, table_name=table.name if table else "",
            game=str(engine_for(table.stake_level.game).label) if table else "",
            table_url=reverse("table", args=[table.pk]) if table else "",
        ))
    return sorted(rows, key=lambda row: (not row.online, row.name.casefold()))


def friend_requests_incoming(*, user: User) -> list[Friendship]:
    return list(Friendship.objects.filter(to_user=user, status=Friendship.Status.PENDING)
                .select_related("from_user").order_by("-created_at"))


def friend_requests_outgoing(*, user: User) -> list[Friendship]:
    return list(Friendship.objects.filter(from_user=user, status=Friendship.Status.PENDING)
                .select_related("to_user").order_by("-created_at"))


def block_list(*, user: User) -> list[Block]:
    return list(Block.objects.filter(blocker=user).select_related("blocked").order_by("-created_at"))


def viewer_table(*, user: User) -> Table | None:
    """The open table ``user`` sits at (the one they joined last), which they may invite friends to."""
    seat = (Seat.objects.filter(user=user, table__status=Table.Status.OPEN).select_related("table")
            .order_by("-joined_at").first())
    return seat.table if seat else None
