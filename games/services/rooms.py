"""A private room's owner at the table (docs/RULES.md "Private rooms"): start it, remove a player
between hands, close it; and the sweeper's closing of rooms left empty.

Each is a change at the table under its lock, like any seat change; the money and the seats
move through the seating and settlement services, so a room's hands, coins and records are a
table's. Who may do what is decided here, not in the consumer.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.models import User
from games.adapters import player_limits, set_running
from games.services.change import TableChange
from games.services.errors import PlayError
from games.services.hands import hand_start_after_commit
from games.services.seating import table_close
from games.services.settlement import seat_remove
from games.services.store import hand_active_locked, seats_locked_with_money, table_lock, table_save, table_touch
from tables.models import Seat, Table
from tables.rooms import room_pass_remove, rooms_empty_mark

log = logging.getLogger(__name__)

#: Why a room was closed, as kept on the table (staff read it in admin).
CLOSED_BY_OWNER = gettext_noop("closed by its owner")
CLOSED_EMPTY = gettext_noop("closed: empty")


def _owned(change: TableChange, user: User) -> Table:
    """The locked table, when it is an open room this player owns; refused otherwise."""
    table = change.table
    if not table.is_room:
        raise PlayError(_("This table is not a private room."), code="not_room")
    if table.room_owner_id != user.pk:
        raise PlayError(_("Only the room's owner may do that."), code="not_owner")
    if table.status != Table.Status.OPEN:
        raise PlayError(_("This table is closed."), code="closed")
    return table


@transaction.atomic
def room_start(*, table_id: int, user: User) -> dict[str, object]:
    """The owner starts the room: from now on it deals as any table does, as long as enough
    players may be dealt in. Starting a started room changes nothing.

    1. Lock the table; only its owner, while it is open.
    2. Refuse while fewer players sit ready to play than a hand needs.
    3. Mark it started, bump the version; the deal follows the commit."""
    change = table_lock(table_id)
    table = _owned(change, user)
    if table.room_started_at is not None:
        return {"started": True}
    low, _high = player_limits(table.stake_level)
    ready = sum(1 for seat, _money in seats_locked_with_money(change) if seat.status == Seat.Status.PLAYING)
    if ready < low:
        raise PlayError(
            _("%(n)d players must be seated and playing to start.") % {"n": low}, code="room_few_players"
        )
    table.room_started_at = timezone.now()
    table_save(change, ("room_started_at",))
    table_touch(change)
    hand_start_after_commit(table.pk, 0, pause=False, hands_played=table.hands_played)
    return {"started": True}


@transaction.atomic
def room_remove(*, table_id: int, user: User, seat_index: int) -> dict[str, object]:
    """The owner removes a player between hands: the seat is cashed out (table money back to the
    wallet, the player told why), and the room's code no longer lets them in.

    Refused for the owner's own seat (the owner leaves as anyone does), a free seat, and a
    player dealt into the hand in play or bound to a running set (the trio's)."""
    change = table_lock(table_id)
    table = _owned(change, user)
    found = next(((s, m) for s, m in seats_locked_with_money(change) if s.index == seat_index), None)
    if found is None:
        raise PlayError(_("Nobody sits in that seat."), code="not_seated")
    seat, money = found
    if seat.user_id == user.pk:
        raise PlayError(_("To give up your own seat, use Leave table."), code="not_allowed")
    hand = hand_active_locked(change)
    dealt = hand is not None and hand.seat_of(seat.user_id) is not None
    if dealt or set_running(table.stake_level.game, table.carry, seat.user_id):
        raise PlayError(_("You can remove a player between hands."), code="in_hand")
    seat_remove(change=change, seat=seat, reason="room_removed", money=money)
    room_pass_remove(table_id=table.pk, user_id=seat.user_id)
    table_touch(change)
    return {"removed": seat_index}


def room_close(*, table_id: int, user: User) -> dict[str, object]:
    """The owner closes the room, as staff close a table (``seating.table_close``): idle seats
    are cashed out at once, a hand in play finishes and cashes out the rest."""
    with transaction.atomic():
        _owned(table_lock(table_id), user)
        closing = table_close(table_id=table_id, actor=user, reason=CLOSED_BY_OWNER)
    return {"closed": True, "in_hand": closing.in_hand}


def rooms_sweep(now: datetime) -> int:
    """The sweeper's step: close every room that has been without a seat for
    ROOMS_CLOSE_EMPTY_AFTER seconds; returns how many it closed."""
    closed = 0
    for table_id in rooms_empty_mark(now=now):
        try:
            closed += _close_if_empty(table_id)
        except Exception:
            log.exception("could not close the empty room %s", table_id)
    return closed


@transaction.atomic
def _close_if_empty(table_id: int) -> int:
    """Close the room unless a player sat down since the sweep looked (read under its lock)."""
    change = table_lock(table_id)
    if change.table.status != Table.Status.OPEN or seats_locked_with_money(change):
        return 0
    table_close(table_id=table_id, actor=None, reason=CLOSED_EMPTY)
    return 1
