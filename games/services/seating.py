"""Seating: join with a buy-in, top up, sit out, come back, leave (docs/RULES.md "Money").

Coins move only through the wallet services: a buy-in moves coins from the player's wallet to
the seat's table money (escrow, keyed by the table's ``wallet_ref``), leaving moves them back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import STANDING_BANNED, STANDING_STAFF, account_standing_and, session_alive
from accounts.sockets import STOP_MESSAGES
from games.adapters import player_limits, presence_matters, set_running
from games.presence import presence_start
from games.services.change import TableChange
from games.services.errors import NotSeated, PlayError, TableFull
from games.services.hand_presence import hand_player_left
from games.services.hands import hand_start_after_commit
from games.services.settlement import seat_remove
from games.services.store import (
    hand_active_locked,
    seat_of_locked_with_money,
    seats_locked,
    seats_locked_with_money,
    table_lock,
    table_seats_changed,
    table_touch,
)
from responsible.errors import LimitRefused
from responsible.services import limit_refusal_record, stake_check
from tables.models import Seat, Table
from tables.rooms import room_pass_held
from wallet import selectors as wallet_selectors
from wallet import services as wallet

_F = TypeVar("_F", bound=Callable[..., Any])


def _refusal_kept(amount_arg: str) -> Callable[[_F], _F]:
    """A buy-in or top-up the player's own limits refuse rolls back; the refusal is then kept
    for staff in a transaction of its own (``responsible.services.limit_refusal_record``)."""
    def wrap(func: _F) -> _F:
        @functools.wraps(func)
        def run(**kwargs: Any) -> Any:
            try:
                return func(**kwargs)
            except LimitRefused as refused:
                limit_refusal_record(user=kwargs["user"], refused=refused, amount=kwargs[amount_arg],
                                     table_id=kwargs["table_id"])
                raise
        return cast(_F, run)
    return wrap


def _active_check(user: User, table: Table, signed_in: str | None) -> None:
    """Refuse a request whose session has logged out (its stop may still be on its way), a
    player without a private room's pass (docs/RULES.md "Private rooms"), a banned player, and
    staff without the player role, read after the table lock (a ban committed before the lock is
    seen) in one statement; self-exclusion and cool-off are ``stake_check``'s."""
    standing, (allowed, alive) = account_standing_and(
        user_id=user.pk, also=(room_pass_held(table=table, user_id=user.pk), session_alive(signed_in, user.pk)))
    if not alive:
        raise PlayError(gettext(STOP_MESSAGES["logged_out"]), code="logged_out")
    if not allowed:
        raise PlayError(_("This room is private: enter its code or ask for an invitation."), code="room_private")
    if standing == STANDING_BANNED:
        raise PlayError(_("This account is banned."), code="banned")
    if standing == STANDING_STAFF:
        raise PlayError(_("Staff and auditor accounts do not play: ask for the player role to sit down."),
                        code="staff")


def _in_hand(change: TableChange, user: User) -> bool:
    hand = hand_active_locked(change)
    return hand is not None and hand.seat_of(user.pk) is not None


@_refusal_kept("buy_in")
@transaction.atomic
def seat_join(*, table_id: int, user: User, buy_in: int, request_id: str, seat_index: int | None = None,
              signed_in: str | None = None) -> Seat:
    """Sit down with a buy-in of at least the stake level's minimum (``signed_in``: the key of
    the session the request came through, refused once it has logged out).

    1. Lock the table and its seats; refuse if the player is seated or the seat is taken.
    2. Move ``buy_in`` from the wallet to this seat's table money (idempotent on the request).
    3. Create the seat, bump the version; the broadcast and the next deal follow the commit.
    """
    change = table_lock(table_id)
    table = change.table
    if table.status != Table.Status.OPEN:
        raise PlayError(_("This table is closed."), code="closed")
    _active_check(user, table, signed_in)
    seats = seats_locked(change)
    if any(s.user_id == user.pk for s in seats):
        raise PlayError(_("You are already seated at this table."), code="already_seated")
    taken = {s.index for s in seats}
    free = [i for i in range(table.stake_level.seats) if i not in taken]
    if seat_index is None:
        if not free:
            raise TableFull(_("This table is full."))
        seat_index = free[0]
    elif seat_index not in free:
        raise TableFull(_("That seat is taken."))
    stake_check(user=user, amount=buy_in)  # the player's own loss limits and self-exclusion
    posted = wallet.wallet_buy_in(
        user=user, table_ref=table.wallet_ref, amount=buy_in, minimum=table.stake_level.min_buy_in,
        idempotency_key=f"buyin:{table.pk}:{user.pk}:{request_id}", actor=user,
    )
    if posted.replayed and (
        wallet_selectors.table_money(user=user, table_ref=table.wallet_ref) < table.stake_level.min_buy_in
    ):
        # The wallet replayed an earlier buy-in under this id, since cashed out: no seat for it.
        raise PlayError(_("This request id was already used; send each request with a new id."), code="duplicate_id")
    now = timezone.now()
    seat = Seat.objects.create(table=table, index=seat_index, user=user, last_seen=now)
    presence_start([(table.pk, user.pk)], now.timestamp())  # heard from: it just sat down
    table_touch(change)
    if len(seats) + 1 >= player_limits(table.stake_level)[0]:  # fewer players than a hand needs: no deal to try
        hand_start_after_commit(table.pk, hands_played=table.hands_played)
    return seat


def _my_seat(change: TableChange, user: User) -> Seat:
    return _my_seat_with_money(change, user)[0]


def _my_seat_with_money(change: TableChange, user: User) -> tuple[Seat, int]:
    """The player's seat at the locked table, locked, and its table money, in one statement."""
    mine = seat_of_locked_with_money(change, user)
    if mine is None:
        raise NotSeated(_("You are not seated at this table."))
    return mine


@_refusal_kept("amount")
@transaction.atomic
def seat_top_up(*, table_id: int, user: User, amount: int, request_id: str, signed_in: str | None = None) -> int:
    """Add table money between hands (not while dealt into a hand in play, nor at a closed table);
    ``signed_in`` as :func:`seat_join`'s."""
    change = table_lock(table_id)
    table = change.table
    if table.status != Table.Status.OPEN:
        raise PlayError(_("This table is closed."), code="closed")
    _my_seat(change, user)
    _active_check(user, table, signed_in)
    if _in_hand(change, user):
        raise PlayError(_("You can top up between hands."), code="in_hand")
    stake_check(user=user, amount=amount)  # the player's own loss limits and self-exclusion
    wallet.wallet_top_up(
        user=user, table_ref=table.wallet_ref, amount=amount,
        idempotency_key=f"topup:{table.pk}:{user.pk}:{request_id}", actor=user,
    )
    table_touch(change)
    hand_start_after_commit(table.pk, hands_played=table.hands_played)
    return wallet_selectors.table_money(user=user, table_ref=table.wallet_ref)


@transaction.atomic
def seat_sit_out(*, table_id: int, user: User, out: bool) -> Seat:
    """Sit out from the next hand (``out=False``: play again, also after sitting out away). A
    seat sitting out is stood up after GAMES_AWAY_STAND_UP_AFTER seconds (``away``)."""
    change = table_lock(table_id)
    table = change.table
    seat = _my_seat(change, user)
    if seat.status == Seat.Status.LEAVING:
        raise PlayError(_("You are leaving this table."), code="leaving")
    status = Seat.Status.SITTING_OUT if out else Seat.Status.PLAYING
    if status != seat.status:
        seat.status, seat.sat_out_at = status, timezone.now() if out else None
        seat.save(update_fields=["status", "sat_out_at"])
    table_touch(change)
    if not out:
        hand_start_after_commit(table.pk, hands_played=table.hands_played)
    return seat


@transaction.atomic
def seat_leave(*, table_id: int, user: User) -> bool:
    """Leave: table money back to the wallet at once, or at the end of the hand (or, in the
    trio, of the set) when dealt in. Returns True when the player has left already."""
    change = table_lock(table_id, bump=True)  # a leave refused rolls back, the version's bump and all
    table = change.table
    seat, money = _my_seat_with_money(change, user)
    game = change.level.game
    if _in_hand(change, user) or set_running(game, table.carry, user.pk):
        seat.status = Seat.Status.LEAVING
        # Where presence matters (the trio), leaving mid-set counts as disconnecting:
        # auto-played to the end of the set.
        seat.disconnected = seat.disconnected or presence_matters(game)
        seat.save(update_fields=["status", "disconnected"])
        table_seats_changed(change)
        hand_player_left(change=change, user=user, leaving=True)
        table_touch(change)
        return False
    seat_remove(change=change, seat=seat, reason="left", money=money)
    table_touch(change)
    return True


@dataclass(frozen=True)
class TableClosing:
    """What closing a table did: seats cashed out at once (and their coins), and seats dealt
    into the hand in play, cashed out when it settles or is voided."""

    cashed_out: int
    amount: int
    in_hand: int


@transaction.atomic
def table_close(*, table_id: int, actor: User | None, reason: str) -> TableClosing:
    """Close a table for good (staff, a room's owner, or the sweeper for an empty room: ``actor``
    None): nobody joins or tops up, and no hand is dealt again.

    1. Lock the table and mark it closed, by whom and why (closing it again keeps the first
       closing and only cashes out what is idle).
    2. Cash out every seat not dealt into the hand in play: table money → wallet, through
       ``seat_remove`` (idempotent), each player told why.
    3. The hand in play, if any, finishes; its settlement (or void) cashes out the other seats.
    """
    change = table_lock(table_id)
    table = change.table
    if table.status != Table.Status.CLOSED:
        table.status, table.closed_at, table.closed_by, table.close_reason = (
            Table.Status.CLOSED, timezone.now(), actor, reason[:200],
        )
        table.save(update_fields=["status", "closed_at", "closed_by", "close_reason"])
    hand = hand_active_locked(change)
    dealt = {p["user"] for p in hand.players} if hand is not None else set()
    cashed_out = amount = in_hand = 0
    for seat, money in seats_locked_with_money(change):
        if seat.user_id in dealt:
            in_hand += 1
            continue
        amount += seat_remove(change=change, seat=seat, reason="table_closed", money=money)
        cashed_out += 1
    table_touch(change)
    return TableClosing(cashed_out=cashed_out, amount=amount, in_hand=in_hand)
