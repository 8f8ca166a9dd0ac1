"""Writing a record: the text and hash are exactly what the record's first way of writing gave
(the ORM's reads, ``record_body`` and its JSON round trip, ``seal``); on PostgreSQL it takes two
statements and no savepoint, with or without the caller's table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.adapters import house_lines
from games.engine.record import GENESIS, record_body, record_hash, record_parts, seal
from games.models import Hand, HandAction
from games.services import settlement
from history import services
from history.models import HandRecord, HandRecordSeat
from tables.models import Table
from tests.history.conftest import CASES, records_of

pytestmark = pytest.mark.django_db
CONTROL = re.compile(r"^\s*(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\b", re.I)


def _iso(moment: Any) -> Any:
    return None if moment is None else moment.isoformat()


def _first_way_inputs(hand: Hand, seq: int, prev: str) -> dict[str, Any]:
    """record_body's arguments as hand_record_write first read them, each through the ORM."""
    table = Table.objects.select_related("stake_level").get(pk=hand.table_id)
    level = table.stake_level
    return {
        "game": hand.game,
        "hand": {"id": hand.pk, "table": table.pk, "table_name": table.name, "number": hand.number,
                 "stake_level": level.pk, "stake_level_name": level.name, "mode": level.mode,
                 "started_at": _iso(hand.started_at), "finished_at": _iso(hand.finished_at)},
        "players": [{"seat": i, "table_seat": p["seat"], "user": p["user"], "name": p["name"]}
                    for i, p in enumerate(hand.players)],
        "fairness": {"commitment": hand.commitment, "server_seed": hand.server_seed, "client_seeds": hand.client_seeds},
        "state": hand.state, "result": hand.result or {},
        "actions": [{"seq": a.seq, "seat": a.seat, "user": a.user_id, "at": _iso(a.at), "auto": a.auto,
                     "action": a.action} for a in HandAction.objects.filter(hand=hand).order_by("seq")],
        "house_lines": house_lines(hand.game, hand.result), "ledger_transaction": hand.ledger_transaction_id,
        "chain": {"seq": seq, "prev": prev},
    }


def _as_first_written(hand: Hand, seq: int, prev: str) -> tuple[str, str]:
    """The record as hand_record_write first wrote it: record_body (with its JSON round trip), then seal."""
    return seal(record_body(**_first_way_inputs(hand, seq, prev)))


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The settlement's record writes and their statements."""
    seen: dict[str, Any] = {"statements": []}
    real = services.hand_record_write

    def write(**kwargs: Any) -> HandRecord:
        with CaptureQueriesContext(connection) as ctx:
            record = real(**kwargs)
        seen["statements"].append([q["sql"] for q in ctx.captured_queries])
        return record

    monkeypatch.setattr(settlement, "hand_record_write", write)
    return seen


@pytest.mark.parametrize("game,mode,players", CASES)
def test_records_are_the_text_and_hash_the_first_way_of_writing_gave(
    game: str, mode: str, players: int, live: Any, counted: dict[str, Any]
) -> None:
    table = live(game, mode, players, seed=players + 20)
    hands = table.play(3)
    records = records_of(table.table)
    assert len(records) == len(hands) >= 2
    prev = GENESIS
    for record, hand in zip(records, hands, strict=True):
        hand = Hand.objects.get(pk=hand.pk)
        assert (record.canonical, record.hash) == _as_first_written(hand, record.chain_seq, prev)
        assert record.hash == record_hash(record.body) and record.prev_hash == prev
        assert [(s.seat, s.user_id, s.coins) for s in HandRecordSeat.objects.filter(record=record).order_by("seat")] \
            == [(i, p["user"], c) for i, (p, c) in enumerate(zip(hand.players, hand.result["coins"], strict=True))]
        assert (record.stake_level_id, record.number, record.finished_at) == (
            table.table.stake_level_id, hand.number, hand.finished_at)
        prev = record.hash
    if connection.vendor == "postgresql":
        assert all(len(sql) == 2 and not any(CONTROL.match(s) for s in sql) for sql in counted["statements"]), \
            counted["statements"]


def test_keys_that_are_not_strings_are_sealed_as_record_body_seals_them(live: Any) -> None:
    """An engine part keyed by ints sorts otherwise once a reader has them as strings: the
    record then takes record_body's round trip, and its text is still the first way's."""
    table = live("thirteen", "", 2, seed=31)
    hand = Hand.objects.get(pk=table.play(1)[0].pk)
    hand.result = {**hand.result, "by_seat": {10: "a", 9: "b"}}
    table_row, level = table.table, table.table.stake_level
    inputs = _first_way_inputs(hand, 5, "ab" * 32)
    sealed = services._seal(hand, (table_row.name, level.pk, level.name, level.mode), inputs["actions"],
                            inputs["house_lines"], 5, "ab" * 32)
    assert sealed == _as_first_written(hand, 5, "ab" * 32)
    assert seal(record_parts(**inputs))[0] != sealed[0]  # without the round trip the text would differ
    assert '"by_seat":{"10":"a","9":"b"}' in sealed[0]


def test_a_recorded_hand_is_returned_and_nothing_is_written_again(live: Any) -> None:
    table = live("samgong", "banker_bid", 4, seed=32)
    hand = table.play(1)[0]
    first = HandRecord.objects.get(hand=hand)
    again = services.hand_record_write(hand=hand)
    assert again == first and again.canonical == first.canonical
    assert HandRecord.objects.filter(table=table.table).count() == 1
    with pytest.raises(ValueError, match="house lines are needed"):
        services.hand_record_write(hand=Hand(pk=10**9, table_id=hand.table_id))
