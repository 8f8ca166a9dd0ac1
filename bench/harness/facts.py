"""What the harness reads of a run's database: read-only SQL of its own over the platform's
tables, on PostgreSQL or SQLite. It imports none of the platform's models or services, so a fact
the harness reports cannot share a fault with the code that wrote it; what a table's game needs
comes from the game's pure engine (games/engine/protocol.py), as the platform asks it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.utils.dateparse import parse_datetime

from games.engine.protocol import StakeTerms
from games.engine.registry import engine_for

# The values the platform stores (its models' choices), as the rows hold them.
ACTIVE, SETTLED, VOIDED = "active", "settled", "voided"  # games_hand.status
PLAYING = "playing"  # tables_seat.status
OPEN = "open"  # tables_table.status


def rows(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """The rows of one read-only statement."""
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        return list(cursor.fetchall())


def in_list(values: Sequence[Any]) -> str:
    """``(%s, %s, …)`` for ``values`` (``(NULL)`` for none: matches nothing)."""
    return "(" + ", ".join(["%s"] * len(values)) + ")" if values else "(NULL)"


def when(value: Any) -> datetime | None:
    """A timestamp column's value as an aware datetime (SQLite gives its UTC text)."""
    if value is None:
        return None
    moment = value if isinstance(value, datetime) else parse_datetime(str(value))
    if moment is None:
        raise ValueError(f"not a timestamp: {value!r}")
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def json_value(value: Any) -> Any:
    """A JSON column's value (SQLite gives its text)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


@dataclass(frozen=True)
class HandRow:
    id: int
    table_id: int
    number: int
    phase_seq: int
    deadline: datetime | None


@dataclass(frozen=True)
class TableRow:
    id: int
    status: str
    version: int
    players_needed: int  # the fewest players a hand of its game and stake level needs


def hands_in_play(table_ids: Sequence[int]) -> list[HandRow]:
    return [HandRow(pk, table, number, phase_seq, when(deadline)) for pk, table, number, phase_seq, deadline in rows(
        f"SELECT id, table_id, number, phase_seq, deadline FROM games_hand WHERE status = %s "
        f"AND table_id IN {in_list(table_ids)} ORDER BY id", [ACTIVE, *table_ids])]


def tables_of(table_ids: Sequence[int]) -> dict[int, TableRow]:
    found = {}
    for pk, status, version, game, mode, seats, unit, commission, min_buy_in, min_table_money, rules in rows(
            "SELECT t.id, t.status, t.version, s.game, s.mode, s.seats, s.unit, s.commission_percent, s.min_buy_in, "
            f"s.min_table_money, s.rules FROM tables_table t JOIN tables_stakelevel s ON s.id = t.stake_level_id "
            f"WHERE t.id IN {in_list(table_ids)}", list(table_ids)):
        terms: StakeTerms = {"unit": unit, "commission_percent": commission, "min_buy_in": min_buy_in,
                 "min_table_money": min_table_money, "mode": mode, "seats": seats,
                 "rules": dict(json_value(rules) or {})}
        engine = engine_for(game)
        low = engine.player_limits(engine.stake_rules(terms), seats)[0]
        found[pk] = TableRow(pk, status, version, low)
    return found


def playing_seats_joined(table_ids: Sequence[int]) -> dict[int, list[datetime]]:
    """When each playing seat at the tables sat down, by table, earliest first."""
    joined: dict[int, list[datetime]] = {}
    for table_id, at in rows(f"SELECT table_id, joined_at FROM tables_seat WHERE status = %s AND table_id IN "
                             f"{in_list(table_ids)} ORDER BY joined_at", [PLAYING, *table_ids]):
        moment = when(at)
        if moment is not None:
            joined.setdefault(table_id, []).append(moment)
    return joined


def latest_hand(table_id: int) -> tuple[str, datetime | None] | None:
    """The status and end of the table's latest hand, if it has one."""
    found = rows("SELECT status, finished_at FROM games_hand WHERE table_id = %s ORDER BY number DESC LIMIT 1",
                 [table_id])
    return (found[0][0], when(found[0][1])) if found else None


def hands_ended(table_ids: Sequence[int] | None = None) -> int:
    """Hands settled or voided (at the tables ``table_ids``; every table: None)."""
    if table_ids is None:
        return int(rows("SELECT COUNT(*) FROM games_hand WHERE status <> %s", [ACTIVE])[0][0])
    return int(rows(f"SELECT COUNT(*) FROM games_hand WHERE status <> %s AND table_id IN {in_list(table_ids)}",
                    [ACTIVE, *table_ids])[0][0])


def hands_in_play_count() -> int:
    return int(rows("SELECT COUNT(*) FROM games_hand WHERE status = %s", [ACTIVE])[0][0])


def hand_ends(table_ids: Sequence[int]) -> list[tuple[str, datetime, datetime]]:
    """(status, started, finished) of every ended hand at the tables."""
    found = []
    for status, started, finished in rows(
            f"SELECT status, started_at, finished_at FROM games_hand WHERE finished_at IS NOT NULL "
            f"AND table_id IN {in_list(table_ids)}", list(table_ids)):
        start, end = when(started), when(finished)
        if start is not None and end is not None:
            found.append((status, start, end))
    return found


def first_ends_after(table_ids: Sequence[int], since: datetime) -> dict[int, datetime]:
    """Per table, when the first hand dealt after ``since`` ended (tables with none left out)."""
    first: dict[int, datetime] = {}
    for table_id, started, finished in rows(
            f"SELECT table_id, started_at, finished_at FROM games_hand WHERE finished_at IS NOT NULL "
            f"AND table_id IN {in_list(table_ids)}", list(table_ids)):
        start, end = when(started), when(finished)
        if start is not None and end is not None and start > since and (table_id not in first or end < first[table_id]):
            first[table_id] = end
    return first
