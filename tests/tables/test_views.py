"""The table page and the lobby's data for a closed table: the page still opens and says the
table is closed (no seat to take), its frames and its lobby summary carry ``closed``."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import User
from games.frames import frame_for
from games.services.seating import table_close
from tables.models import Table
from tables.selectors import table_list_by_ids, table_summary
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db


def _closed_table() -> Table:
    table = table_at("samgong", "all_compare")
    staff = User.objects.create_user(username="closer", password="x" * 12, is_staff=True)
    table_close(table_id=table.pk, actor=staff, reason="maintenance")
    return table


def test_a_closed_tables_page_opens_and_tells_its_script_the_table_is_closed() -> None:
    table = _closed_table()
    client = Client()
    client.force_login(funded_user("viewer", 100_000))
    response = client.get(f"/tables/{table.pk}/")
    assert response.status_code == 200
    assert response.context["config"]["closed"] is True
    assert 'data-testid="table-closed"' in response.content.decode()


def test_an_open_tables_page_is_not_marked_closed() -> None:
    table = table_at("samgong", "all_compare")
    assert Client().get(f"/tables/{table.pk}/").context["config"]["closed"] is False


def test_a_closed_tables_frame_and_lobby_summary_say_closed() -> None:
    table = _closed_table()
    open_table = table_at("thirteen")
    assert frame_for(table.pk, None)["closed"] is True
    assert frame_for(open_table.pk, None)["closed"] is False
    summaries = {s["id"]: s for s in map(table_summary, table_list_by_ids([table.pk, open_table.pk]))}
    assert (summaries[table.pk]["closed"], summaries[open_table.pk]["closed"]) == (True, False)
    json.dumps(summaries)  # what the lobby socket sends
