"""A bare date in an export's filter is the whole day in the site's time zone (UTC), ``until``
included, in every format, through the API and the ``export_hands`` command."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import tomllib
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from history.models import HandRecord
from tests.history.conftest import records_of

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 12, 4)
MIDNIGHT = dt.datetime(2026, 12, 4, 0, 0, 0, tzinfo=dt.UTC)
LAST_MOMENT = dt.datetime(2026, 12, 4, 23, 59, 59, 999_000, tzinfo=dt.UTC)
#: Hands finished at the day's two edges, and just outside them.
FINISHES = [MIDNIGHT - dt.timedelta(milliseconds=1), MIDNIGHT, LAST_MOMENT, LAST_MOMENT + dt.timedelta(milliseconds=1)]


@pytest.fixture
def edges(live: Any, people: dict[str, Any]) -> dict[str, Any]:
    """Four 十三张 hands, each played out by its players at one instant of FINISHES."""
    table = live("thirteen", "", 2, seed=7)
    for moment in FINISHES:
        table.clock.move_to(moment, tick=False)
        hand = table.play_hand(auto_rate=0.0)
        assert hand is not None and hand.finished_at == moment
    records = records_of(table.table)
    assert [r.finished_at for r in records] == FINISHES
    return {**people, "player": table.users[0], "records": records}


def hand_ids(fmt: str, text: str) -> list[int]:
    if fmt == "jsonl":
        return [json.loads(line)["hand"]["id"] for line in text.splitlines()]
    if fmt == "text":
        return [int(key) for key in tomllib.loads(text)]
    return list(dict.fromkeys(int(row["hand_id"]) for row in csv.DictReader(io.StringIO(text))))


def exported(client: Client, name: str, fmt: str, **params: str) -> str:
    response = client.get(reverse(name), {"format": fmt, **params})
    assert response.status_code == 200, response
    return b"".join(response.streaming_content).decode()


def by_command(fmt: str, *args: str) -> str:
    out = io.StringIO()
    call_command("export_hands", "--format", fmt, *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["jsonl", "text", "csv"])
def test_one_bare_date_exports_every_hand_of_that_day_and_no_other(edges: dict[str, Any], client: Client,
                                                                   fmt: str) -> None:
    inside = [r.hand_id for r in edges["records"][1:3]]
    day = DAY.isoformat()
    client.force_login(edges["auditor"])
    assert hand_ids(fmt, exported(client, "api-history-export", fmt, since=day, until=day)) == inside
    assert hand_ids(fmt, by_command(fmt, "--since", day, "--until", day)) == inside
    client.force_login(edges["player"])
    assert hand_ids(fmt, exported(client, "api-history-my-export", fmt, since=day, until=day)) == inside


@pytest.mark.parametrize("fmt", ["jsonl", "text", "csv"])
def test_until_a_date_includes_its_last_millisecond_and_since_a_date_its_first(edges: dict[str, Any],
                                                                                client: Client, fmt: str) -> None:
    ids = [r.hand_id for r in edges["records"]]
    client.force_login(edges["auditor"])
    assert hand_ids(fmt, exported(client, "api-history-export", fmt, until=DAY.isoformat())) == ids[:3]
    assert hand_ids(fmt, exported(client, "api-history-export", fmt, since=DAY.isoformat())) == ids[1:]
    assert hand_ids(fmt, by_command(fmt, "--until", DAY.isoformat())) == ids[:3]
    assert hand_ids(fmt, by_command(fmt, "--since", DAY.isoformat())) == ids[1:]


def test_a_date_time_until_stays_exclusive_and_a_naive_one_is_read_in_utc(edges: dict[str, Any],
                                                                          client: Client) -> None:
    ids = [r.hand_id for r in edges["records"]]
    client.force_login(edges["auditor"])
    assert hand_ids("jsonl", exported(client, "api-history-export", "jsonl", until="2026-12-04T00:00:00")) == ids[:1]
    assert hand_ids("jsonl", exported(client, "api-history-export", "jsonl",
                                      since="2026-12-04T23:59:59.999+00:00")) == ids[2:]
    assert hand_ids("jsonl", exported(client, "api-history-export", "jsonl",
                                      since="2026-12-05T07:59:59.999+08:00", until="2026-12-05T08:00:00.001+08:00")
                    ) == ids[2:]
    assert timezone.get_default_timezone_name() == "UTC"


@pytest.mark.parametrize("value", ["2026-02-30", "2026-12-04T25:00", "9999-12-31", "soon", "2026-13-01"])
def test_an_impossible_date_is_a_clear_error_and_never_a_server_error(edges: dict[str, Any], client: Client,
                                                                     value: str) -> None:
    auditor = edges["auditor"]
    auditor.language = "en"
    auditor.save(update_fields=["language"])
    client.force_login(auditor)
    for name in ("api-history-export", "api-history-my-export", "api-history-hands"):
        response = client.get(reverse(name), {"since": "2026-01-01", "until": value})
        if value == "9999-12-31":  # the calendar's last day is a day like any other
            assert response.status_code == 200
            b"".join(getattr(response, "streaming_content", []))  # a download read to its end frees its place
            continue
        assert response.status_code == 400
        assert response.json()["until"] == ["Expected a date (2026-01-31) or a date and time (2026-01-31T12:00:00Z)."]
    assert HandRecord.objects.count() == len(FINISHES)


def test_an_empty_day_from_the_my_hands_form_is_no_limit(edges: dict[str, Any], client: Client) -> None:
    client.force_login(edges["player"])
    ids = [r.hand_id for r in edges["records"]]
    assert hand_ids("csv", exported(client, "api-history-my-export", "csv", since="", until="")) == ids
    assert hand_ids("csv", exported(client, "api-history-my-export", "csv", since="", until=DAY.isoformat())) == ids[:3]
