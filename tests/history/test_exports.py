"""Export formats (JSON Lines, PHH-style text, CSV), filters, the command, the admin action and streaming."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.management import CommandError, call_command
from django.test import AsyncRequestFactory, Client
from django.urls import reverse
from django.utils import timezone

from games.engine.cli import dispatch
from games.engine.verify import verify_lines
from history.exports.stream import export_lines, export_response
from history.models import HandRecord
from history.selectors import RecordFilter, hand_record_filter
from tests.history.conftest import records_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(live: Any) -> dict[str, Any]:
    """Three tables: 十三张 (3 players), the trio and 三公 banker bid, two or three hands each."""
    out = {"thirteen": live("thirteen", "", 3, seed=41), "trio": live("thirteen_trio", "", 3, seed=42),
           "samgong": live("samgong", "banker_bid", 4, seed=43)}
    for table in out.values():
        table.play(3)
    return out


def command(*args: str) -> str:
    out = io.StringIO()
    call_command("export_hands", *args, stdout=out)
    return out.getvalue()


def test_jsonl_lines_are_score_requests_of_their_game(tables: dict[str, Any]) -> None:
    lines = [json.loads(line) for line in command().splitlines()]
    assert len(lines) == HandRecord.objects.count()
    for line in lines:
        answer = dispatch("score", line)
        coins = line["result"]["gross"] if line["game"] == "samgong" else line["result"]["coins"]
        if line["game"] == "thirteen_trio" and line["result"].get("penalty"):
            coins = [c - p for c, p in zip(coins, line["result"]["penalty"]["coins"], strict=True)]
        assert answer["coins"] == coins


def test_the_text_form_is_one_toml_document_in_the_phh_shape(tables: dict[str, Any]) -> None:
    text = command("--format", "text")
    hands = tomllib.loads(text)
    records = {r.hand_id: r for r in HandRecord.objects.all()}
    assert {int(k) for k in hands} == set(records)
    for hand_id, hand in hands.items():
        body = records[int(hand_id)].body
        assert hand["variant"] in ("CT", "CT3", "SG-BB") and hand["players"] == [p["name"] for p in body["players"]]
        assert hand["starting_stacks"] == body["stacks"] and hand["_coins"] == body["result"]["coins"]
        assert hand["_hash"] == records[int(hand_id)].hash and hand["_server_seed"] == body["fairness"]["server_seed"]
        moves = [a for a in hand["actions"] if not a.startswith("d ")]
        assert len(moves) == len(body["actions"]), "one actor-prefixed line per logged action"
        assert all(m.split()[0] == f"p{a['seat'] + 1}" for m, a in zip(moves, body["actions"], strict=True))
        assert all(m.endswith(" auto") == a["auto"] for m, a in zip(moves, body["actions"], strict=True))
        dealt = [a for a in hand["actions"] if a.startswith("d dh ")]
        assert len(dealt) == len(body["players"])


def test_the_csv_summary_has_one_row_per_seat_per_hand(tables: dict[str, Any]) -> None:
    rows = list(csv.DictReader(io.StringIO(command("--format", "csv"))))
    records = list(HandRecord.objects.all())
    assert len(rows) == sum(len(r.body["players"]) for r in records)
    by_hand: dict[int, list[dict[str, str]]] = {}
    for row in rows:
        by_hand.setdefault(int(row["hand_id"]), []).append(row)
    for record in records:
        body = record.body
        mine = by_hand[record.hand_id]
        assert [int(r["coins"]) for r in mine] == body["result"]["coins"]
        assert [int(r["user_id"]) for r in mine] == [p["user"] for p in body["players"]]
        assert sum(int(r["coins"]) for r in mine) + sum(body["house_lines"].values()) == 0
        assert {r["hash"] for r in mine} == {record.hash}


def test_the_command_filters_and_writes_a_file(tables: dict[str, Any], tmp_path: Path) -> None:
    trio = tables["trio"]
    out = tmp_path / "trio.jsonl"
    call_command("export_hands", "--game", "thirteen_trio", "--output", str(out), stderr=io.StringIO())
    lines = out.read_text().splitlines()
    assert len(lines) == len(records_of(trio.table)) and all('"game":"thirteen_trio"' in line for line in lines)
    assert verify_lines(lines).problems == []
    player = tables["samgong"].users[0]
    mine = command("--player", player.username).splitlines()
    assert {json.loads(line)["hand"]["table"] for line in mine} == {tables["samgong"].table.pk}
    assert verify_lines(mine, partial=True).problems == []
    level = tables["thirteen"].table.stake_level_id
    assert len(command("--stake-level", str(level)).splitlines()) == len(records_of(tables["thirteen"].table))
    assert command("--table", str(trio.table.pk)).splitlines() == lines
    tomorrow = (timezone.now() + dt.timedelta(days=1)).date().isoformat()
    assert command("--since", tomorrow) == ""
    assert len(command("--until", tomorrow).splitlines()) == HandRecord.objects.count()
    with pytest.raises(CommandError):
        command("--player", "nobody-by-that-name")
    with pytest.raises(CommandError):
        command("--since", "last tuesday")


def test_auditor_api_filters_by_date_game_stake_table_and_player(tables: dict[str, Any], people: Any,
                                                                 client: Client) -> None:
    client.force_login(people["auditor"])

    def hands(**params: Any) -> list[int]:
        response = client.get(reverse("api-history-export"), params)
        assert response.status_code == 200, response
        return [json.loads(line)["hand"]["id"] for line in b"".join(response.streaming_content).decode().splitlines()]

    everything = hands()
    assert everything == sorted(everything) and len(everything) == HandRecord.objects.count()
    samgong = tables["samgong"]
    assert hands(game="samgong") == [r.hand_id for r in records_of(samgong.table)]
    assert hands(table=samgong.table.pk, player=samgong.users[1].pk) == [r.hand_id for r in records_of(samgong.table)]
    assert hands(stake_level=tables["trio"].table.stake_level_id) == [r.hand_id for r in records_of(tables["trio"].table)]
    last = HandRecord.objects.order_by("id").last()
    assert last is not None
    assert hands(since=last.finished_at.isoformat()) == [last.hand_id]
    assert hands(until=last.finished_at.isoformat()) == everything[:-1]
    assert client.get(reverse("api-history-export"), {"since": "soon"}).status_code == 400
    assert client.get(reverse("api-history-export"), {"format": "pdf"}).status_code == 400
    text = client.get(reverse("api-history-export"), {"format": "csv"})
    assert text["Content-Type"].startswith("text/csv") and 'filename="hands.csv"' in text["Content-Disposition"]


def test_admin_action_streams_the_selected_records(tables: dict[str, Any], people: Any, client: Client) -> None:
    client.force_login(people["auditor"])
    chosen = [r.pk for r in records_of(tables["trio"].table)]
    url = reverse("admin:history_handrecord_changelist")
    assert client.get(url).status_code == 200
    response = client.post(url, {"action": "export_jsonl", "_selected_action": chosen})
    assert response.status_code == 200 and response.streaming
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert [json.loads(line)["hand"]["id"] for line in lines] == [r.hand_id for r in records_of(tables["trio"].table)]
    record = HandRecord.objects.get(pk=chosen[0])
    page = client.get(reverse("admin:history_handrecord_change", args=[record.pk])).content.decode()
    every_card = {c for s in record.body["seats"] for c in s["cards"]}
    assert all(f'title="{c}"' in page for c in every_card), "the complete replay: every seat's 17 cards"
    assert record.body["fairness"]["server_seed"] in page
    assert 'name="_save"' not in page, "records are read-only, even for staff"


def test_under_asgi_the_export_is_an_async_stream(tables: dict[str, Any], make_user: Any) -> None:
    request = AsyncRequestFactory().get("/api/history/export/")
    request.user = make_user("auditor")
    records = hand_record_filter(RecordFilter())
    response = export_response(request, export_lines(records, "jsonl"), fmt="jsonl", filename="hands")
    assert response.is_async

    async def read() -> list[bytes]:
        return [piece async for piece in response.streaming_content]  # type: ignore[union-attr]

    text = b"".join(async_to_sync(read)()).decode()
    assert len(text.splitlines()) == HandRecord.objects.count()
    assert verify_lines(text.splitlines()).problems == []


def test_exports_read_rows_in_chunks_never_the_whole_result(
    tables: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from history.exports import stream

    monkeypatch.setattr(stream, "CHUNK_ROWS", 2)
    with CaptureQueriesContext(connection) as queries:
        lines = list(export_lines(hand_record_filter(RecordFilter()), "jsonl"))
    assert len(lines) == HandRecord.objects.count() > 4
    reads = [q["sql"] for q in queries if "history_handrecord" in q["sql"]]
    assert len(reads) == len(lines) // 2 + 1, "rows are fetched in chunks, never as a whole list"
    assert all("LIMIT 2" in sql for sql in reads)
