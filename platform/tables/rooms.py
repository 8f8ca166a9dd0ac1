"""Private rooms (开房, docs/RULES.md "Private rooms"): a room is a table (``tables.Table``) with a
code and an owner, so seating, settlement, the ledger and the history run at it unchanged.

Who may watch and sit: the owner, and whoever holds a pass (``RoomPass``) — got by entering the
room's code (its link carries it) or by an invitation by name from the owner or a player seated
in the room. A player the owner removed no longer gets in by the code; an invitation lets them in
again. Rooms never appear in the public lobby, nor does "Play" seat anyone at one.

The writes here need no live play; starting, removing a player and closing are changes at a
table under its lock (``games.services.rooms``).
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.names import name_key
from accounts.selectors import STANDING_OK, AlsoAsked, account_standing
from accounts.sockets import user_group
from friends.selectors import is_blocked
from games.groups import group_send
from kernel.errors import HTTP_FORBIDDEN, AppError
from tables.models import RoomPass, Seat, StakeLevel, Table

#: The letters of a room code: no 0/O, 1/I/L, so a code read aloud or off a screen is not
#: mistaken. Six of them: 32^6, about 10^9 codes.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
_NOT_CODE = re.compile(r"[\s\-_.·]+")
#: The channel-layer message type of an invitation (a lobby socket's ``room_invite``).
INVITE_EVENT = "room.invite"

Access = Literal["missing", "public", "allowed", "private"]


class RoomError(AppError):
    """A refused room request, its message in the player's language."""

    code = "room_refused"
    status_code = HTTP_FORBIDDEN


# --- codes -----------------------------------------------------------------------------------

def room_code_new() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def room_code_clean(text: str) -> str | None:
    """A code as a player typed it (any case, spaces or dashes between its letters) in its
    stored form, or None when it cannot be a room code."""
    code = _NOT_CODE.sub("", text or "").upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


# --- reads -----------------------------------------------------------------------------------

def room_by_code(*, code: str) -> Table | None:
    """The open room with this code (as typed), or None."""
    clean = room_code_clean(code)
    if clean is None:
        return None
    return Table.objects.select_related("stake_level").filter(room_code=clean, status=Table.Status.OPEN).first()


def room_allowed(*, table: Table, user_id: int | None) -> bool:
    """Whether this player may watch and sit at the table: any table that is no room; a room's
    owner, and a holder of a pass the owner has not taken away."""
    if not table.is_room:
        return True
    if user_id is None:
        return False
    if user_id == table.room_owner_id:
        return True
    return RoomPass.objects.filter(table_id=table.pk, user_id=user_id, removed_at__isnull=True).exists()


def room_pass_held(*, table: Table, user_id: int) -> AlsoAsked | None:
    """Whether the player (``u.id`` of the statement that reads the account's standing) may sit
    at the table: :func:`room_allowed`, asked inside that statement
    (``accounts.selectors.account_standing_and``), so a join at a room runs no statement more
    than at a public table. None: nothing to ask (a public table, or the room's owner)."""
    if not table.is_room or user_id == table.room_owner_id:
        return None
    return (f"EXISTS (SELECT 1 FROM {RoomPass._meta.db_table} p WHERE p.table_id = %s "  # noqa: S608
            "AND p.user_id = u.id AND p.removed_at IS NULL)", [table.pk])


def room_access(*, table_id: int, user_id: int | None) -> Access:
    """A table socket's question before it accepts: no such table, a public one, a room this
    player may watch, or a room they may not; one statement, as SQL (every socket asks it as it
    opens)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.room_code, t.room_owner_id, EXISTS (SELECT 1 FROM {RoomPass._meta.db_table} p "  # noqa: S608
            f"WHERE p.table_id = t.id AND p.user_id = %s AND p.removed_at IS NULL) "
            f"FROM {Table._meta.db_table} t WHERE t.id = %s",
            [user_id, table_id],
        )
        row = cursor.fetchone()
    if row is None:
        return "missing"
    code, owner_id, passed = row
    if code is None:
        return "public"
    if user_id is not None and (user_id == owner_id or passed):
        return "allowed"
    return "private"


def rooms_open_count() -> int:
    """Open private rooms (the operations dashboard's figure)."""
    return Table.objects.filter(status=Table.Status.OPEN, room_code__isnull=False).count()


@dataclass(frozen=True)
class Invitation:
    table_id: int
    code: str
    game: str
    mode: str
    stake_name: str
    inviter: str

    def as_dict(self) -> dict[str, Any]:
        return {"table": self.table_id, "code": self.code, "game": self.game, "mode": self.mode,
                "stake_name": self.stake_name, "inviter": self.inviter}


def room_invitations(*, user: User) -> list[Invitation]:
    """The player's invitations to open rooms not yet opened, newest first (the lobby shows them)."""
    passes = (
        RoomPass.objects.filter(user=user, via=RoomPass.Via.INVITE, seen_at__isnull=True, removed_at__isnull=True,
                                table__status=Table.Status.OPEN)
        .select_related("table__stake_level", "invited_by").order_by("-created_at")[:20]
    )
    return [_invitation(p.table, p.invited_by) for p in passes]


def _invitation(table: Table, inviter: User | None) -> Invitation:
    level = table.stake_level
    return Invitation(table_id=table.pk, code=str(table.room_code), game=level.game, mode=level.mode,
                      stake_name=level.name, inviter=inviter.shown_name if inviter is not None else "")


def user_by_shown_name(*, name: str) -> User | None:
    """The player a name designates: their display name, compared as names are (case, width and
    look-alike letters aside), or the user name of a player without a display name."""
    key = name_key(name)
    if not key:
        return None
    found = User.objects.filter(name_key=key, is_active=True).first()
    if found is None:
        found = User.objects.filter(username=name.strip(), display_name="", is_active=True).first()
    return found


# --- writes ----------------------------------------------------------------------------------

def invite_blocked(*, inviter: User, invitee: User) -> bool:
    """Whether the invitee has blocked the inviter (docs/FRIENDS.md "Blocking"), so the
    invitation is refused."""
    return is_blocked(by=invitee, user=inviter)


@transaction.atomic
def room_open(*, owner: User, level_id: int) -> Table:
    """Open a room at a stake level: a table with a fresh code, owned by ``owner``, not started.

    A code is drawn until it is free among open rooms (the database's unique constraint decides,
    each try in a savepoint). A player owns at most ROOMS_PER_OWNER open rooms."""
    level = StakeLevel.objects.filter(pk=level_id, active=True).first()
    if level is None:
        raise RoomError(_("There is no such stake level."), code="no_level")
    if account_standing(user_id=owner.pk) != STANDING_OK:
        raise RoomError(_("This account is banned."), code="banned")
    owned = Table.objects.filter(room_owner=owner, status=Table.Status.OPEN).count()
    if owned >= settings.ROOMS_PER_OWNER:
        raise RoomError(
            _("You have %(n)d rooms open already: close one first.") % {"n": settings.ROOMS_PER_OWNER},
            code="too_many_rooms",
        )
    now = timezone.now()
    for _attempt in range(8):
        code = room_code_new()
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    stake_level=level, name=f"{level.name} · {code}", room_code=code, room_owner=owner,
                    room_empty_since=now,
                )
        except IntegrityError:
            continue
        RoomPass.objects.create(table=table, user=owner, via=RoomPass.Via.OWNER)
        return table
    raise RoomError(_("Something went wrong on our side; nothing was changed."), code="server_error")


@transaction.atomic
def room_enter(*, code: str, user: User) -> Table:
    """Enter a room by its code (typed, or in its link): the player gets a pass and may watch
    and sit. A player the owner removed is refused; the owner's invitation lets them in again."""
    table = room_by_code(code=code)
    if table is None:
        raise RoomError(_("No open room has this code."), code="no_room")
    held = RoomPass.objects.filter(table=table, user=user).first()
    if held is None:
        if user.pk != table.room_owner_id:
            RoomPass.objects.create(table=table, user=user, via=RoomPass.Via.CODE)
        return table
    if held.removed_at is not None:
        raise RoomError(_("The owner removed you from this room."), code="room_removed")
    if held.seen_at is None:
        held.seen_at = timezone.now()
        held.save(update_fields=["seen_at"])
    return table


def room_seen(*, table: Table, user: User) -> None:
    """The player opened the room's page: their invitation's notice has done its work."""
    RoomPass.objects.filter(table=table, user=user, seen_at__isnull=True).update(seen_at=timezone.now())


@transaction.atomic
def room_invite(*, room_id: int, inviter: User, invitee: User) -> RoomPass:
    """Invite a player by name: the owner, or a player seated in the room, may; the invitee gets a
    pass (again, if the owner had removed them) and a notice on their lobby page, live and on
    its next load, with a link that lets them in.

    Refused: no such open room, an inviter who is neither the owner nor seated there, inviting
    oneself, a banned invitee, and an invitee who blocked the inviter (:func:`invite_blocked`)."""
    table = Table.objects.select_related("stake_level").filter(pk=room_id, room_code__isnull=False).first()
    if table is None or table.status != Table.Status.OPEN:
        raise RoomError(_("No open room has this code."), code="no_room")
    is_owner = inviter.pk == table.room_owner_id
    if not is_owner and not Seat.objects.filter(table=table, user=inviter).exists():
        raise RoomError(_("Only the room's owner and its seated players may invite."), code="not_allowed")
    if invitee.pk == inviter.pk or invitee.pk == table.room_owner_id:
        raise RoomError(_("That player is in this room already."), code="invite_refused")
    if not invitee.is_active or account_standing(user_id=invitee.pk) != STANDING_OK or invite_blocked(
        inviter=inviter, invitee=invitee
    ):
        raise RoomError(_("That player cannot be invited."), code="invite_refused")
    if RoomPass.objects.filter(table=table, user=invitee, removed_at__isnull=False).exists() and not is_owner:
        raise RoomError(_("Only the owner may invite back a player they removed."), code="not_allowed")
    _invite_rate_check(inviter)
    held, _created = RoomPass.objects.update_or_create(
        table=table, user=invitee,
        defaults={"via": RoomPass.Via.INVITE, "invited_by": inviter, "removed_at": None, "seen_at": None},
    )
    invitation = _invitation(table, inviter).as_dict()
    transaction.on_commit(
        lambda: group_send((user_group(invitee.pk), {"type": INVITE_EVENT, "invite": invitation})), robust=True
    )
    return held


def _invite_rate_check(inviter: User) -> None:
    """At most ROOMS_INVITES_PER_MINUTE invitations a player sends a minute, over every room and
    server (the cache: Redis when distributed)."""
    limit = settings.ROOMS_INVITES_PER_MINUTE
    key = f"{settings.GAMES_LIMITS_PREFIX}:invites:{inviter.pk}:{int(time.time() // 60)}"
    cache.add(key, 0, timeout=120)
    try:
        sent = cache.incr(key)
    except ValueError:  # the key expired between add and incr
        sent = 1
    if sent > limit:
        raise RoomError(
            _("Too many invitations: you may send %(n)d a minute.") % {"n": limit}, code="rate_limited",
        )


def room_pass_remove(*, table_id: int, user_id: int) -> None:
    """The owner removed the player: the code no longer lets them in (run under the table's lock
    by ``games.services.rooms.room_remove``)."""
    now = timezone.now()
    updated = RoomPass.objects.filter(table_id=table_id, user_id=user_id).update(removed_at=now, seen_at=now)
    if not updated:
        RoomPass.objects.create(table_id=table_id, user_id=user_id, via=RoomPass.Via.CODE, removed_at=now, seen_at=now)


def rooms_empty_mark(*, now: datetime) -> list[int]:
    """The sweeper's bookkeeping of empty rooms: a room with a seat is not empty; one found
    without a seat is empty from now, unless it was already. Returns the open rooms empty for
    ROOMS_CLOSE_EMPTY_AFTER seconds, to be closed."""
    rooms = Table.objects.filter(status=Table.Status.OPEN, room_code__isnull=False)
    seated = Seat.objects.values("table_id")
    rooms.filter(pk__in=seated, room_empty_since__isnull=False).update(room_empty_since=None)
    empty = rooms.exclude(pk__in=seated)
    empty.filter(room_empty_since__isnull=True).update(room_empty_since=now)
    cutoff = now - timedelta(seconds=settings.ROOMS_CLOSE_EMPTY_AFTER)
    return list(empty.filter(room_empty_since__lte=cutoff).values_list("pk", flat=True))
