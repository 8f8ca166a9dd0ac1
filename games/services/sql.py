"""The live path's hand-written statements (docs/SCALING.md "What one action costs"), written
once: the table, its stake level, its current hand, the action log. ``store`` runs them; the
rows they read become model instances through :class:`kernel.rows.Rows`.

Only table and column names from the models' metadata are put into the text; every value is a
parameter. The text is the same for PostgreSQL and SQLite but for the row lock, which SQLite
has no need of (one writer at a time).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection

from accounts.models import User
from games.models import ClientRequest, Hand, HandAction
from kernel.rows import Compiled, Rows, quote
from responsible.models import PlayLimits
from tables.models import Seat, StakeLevel, Table
from wallet.selectors import table_money_column

TABLE, LEVEL, HAND, SEAT, USER = Rows(Table), Rows(StakeLevel), Rows(Hand), Rows(Seat), Rows(User)
#: What a deal asks of a player's limits: whether a self-exclusion or a cool-off runs.
BREAKS = Rows(PlayLimits, ("user", "excluded_until", "cooling_until"))
FRAME_SEAT_FIELDS = ("index", "user_id", "table_id", "status", "disconnected", "user__display_name",
                     "user__username", "table_money")

#: A table's seats in order, each with its player, the player's breaks from play and its table
#: money, the seat rows locked.
SEATS_LOCKED = Compiled(
    lambda table_id, table_ref: (
        Seat.objects.select_for_update(of=("self",)).filter(table_id=table_id).order_by("index")
        .annotate(table_money=table_money_column(table_ref=table_ref))
        .values_list(*SEAT.attnames, *(f"user__{name}" for name in USER.attnames),
                     *(f"user__play_limits__{f.name}" for f in BREAKS.fields), "table_money")
    ),
    table_id=-7_340_011, table_ref="\x00table-ref",
)
#: One player's seat at a table, locked, with its table money.
SEAT_OF_LOCKED = Compiled(
    lambda table_id, user_id, table_ref: (
        Seat.objects.select_for_update(of=("self",)).filter(table_id=table_id, user_id=user_id)
        .annotate(table_money=table_money_column(table_ref=table_ref))
        .values_list(*SEAT.attnames, "table_money")
    ),
    table_id=-7_340_011, user_id=-7_340_013, table_ref="\x00table-ref",
)
#: A table's seats as the state frames show them (``games.frames.SeatRow``'s fields, in order): each
#: seat with its player's names and table money.
FRAME_SEATS = Compiled(
    lambda table_id, table_ref: (
        Seat.objects.filter(table_id=table_id).order_by("index")
        .annotate(table_money=table_money_column(table_ref=table_ref))
        .values_list(*FRAME_SEAT_FIELDS)
    ),
    table_id=-7_340_011, table_ref="\x00table-ref",
)


def frame_seat_row(seat: Seat, table_money: int) -> tuple[Any, ...]:
    """The row :data:`FRAME_SEATS` reads for a seat (its player loaded), from the seat itself."""
    return (seat.index, seat.user_id, seat.table_id, seat.status, seat.disconnected, seat.user.display_name,
            seat.user.username, table_money)


ACTION_COLUMNS = ("hand_id", "seq", "seat", "user_id", "action", "client_id", "auto", "at", "version")
REQUEST_COLUMNS = ("user_id", "client_id", "type", "fingerprint", "reply", "created")


@dataclass(frozen=True)
class Statements:
    table_lock: str  # the table and its stake level, the table row locked
    table_bump: str  # the table's version + 1, returning the (now locked) row
    table_bump_only: str
    level_and_hand: str  # a stake level and a hand (or none): the rest of a table's reading
    hand: str
    hand_table: str  # the table of a hand
    hand_phase: str  # a hand's status and phase sequence
    seat_leaving: str  # any leaving seat at a table
    seat_delete: str  # a freed seat (nothing refers to a seat, and no signal listens for one)
    action_insert: str
    request_insert: str  # a spent client request id
    hand_insert: str  # a new hand, returning its id


@cache
def _statements(vendor: str) -> Statements:
    table, level, hand = quote(TABLE.table), quote(LEVEL.table), quote(HAND.table)
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    return Statements(
        table_lock=(
            f"SELECT {TABLE.columns('t')}, {LEVEL.columns('l')} FROM {table} t "  # noqa: S608 - names only
            f"JOIN {level} l ON l.id = t.stake_level_id WHERE t.id = %s{lock}"
        ),
        table_bump=(
            f"UPDATE {table} SET version = version + 1 WHERE id = %s "  # noqa: S608 - names only
            f"RETURNING {TABLE.columns()}"
        ),
        table_bump_only=f"UPDATE {table} SET version = version + 1 WHERE id = %s",  # noqa: S608 - names only
        level_and_hand=(
            f"SELECT {LEVEL.columns('l')}, {HAND.columns('h')} FROM {level} l "  # noqa: S608 - names only
            f"LEFT JOIN {hand} h ON h.id = %s WHERE l.id = %s"
        ),
        hand=f"SELECT {HAND.columns()} FROM {hand} WHERE id = %s",  # noqa: S608 - names only
        hand_table=f"SELECT table_id FROM {hand} WHERE id = %s",  # noqa: S608 - names only
        hand_phase=f"SELECT status, phase_seq FROM {hand} WHERE id = %s",  # noqa: S608 - names only
        seat_leaving=(
            f"SELECT 1 FROM {quote(Seat._meta.db_table)} "  # noqa: S608 - names only
            "WHERE table_id = %s AND status = %s LIMIT 1"
        ),
        seat_delete=f"DELETE FROM {quote(Seat._meta.db_table)} WHERE id = %s",  # noqa: S608 - names only
        action_insert=_insert(HandAction._meta.db_table, ACTION_COLUMNS),
        request_insert=_insert(ClientRequest._meta.db_table, REQUEST_COLUMNS),
        hand_insert=f"{_insert(HAND.table, tuple(HAND.field(n).column for n in HAND.insert_names))} RETURNING id",
    )


def _insert(model_table: str, columns: tuple[str, ...]) -> str:
    names, values = ", ".join(quote(c) for c in columns), ", ".join(["%s"] * len(columns))
    return f"INSERT INTO {quote(model_table)} ({names}) VALUES ({values})"  # noqa: S608 - names only


def level_hand_seats(*, hand_id: int | None, level_id: int, table_id: int, table_ref: str) -> tuple[str, list[Any]]:
    """The rest of a locked table's reading in one statement, on PostgreSQL: its stake level, its
    hand (or none) and, as a JSON array of rows, its seats as :data:`FRAME_SEATS` reads them
    (what the change's state frames show, unless the change moves table money or seats)."""
    seats_sql, seats_params = FRAME_SEATS.sql_and_params(table_id=table_id, table_ref=table_ref)
    return _level_hand_seats(seats_sql), [*seats_params, hand_id, level_id]


@cache
def _level_hand_seats(seats_sql: str) -> str:
    # values_list names the seats query's columns after its fields
    columns = ", ".join(f"s.{quote(column)}" for column in FRAME_SEAT_FIELDS)
    return (
        f"SELECT {LEVEL.columns('l')}, {HAND.columns('h')}, "  # noqa: S608 - names only
        f"(SELECT json_agg(json_build_array({columns}) ORDER BY s.{quote('index')})::text FROM ({seats_sql}) s) "
        f"FROM {quote(LEVEL.table)} l LEFT JOIN {quote(HAND.table)} h ON h.id = %s WHERE l.id = %s"
    )


def statements() -> Statements:
    """The statements for the current connection's database."""
    return _statements(connection.vendor)


@cache
def _update(vendor: str, model_table: str, columns: tuple[str, ...], bump: bool) -> str:
    assignments = ", ".join([*(f"{quote(c)} = %s" for c in columns), *(["version = version + 1"] if bump else [])])
    return f"UPDATE {quote(model_table)} SET {assignments} WHERE id = %s"  # noqa: S608 - names only


def update_by_id(rows: Rows[Table] | Rows[Hand], fields: tuple[str, ...], *, bump: bool = False) -> str:
    """``UPDATE … SET <fields> = %s, … WHERE id = %s`` for a model's row (``bump``: and its
    ``version`` + 1)."""
    return _update(connection.vendor, rows.table, tuple(rows.field(name).column for name in fields), bump)


@cache
def _update_with_actions(vendor: str, columns: tuple[str, ...], actions: int) -> str:
    values = ", ".join(["(" + ", ".join(["%s"] * len(ACTION_COLUMNS)) + ")"] * actions)
    names = ", ".join(quote(c) for c in ACTION_COLUMNS)
    return (f"WITH logged AS (INSERT INTO {quote(HandAction._meta.db_table)} ({names}) VALUES {values}) "  # noqa: S608
            f"{_update(vendor, HAND.table, columns, False)}")


def update_with_actions(rows: Rows[Hand], fields: tuple[str, ...], actions: int) -> str:
    """:func:`update_by_id` of a hand, with ``actions`` rows of its log inserted by the same
    statement (PostgreSQL: a data-modifying ``WITH``); the actions' parameters come first."""
    return _update_with_actions(connection.vendor, tuple(rows.field(name).column for name in fields), actions)
