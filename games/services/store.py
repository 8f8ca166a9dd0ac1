"""The live-play store, the bottom of the services: locking a table, loading and saving a
hand's state, the action log and the table's version (docs/ARCHITECTURE.md "Data flow").

Everything above (the actions in ``hands``, ``seating``, ``presence``, ``sweeper`` and the
``settlement``) changes a table through these functions, with the table row locked first.
Nothing here decides anything about a game or settles a hand.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games import timers
from games.adapters import engine
from games.broadcast import broadcast_table, notify_user
from games.models import Clock, Hand, HandAction
from games.services.change import TableChange
from games.services.sql import (
    BREAKS,
    FRAME_SEAT_FIELDS,
    HAND,
    LEVEL,
    SEAT,
    SEAT_OF_LOCKED,
    SEATS_LOCKED,
    TABLE,
    USER,
    frame_seat_row,
    level_hand_seats,
    statements,
    update_by_id,
    update_with_actions,
)
from kernel.rows import execute, fetch_one, json_param
from tables.models import Seat, Table

#: The sweeper's heartbeat row in :class:`games.models.Clock`.
SWEEPER_CLOCK = "sweeper"


# --- tables ----------------------------------------------------------------------------------

def table_lock(table_id: int, *, bump: bool = False) -> TableChange:
    """Lock the table row, the lock every change at a table is serialised on, and begin the
    change: the table with its stake level (read, not locked: tables of a level must not queue
    behind each other) and its current hand (read once the lock is held: read with the lock, a
    hand changed by the transaction it waited for could be the old one).

    ``bump``: the request changes the table whenever it is applied (a refused one rolls back,
    bump and all), so the lock is taken by bumping the version, which the change's
    :func:`table_touch` then needs no statement for: two statements either way. On PostgreSQL
    the second also reads the seats the change's state frames show (``seat_rows``), which a
    change that moves no table money and no seat leaves as they are: the broadcast after commit
    needs no query of its own (:func:`table_seats_changed` says when it does)."""
    sql = statements()
    if not bump:
        row = fetch_one(sql.table_lock, [table_id])
        if row is None:
            raise Table.DoesNotExist(f"no table {table_id}")
        table = TABLE.load(row[: TABLE.width])
        table.stake_level = LEVEL.load(row[TABLE.width :])
        hand = None if table.current_hand_id is None else fetch_one(sql.hand, [table.current_hand_id])
        table.current_hand = None if hand is None else HAND.load(hand)
        return TableChange(table=table)
    row = fetch_one(sql.table_bump, [table_id])
    if row is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    table = TABLE.load(row)
    with_seats = connection.vendor == "postgresql"
    if with_seats:  # and the seats for the state frames (read after commit elsewhere: games.frames)
        row = fetch_one(*level_hand_seats(hand_id=table.current_hand_id, level_id=table.stake_level_id,
                                          table_id=table.pk, table_ref=table.wallet_ref))
    else:
        row = fetch_one(sql.level_and_hand, [table.current_hand_id, table.stake_level_id])
    assert row is not None, f"table {table_id} has no stake level"  # a foreign key guards it
    table.stake_level = LEVEL.load(row[: LEVEL.width])
    hand_end = LEVEL.width + HAND.width
    table.current_hand = None if row[LEVEL.width] is None else HAND.load(row[LEVEL.width : hand_end])
    seat_rows = [tuple(seat) for seat in orjson.loads(row[hand_end] or "[]")] if with_seats else None
    return TableChange(table=table, seat_rows=seat_rows, version_bumped=True)


def table_seats_read(change: TableChange, seats: list[tuple[Seat, int]]) -> None:
    """The (locked) table's state frames show these seats, locked with their table money
    (:func:`seats_locked_with_money`), unless :func:`table_seats_changed` is said later: every
    seat of the table, read under the lock, and nothing else in the transaction changes them."""
    change.seat_rows = [frame_seat_row(seat, money) for seat, money in seats]


def table_seats_moved(change: TableChange, deltas: dict[int, int]) -> None:
    """The seats' table money moved by ``deltas`` (user id -> coins, a settlement's) in this
    transaction: the seats read for the state frames, if any, say so too."""
    rows = change.seat_rows
    if rows is not None:
        user, money = FRAME_SEAT_FIELDS.index("user_id"), FRAME_SEAT_FIELDS.index("table_money")
        change.seat_rows = [
            (*row[:money], row[money] + deltas.get(row[user], 0), *row[money + 1:]) for row in rows
        ]


def table_seat_gone(change: TableChange, user_id: int) -> None:
    """The player's seat at the (locked) table is freed in this transaction, its table money
    cashed out: the seats read for the state frames, if any, say so too (the others are as
    they were)."""
    rows = change.seat_rows
    if rows is not None:
        user = FRAME_SEAT_FIELDS.index("user_id")
        change.seat_rows = [row for row in rows if row[user] != user_id]


def table_seats_changed(change: TableChange) -> None:
    """The (locked) table's seats or their table money change in this transaction: its state
    frames read them again after commit (not the ones :func:`table_lock` read)."""
    change.seat_rows = None


def table_touch(change: TableChange) -> int:
    """Bump the (locked) table's version and broadcast the new state after commit, once
    however many times a transaction touches the table."""
    table = change.table
    if change.version_bumped:
        change.version_bumped = False  # bumped by table_lock or table_save
    else:
        execute(statements().table_bump_only, [table.pk])
        table.version += 1  # the row is locked: the copy in memory is the row
    change.broadcast_version = table.version
    change_send_after_commit(change)
    return table.version


def change_notify(change: TableChange, user_id: int, notice: dict[str, Any]) -> None:
    """Tell the player this after the change commits (before its state frame)."""
    change.notices.append((user_id, notice))
    change_send_after_commit(change)


def change_send_after_commit(change: TableChange) -> None:
    """Queue the change's frames once: when the transaction commits, its notices and then one
    state frame for its last touch, however many times it touched the table."""
    if change.send_queued:
        return
    change.send_queued = True

    def send() -> None:
        table = change.table
        for user_id, notice in change.notices:
            notify_user(user_id, table.pk, notice)
        if change.broadcast_version is not None:
            broadcast_table(table.pk, table, change.seat_rows)

    transaction.on_commit(send, robust=True)


def table_save(change: TableChange, fields: tuple[str, ...], *, touch: bool = False) -> None:
    """Write these fields of the (locked) table in one statement (``touch``: with the version
    bump of the :func:`table_touch` that is to follow)."""
    table = change.table
    bump = touch and not change.version_bumped
    execute(update_by_id(TABLE, fields, bump=bump), [*TABLE.params(table, fields), table.pk])
    if bump:
        table.version += 1
        change.version_bumped = True  # the next table_touch has been done


def seats_leaving(change: TableChange) -> bool:
    """Whether any seat at the (locked) table is leaving: from the seats this change read
    (``seat_rows``), else read without building seats."""
    rows = change.seat_rows
    if rows is not None:
        status = FRAME_SEAT_FIELDS.index("status")
        return any(row[status] == Seat.Status.LEAVING for row in rows)
    return fetch_one(statements().seat_leaving, [change.table.pk, Seat.Status.LEAVING]) is not None


def seats_locked(change: TableChange) -> list[Seat]:
    """The (locked) table's seats in order, locked, each with its player."""
    return [seat for seat, _money in seats_locked_with_money(change)]


def seats_locked_with_money(change: TableChange) -> list[tuple[Seat, int]]:
    """:func:`seats_locked`, each seat with its player's table money, in one statement; each
    player's breaks from play come with it (``user.play_limits``, as ``select_related`` loads it)."""
    seats, table = [], change.table
    for row in SEATS_LOCKED.rows(table_id=table.pk, table_ref=table.wallet_ref):
        seat = SEAT.load(row[: SEAT.width])
        seat.user = USER.load(row[SEAT.width : SEAT.width + USER.width])
        breaks = row[SEAT.width + USER.width : -1]
        User.play_limits.related.set_cached_value(seat.user, None if breaks[0] is None else BREAKS.load(breaks))
        seats.append((seat, int(row[-1])))
    return seats


def seat_of_locked_with_money(change: TableChange, user: User) -> tuple[Seat, int] | None:
    """The player's seat at the (locked) table, locked, with its table money; None when the
    player has no seat there. One seat, not the table's: a request about one's own seat reads
    only that (no other seat changes without the table's lock)."""
    table = change.table
    rows = SEAT_OF_LOCKED.rows(table_id=table.pk, user_id=user.pk, table_ref=table.wallet_ref)
    if not rows:
        return None
    seat = SEAT.load(rows[0][: SEAT.width])
    seat.user = user
    return seat, int(rows[0][-1])


# --- hands -----------------------------------------------------------------------------------

def hand_active_locked(change: TableChange) -> Hand | None:
    """The hand in play at the locked table (:func:`table_lock` read it with the table)."""
    hand = change.hand
    return hand if hand is not None and hand.status == Hand.Status.ACTIVE else None


def hand_locked_with_table(hand_id: int) -> tuple[TableChange, Hand] | None:
    """Lock a hand's table row (:func:`table_lock`, the lock every change at a table takes)
    and return the change with the hand; None when there is no such hand."""
    row = fetch_one(statements().hand_table, [hand_id])
    if row is None:
        return None
    change = table_lock(row[0])
    hand = change.hand
    if hand is not None and hand.pk == hand_id:
        return change, hand
    return change, Hand.objects.get(pk=hand_id)  # an older hand: only ever found finished


def hand_phase_current(hand_id: int, phase_seq: int) -> bool:
    """Whether the hand is in play in phase ``phase_seq``, read without a lock (a timer's first
    look: a change under way may still move it on)."""
    row = fetch_one(statements().hand_phase, [hand_id])
    return row is not None and row[0] == Hand.Status.ACTIVE and int(row[1]) == phase_seq


def epoch_to_dt(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, tz=UTC)


def hand_state_set(hand: Hand, state: dict[str, Any]) -> None:
    """Put a new engine state on the locked hand, in memory: the next version, the engine's
    phase sequence and deadline. :func:`hand_state_store` saves it; a finished hand is saved
    with its outcome by the settlement instead."""
    hand.state = state
    hand.version += 1
    hand.phase_seq = int(state.get("phase_seq", hand.phase_seq))
    hand.deadline = epoch_to_dt(engine(hand.game).deadline(state))


#: What saving a hand's new state writes (the settlement writes its outcome too).
STATE_FIELDS = ("state", "version", "phase_seq", "deadline", "action_count", "leavers")


def hand_state_store(change: TableChange, hand: Hand, state: dict[str, Any]) -> None:
    """Save a new engine state of a hand still in play; when its phase or deadline changed,
    arm the new phase's timer after commit (an action within a phase arms nothing: its timer
    is already set, games/timers.py)."""
    armed = (hand.phase_seq, hand.deadline)
    hand_state_set(hand, state)
    hand_save(change, hand, STATE_FIELDS)
    if (hand.phase_seq, hand.deadline) != armed:
        hand_timer_arm(hand)


def hand_insert(hand: Hand) -> Hand:
    """Insert a new hand (every field but its id, which it gets) in one statement."""
    hand.started_at = timezone.now()
    row = fetch_one(statements().hand_insert, HAND.params(hand, HAND.insert_names))
    assert row is not None
    hand.pk = int(row[0])
    hand._state.adding, hand._state.db = False, connection.alias
    return hand


def hand_save(change: TableChange, hand: Hand, fields: tuple[str, ...]) -> None:
    """Write these fields of the (locked) hand in one statement, with the actions the change
    logged for it since its last save (:func:`action_log`)."""
    params = [*HAND.params(hand, fields), hand.pk]
    logged = change.actions_unsaved.pop(hand.pk, None)
    if logged:
        execute(update_with_actions(HAND, fields, len(logged)), [*itertools.chain.from_iterable(logged), *params])
    else:
        execute(update_by_id(HAND, fields), params)


def hand_timer_arm(hand: Hand) -> None:
    """After commit, set the timer of the hand's current phase (if it is in play and has one)."""
    if hand.status == Hand.Status.ACTIVE and hand.deadline is not None:
        hand_id, seq, when = hand.pk, hand.phase_seq, hand.deadline
        transaction.on_commit(lambda: timers.schedule_expire(hand_id, seq, when), robust=True)


def action_log(
    change: TableChange, hand: Hand, *, seat: int | None, user: User | None, action: dict[str, Any],
    client_id: str | None, auto: bool,
) -> None:
    """Append an action to the hand's log, stamped with the version it leads to. The hand's
    ``action_count`` goes up in memory: the caller saves the hand (as every change does), and on
    PostgreSQL that save writes the action too, in the same statement (nothing reads a hand's
    actions between an action and the save that follows it)."""
    hand.action_count += 1
    at = _ACTION_AT.get_db_prep_save(timezone.now(), connection)
    user_id = None if user is None else user.pk
    row = [hand.pk, hand.action_count, seat, user_id, json_param(action), client_id, auto, at, hand.version + 1]
    if connection.vendor == "postgresql":
        change.actions_unsaved.setdefault(hand.pk, []).append(row)
    else:
        execute(statements().action_insert, row)


_ACTION_AT = HandAction._meta.get_field("at")


# --- the sweeper's clock ---------------------------------------------------------------------

def outage_suspected(now: datetime) -> bool:
    """True when the sweeper has not ticked for longer than GAMES_OUTAGE_AFTER: the
    platform (or its beat) was down, so deadlines are not enforced until it extends them."""
    last = Clock.objects.filter(name=SWEEPER_CLOCK).values_list("last_tick", flat=True).first()
    return last is not None and now - last > timedelta(seconds=settings.GAMES_OUTAGE_AFTER)
