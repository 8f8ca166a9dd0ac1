"""Writing hand records: once per settled hand, inside the settlement's transaction."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

import orjson
from django.db import connection, transaction
from django.utils import timezone

from games.engine.record import GENESIS, json_round_trip, record_parts, seal
from history.models import HandRecord, HandRecordSeat, VoidedHandSeat
from tables.models import Table

if TYPE_CHECKING:  # the settlement hands over its hand; history reads it, never games' models
    from games.models import Hand


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _actions(hand: Hand) -> list[dict[str, Any]]:
    rows = hand.actions.order_by("seq")
    return [
        {"seq": a.seq, "seat": a.seat, "user": a.user_id, "at": iso(a.at), "auto": a.auto, "action": a.action}
        for a in rows
    ]


def _players(hand: Hand) -> list[dict[str, Any]]:
    return [
        {"seat": i, "table_seat": p["seat"], "user": p["user"], "name": p["name"]} for i, p in enumerate(hand.players)
    ]


def hand_record_write(*, hand: Hand, house_lines: Mapping[str, int] | None = None) -> HandRecord:
    """Write the immutable record of a settled hand (called by ``games.services.settlement``).

    ``house_lines`` is the house's side of the settlement as the settlement posted it; it is
    needed to write a new record (a hand already recorded is returned without it).

    1. Idempotent: a hand already recorded returns its record.
    2. The caller holds the table's row lock, so reading the table's last record and
       appending the next one cannot race; the UNIQUE (table, chain_seq) backs that.
    3. The body (games.engine.record) is sealed as canonical JSON and its SHA-256, which covers
       the previous record's hash; the seat rows index it by player.

    On PostgreSQL that is two statements and no savepoint: one reads what the record needs
    (an existing record, the table's last one, the hand's actions, the table and its stake
    level), one inserts the record and its seats. Nothing is written before the second, which
    writes all or nothing; if it fails inside the caller's transaction, the caller's innermost
    ``atomic`` block is marked for rollback (the failed statement has aborted the transaction).
    """
    if connection.vendor != "postgresql":
        return _write_orm(hand, house_lines)
    if connection.in_atomic_block:
        return _write_sql(hand, house_lines)
    with transaction.atomic():
        return _write_sql(hand, house_lines)


@transaction.atomic
def _write_orm(hand: Hand, house_lines: Mapping[str, int] | None) -> HandRecord:
    """The steps one query each (SQLite)."""
    existing = HandRecord.objects.filter(hand_id=hand.pk).first()
    if existing is not None:
        return existing
    if house_lines is None:
        raise ValueError(f"hand {hand.pk} is not recorded yet: its house lines are needed to record it")
    table = Table.objects.select_related("stake_level").get(pk=hand.table_id)
    last = HandRecord.objects.filter(table=table).order_by("-chain_seq").values_list("chain_seq", "hash").first()
    seq, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
    level = table.stake_level
    canonical, digest = _seal(hand, (table.name, level.pk, level.name, level.mode), _actions(hand), house_lines,
                              seq, prev)
    record = HandRecord.objects.create(
        hand=hand, table=table, stake_level=level, game=hand.game, number=hand.number, chain_seq=seq,
        prev_hash=prev, hash=digest, canonical=canonical, started_at=hand.started_at,
        finished_at=hand.finished_at or hand.started_at, ledger_transaction_id=hand.ledger_transaction_id,
    )
    HandRecordSeat.objects.bulk_create([
        HandRecordSeat(record=record, user_id=user, seat=i, coins=coins) for i, (user, coins) in enumerate(_seats(hand))
    ])
    return record


def _seats(hand: Hand) -> list[tuple[int, int]]:
    """Each hand seat's (user, net coins)."""
    coins = (hand.result or {}).get("coins") or [0] * len(hand.players)
    return [(p["user"], int(c)) for p, c in zip(hand.players, coins, strict=True)]


# Everything the record needs, in one statement, the table's and its level's names with it.
_READ = """
SELECT
    (SELECT id FROM history_handrecord WHERE hand_id = %(hand)s),
    last.chain_seq, last.hash,
    action.seqs, action.seats, action.users, action.ats, action.autos, action.actions,
    held.name, held.stake_level_id, held.level_name, held.mode
FROM (SELECT
        array_agg(seq ORDER BY seq) AS seqs, array_agg(seat ORDER BY seq) AS seats,
        array_agg(user_id ORDER BY seq) AS users, array_agg(at ORDER BY seq) AS ats,
        array_agg(auto ORDER BY seq) AS autos, array_agg(action::text ORDER BY seq) AS actions
    FROM games_handaction WHERE hand_id = %(hand)s
) AS action
LEFT JOIN LATERAL (
    SELECT chain_seq, hash FROM history_handrecord WHERE table_id = %(table)s ORDER BY chain_seq DESC LIMIT 1
) AS last ON true
LEFT JOIN LATERAL (
    SELECT t.name, t.stake_level_id, l.name AS level_name, l.mode
    FROM tables_table AS t JOIN tables_stakelevel AS l ON l.id = t.stake_level_id WHERE t.id = %(table)s
) AS held ON true
"""

_INSERT = """
WITH record AS (
    INSERT INTO history_handrecord (hand_id, table_id, stake_level_id, game, number, chain_seq, prev_hash, hash,
        canonical, started_at, finished_at, ledger_transaction_id, recorded_at)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
    RETURNING id
), seat AS (
    INSERT INTO history_handrecordseat (record_id, user_id, seat, coins)
    SELECT record.id, seat.user_id, seat.n - 1, seat.coins
    FROM record, unnest(%s::bigint[], %s::bigint[]) WITH ORDINALITY AS seat (user_id, coins, n)
    ORDER BY seat.n
)
SELECT id FROM record
"""


def _write_sql(hand: Hand, house_lines: Mapping[str, int] | None) -> HandRecord:
    with transaction.mark_for_rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(_READ, {"hand": hand.pk, "table": hand.table_id})
        row = cursor.fetchone()
    existing, last_seq, last_hash, *action_columns = row[:9]
    if existing is not None:
        return HandRecord.objects.get(pk=existing)
    if house_lines is None:
        raise ValueError(f"hand {hand.pk} is not recorded yet: its house lines are needed to record it")
    if row[9] is None:
        raise Table.DoesNotExist(f"no table {hand.table_id}")
    names = tuple(row[9:13])
    seq, prev = (last_seq + 1, last_hash) if last_seq is not None else (1, GENESIS)
    canonical, digest = _seal(hand, names, _action_rows(*action_columns), house_lines, seq, prev)
    seats = _seats(hand)
    recorded_at, finished_at = timezone.now(), hand.finished_at or hand.started_at
    values = {
        "hand_id": hand.pk, "table_id": hand.table_id, "stake_level_id": names[1], "game": hand.game,
        "number": hand.number, "chain_seq": seq, "prev_hash": prev, "hash": digest, "canonical": canonical,
        "started_at": hand.started_at, "finished_at": finished_at, "ledger_transaction_id": hand.ledger_transaction_id,
        "recorded_at": recorded_at,
    }
    with transaction.mark_for_rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(_INSERT, [*values.values(), _array(u for u, _c in seats), _array(c for _u, c in seats)])
        values["id"] = cursor.fetchone()[0]
    record = HandRecord.from_db(connection.alias, _RECORD_FIELDS, [values[name] for name in _RECORD_FIELDS])
    record.hand = hand  # as ``objects.create(hand=hand)`` leaves it
    return record


_RECORD_FIELDS = [f.attname for f in HandRecord._meta.concrete_fields]


def _action_rows(seqs: Any, seats: Any, users: Any, ats: Any, autos: Any, actions: Any) -> list[dict[str, Any]]:
    """The actions as :func:`_actions` reads them through the ORM (JSON parsed as JSONField does)."""
    if seqs is None:
        return []
    return [
        {"seq": seq, "seat": seat, "user": user, "at": iso(at), "auto": auto, "action": json.loads(action)}
        for seq, seat, user, at, auto, action in zip(seqs, seats, users, ats, autos, actions, strict=True)
    ]


def _seal(
    hand: Hand, names: tuple[Any, ...], actions: list[dict[str, Any]], house_lines: Mapping[str, int], seq: int,
    prev: str,
) -> tuple[str, str]:
    """``seal(record_body(...))`` for this hand: the same text and hash, with one JSON
    serialisation instead of three when every key in the record is a string (orjson refuses any
    other key: then the record takes ``record_body``'s JSON round trip)."""
    table_name, level_id, level_name, mode = names
    meta = {
        "id": hand.pk, "table": hand.table_id, "table_name": table_name, "number": hand.number,
        "stake_level": level_id, "stake_level_name": level_name, "mode": mode,
        "started_at": iso(hand.started_at), "finished_at": iso(hand.finished_at),
    }
    parts = record_parts(
        game=hand.game, hand=meta, players=_players(hand),
        fairness={"commitment": hand.commitment, "server_seed": hand.server_seed, "client_seeds": hand.client_seeds},
        state=hand.state, result=hand.result or {}, actions=actions, house_lines=house_lines,
        ledger_transaction=hand.ledger_transaction_id, chain={"seq": seq, "prev": prev},
    )
    try:
        orjson.dumps(parts)
    except orjson.JSONEncodeError:
        parts = json_round_trip(parts)
    return seal(parts)


def _array(values: Any) -> str:
    """A PostgreSQL integer array literal: cheaper than the driver's adaptation of a list."""
    return "{" + ",".join(str(int(v)) for v in values) + "}"


def hand_void_seats_write(*, hand: Hand, table: Table, reason: str) -> list[VoidedHandSeat]:
    """One row per dealt-in player of a hand the platform voided (``hand`` voided and locked,
    called by ``games.services.settlement``): what the player's history shows of it and what a
    complaint names. The hash chain is untouched: a voided hand settled nothing."""
    rows = [
        VoidedHandSeat(hand=hand, user_id=p["user"], seat=p["seat"], table_id=hand.table_id,
                       stake_level_id=table.stake_level_id, number=hand.number,
                       voided_at=hand.finished_at or timezone.now(), reason=reason[:200])
        for p in hand.players
    ]
    return VoidedHandSeat.objects.bulk_create(rows)
