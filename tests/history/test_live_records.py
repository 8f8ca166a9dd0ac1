"""Hands of every game played through the live services are recorded at settlement, exported
through the auditors' API and pass ``python -m games verify``; tampering is caught and named."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.engine import cli
from games.engine.cards import cards_str
from games.engine.deck import commitment
from games.engine.record import GENESIS, record_hash
from games.engine.verify import verify_lines
from games.models import Hand, HandAction
from history.models import HandRecord, HandRecordSeat, ImmutableRecord
from tests.history.conftest import CASES, records_of

pytestmark = pytest.mark.django_db


def auditor_export(client: Client, auditor: Any, **params: Any) -> list[dict[str, Any]]:
    client.force_login(auditor)
    response = client.get(reverse("api-history-export"), {"format": "jsonl", **params})
    assert response.status_code == 200
    assert response.streaming
    text = b"".join(response.streaming_content).decode()
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("game,mode,players", CASES)
def test_every_game_played_live_is_recorded_and_its_export_verifies(
    game: str, mode: str, players: int, live: Any, people: Any, client: Client, tmp_path: Path
) -> None:
    table = live(game, mode, players, seed=players)
    hands = table.play(3)
    assert len(hands) >= 2, "the table should deal at least two hands"
    assert all(h.status == Hand.Status.SETTLED for h in hands)
    records = records_of(table.table)
    assert [r.hand_id for r in records] == [h.pk for h in hands]
    assert [r.chain_seq for r in records] == list(range(1, len(hands) + 1))
    exported = auditor_export(client, people["auditor"], table=table.table.pk)
    assert [e["hash"] for e in exported] == [r.hash for r in records]
    report = verify_lines(json.dumps(e) for e in exported)
    assert report.problems == [] and report.records == len(hands)
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in exported))
    out = io.StringIO()
    assert cli.main(["verify", str(path)], stdout=out) == 0, out.getvalue()
    call_command("ledger_check", stdout=io.StringIO())


def test_the_record_holds_the_whole_hand(live: Any) -> None:
    table = live("thirteen", "", 4, seed=7)
    hand = table.play_hand(auto_rate=0.5)
    record = HandRecord.objects.get(hand=hand)
    body = record.body
    level = table.table.stake_level
    assert body["game"] == "thirteen" and body["rules"] == hand.state["rules"] and body["rules"]["unit"] == level.unit
    assert body["rule_set"].startswith("thirteen/") and len(body["rule_set"]) == len("thirteen/") + 16
    assert body["hand"]["table"] == table.table.pk and body["hand"]["stake_level"] == level.pk
    assert body["hand"]["number"] == hand.number and body["hand"]["stake_level_name"] == level.name
    assert [p["user"] for p in body["players"]] == [u.pk for u in table.users]
    assert body["fairness"] == {"commitment": commitment(hand.server_seed), "server_seed": hand.server_seed,
                                "client_seeds": []}
    assert [s["cards"] for s in body["seats"]] == [cards_str(s["cards"]) for s in hand.state["seats"]]
    logged = list(HandAction.objects.filter(hand=hand).order_by("seq"))
    assert [(a["seq"], a["auto"], a["seat"]) for a in body["actions"]] == [(a.seq, a.auto, a.seat) for a in logged]
    assert all(a["at"] for a in body["actions"])
    assert body["result"] == hand.result
    assert body["result"]["coins"] == [s.coins for s in HandRecordSeat.objects.filter(record=record)]
    assert body["house_lines"].get("commission", 0) == hand.result["commission"]
    assert body["ledger_transaction"] == hand.ledger_transaction_id == record.ledger_transaction_id
    assert body["chain"] == {"seq": 1, "prev": GENESIS}
    assert record.hash == record_hash(body) and record.prev_hash == GENESIS


def test_the_trio_record_holds_the_jackpot_card_and_the_penalty(live: Any) -> None:
    table = live("thirteen_trio", "", 3, seed=11)
    table.disconnects = 0.3
    hands = table.play(6)
    bodies = [r.body for r in records_of(table.table)]
    assert len(bodies) == len(hands) >= 3
    for body, hand in zip(bodies, hands, strict=True):
        assert body["jackpot"] and body["head"] == hand.state["head"] and len(body["seats"][0]["cards"]) == 17
    assert any(a["action"]["type"] == "disconnect" for b in bodies for a in b["actions"]), "a seat disconnected"
    penalized = [b for b in bodies if b["result"].get("penalty")]
    assert penalized and all(b["house_lines"].get("penalty") == b["result"]["penalty"]["house"] for b in penalized)


def test_records_chain_per_table(live: Any) -> None:
    one, two = live("thirteen", "", 2, seed=3), live("thirteen", "", 2, seed=4)
    one.play(2), two.play(2), one.play(1)
    for table in (one, two):
        records = records_of(table.table)
        assert records[0].prev_hash == GENESIS
        assert all(b.prev_hash == a.hash and b.body["chain"]["prev"] == a.hash for a, b in zip(records, records[1:], strict=False))


def test_records_refuse_update_and_delete_in_python(live: Any) -> None:
    table = live("samgong", "pairwise", 2, seed=5)
    table.play_hand()
    record = HandRecord.objects.get(table=table.table)
    record.canonical = record.canonical.replace('"number":1', '"number":2')
    with pytest.raises(ImmutableRecord):
        record.save()
    with pytest.raises(ImmutableRecord):
        record.delete()
    with pytest.raises(ImmutableRecord):
        HandRecord.objects.filter(pk=record.pk).update(number=9)
    with pytest.raises(ImmutableRecord):
        HandRecord.objects.filter(pk=record.pk).delete()
    with pytest.raises(ImmutableRecord):
        HandRecordSeat.objects.filter(record=record).update(coins=0)
    assert HandRecord.objects.get(pk=record.pk).body["hand"]["number"] == 1


def test_the_database_refuses_to_update_a_record(live: Any) -> None:
    from django.db import DatabaseError, transaction

    table = live("samgong", "pairwise", 2, seed=6)
    table.play_hand()
    record = HandRecord.objects.get(table=table.table)
    for sql in ("UPDATE history_handrecord SET number = 9 WHERE id = %s",
                "UPDATE history_handrecordseat SET coins = 0 WHERE record_id = %s"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [record.pk])


@pytest.mark.postgres
def test_postgres_refuses_to_delete_a_record(live: Any) -> None:
    from django.db import DatabaseError, transaction

    table = live("samgong", "pairwise", 2, seed=6)
    table.play_hand()
    record = HandRecord.objects.get(table=table.table)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM history_handrecordseat WHERE record_id = %s", [record.pk])
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM history_handrecord WHERE id = %s", [record.pk])


def test_recording_twice_keeps_one_record(live: Any) -> None:
    from history.services import hand_record_write

    table = live("thirteen", "", 2, seed=8)
    hand = table.play_hand()
    first = HandRecord.objects.get(hand=hand)
    assert hand_record_write(hand=hand) == first
    assert HandRecord.objects.filter(table=table.table).count() == 1


def test_tampering_with_a_live_export_is_caught_and_named(live: Any, people: Any, client: Client) -> None:
    samgong, trio = live("samgong", "banker_bid", 4, seed=9), live("thirteen_trio", "", 3, seed=10)
    samgong.play(3), trio.play(3)
    exported = auditor_export(client, people["auditor"])
    assert verify_lines(json.dumps(e) for e in exported).problems == []

    def problems(records: list[dict[str, Any]]) -> set[tuple[int, str]]:
        return {(p.line, p.field) for p in verify_lines(json.dumps(r) for r in records).problems}

    changed = json.loads(json.dumps(exported))
    seat = changed[0]["seats"][1]
    seat["cards"][0], changed[0]["seats"][2]["cards"][0] = changed[0]["seats"][2]["cards"][0], seat["cards"][0]
    assert {(1, "hash"), (1, "seats[1].cards"), (1, "seats[2].cards")} <= problems(changed)

    changed = json.loads(json.dumps(exported))
    changed[-1]["result"]["coins"][0] += 100
    assert (len(changed), "result.coins") in problems(changed)

    changed = json.loads(json.dumps(exported))
    samgong_lines = [i for i, r in enumerate(changed) if r["game"] == "samgong"]
    a, b = samgong_lines[0], samgong_lines[1]
    changed[a], changed[b] = changed[b], changed[a]
    assert any(field == "chain.seq" for _, field in problems(changed))

    changed = json.loads(json.dumps(exported))
    del changed[samgong_lines[1]]
    found = verify_lines(json.dumps(r) for r in changed).problems
    assert [(p.field, "record 2 of this table is missing" in p.message) for p in found] == [("chain.seq", True)]
