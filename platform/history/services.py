"""Writing hand records: once per settled hand, inside the settlement's transaction."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction

from games.engine.record import GENESIS, record_body, seal
from games.models import Hand, HandAction
from history.models import HandRecord, HandRecordSeat
from tables.models import Table


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _actions(hand: Hand) -> list[dict[str, Any]]:
    rows = HandAction.objects.filter(hand=hand).order_by("seq")
    return [
        {"seq": a.seq, "seat": a.seat, "user": a.user_id, "at": iso(a.at), "auto": a.auto, "action": a.action}
        for a in rows
    ]


def _hand_meta(hand: Hand, table: Table) -> dict[str, Any]:
    level = table.stake_level
    return {
        "id": hand.pk, "table": table.pk, "table_name": table.name, "number": hand.number,
        "stake_level": level.pk, "stake_level_name": level.name, "mode": level.mode,
        "started_at": iso(hand.started_at), "finished_at": iso(hand.finished_at),
    }


def _players(hand: Hand) -> list[dict[str, Any]]:
    return [
        {"seat": i, "table_seat": p["seat"], "user": p["user"], "name": p["name"]} for i, p in enumerate(hand.players)
    ]


@transaction.atomic
def hand_record_write(*, hand: Hand, house_lines: Mapping[str, int] | None = None) -> HandRecord:
    """Write the immutable record of a settled hand (called by ``games.services.settlement``).

    ``house_lines`` is the house's side of the settlement as the settlement posted it; it is
    needed to write a new record (a hand already recorded is returned without it).

    1. Idempotent: a hand already recorded returns its record.
    2. The caller holds the table's row lock, so reading the table's last record and
       appending the next one cannot race; the UNIQUE (table, chain_seq) backs that.
    3. The body (games.engine.record) is sealed as canonical JSON and its SHA-256, which covers
       the previous record's hash; the seat rows index it by player.
    """
    existing = HandRecord.objects.filter(hand_id=hand.pk).first()
    if existing is not None:
        return existing
    if house_lines is None:
        raise ValueError(f"hand {hand.pk} is not recorded yet: its house lines are needed to record it")
    table = Table.objects.select_related("stake_level").get(pk=hand.table_id)
    last = HandRecord.objects.filter(table=table).order_by("-chain_seq").values_list("chain_seq", "hash").first()
    seq, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
    result = hand.result or {}
    body = record_body(
        game=hand.game, hand=_hand_meta(hand, table), players=_players(hand),
        fairness={"commitment": hand.commitment, "server_seed": hand.server_seed, "client_seeds": hand.client_seeds},
        state=hand.state, result=result, actions=_actions(hand), house_lines=house_lines,
        ledger_transaction=hand.ledger_transaction_id, chain={"seq": seq, "prev": prev},
    )
    canonical, digest = seal(body)
    record = HandRecord.objects.create(
        hand=hand, table=table, stake_level=table.stake_level, game=hand.game, number=hand.number, chain_seq=seq,
        prev_hash=prev, hash=digest, canonical=canonical, started_at=hand.started_at,
        finished_at=hand.finished_at or hand.started_at, ledger_transaction_id=hand.ledger_transaction_id,
    )
    coins = result.get("coins") or [0] * len(hand.players)
    HandRecordSeat.objects.bulk_create([
        HandRecordSeat(record=record, user_id=p["user"], seat=i, coins=int(c))
        for i, (p, c) in enumerate(zip(hand.players, coins, strict=True))
    ])
    return record
