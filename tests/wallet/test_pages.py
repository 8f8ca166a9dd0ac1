"""Player pages and API: balance, statement with filters and pages, streamed CSV; own data only."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from tests.wallet.conftest import key
from wallet import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def lin_history(player, seated):
    """lin: a grant on 1 March, a buy-in and a won hand on 2 March; bo: a grant of his own."""
    with time_machine.travel(dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC), tick=False):
        lin = player("lin", coins=10_000)
    with time_machine.travel(dt.datetime(2026, 3, 2, 12, tzinfo=dt.UTC), tick=False):
        services.wallet_buy_in(user=lin, table_ref="t9", amount=3_000, minimum=1, idempotency_key=key())
        bo = seated("rivalbo", table="t9", table_money=2_000)
        services.wallet_settle_hand(hand_ref="hand:41", table_ref="t9", deltas={lin.pk: 950, bo.pk: -1_000},
                                    house={"commission": 50}, idempotency_key=key(), memo="=HYPERLINK(evil)")
    return lin, bo


def test_wallet_page_shows_balance_table_money_and_statement(client: Client, lin_history) -> None:
    lin, _ = lin_history
    lin.language = "en"
    lin.save(update_fields=["language"])
    client.force_login(lin)
    page = client.get(reverse("wallet:wallet")).content.decode()
    assert '<strong data-testid="balance">70.00</strong>' in page
    assert "Table money, table t9: 39.50" in page
    assert "Hand result at table t9" in page and "9.50" in page and "-30.00" in page
    assert 'href="/history/hands/41/"' in page  # hand:41, linked by its hand id
    assert "Buy-in at table t9" in page and "Coins granted" in page
    assert "hand:41" not in page and "table:t9" not in page  # machine references stay in the CSV and the API
    assert "=HYPERLINK" not in page  # the system's memo of a settlement is not a person's words
    assert "How to get more coins" in page
    assert "rivalbo" not in page and "-10.00" not in page  # nothing of bo's


@pytest.mark.parametrize(("language", "words"), [
    ("zh-hans", ["牌桌 t9 牌局结算", "牌桌 t9 买入", "牌桌 t9 的桌上筹码", "如何获得更多金币"]),
    ("zh-hant", ["牌桌 t9 牌局結算", "牌桌 t9 買入", "牌桌 t9 的桌上籌碼", "如何獲得更多金幣"]),
])
def test_wallet_lines_are_worded_in_the_players_language(client: Client, lin_history, language, words) -> None:
    lin, _ = lin_history
    lin.language = language
    lin.save(update_fields=["language"])
    client.force_login(lin)
    page = client.get(reverse("wallet:wallet")).content.decode()
    assert [w for w in words if w not in page] == []
    statement = re.sub(r"<[^>]+>", " ", page[page.index("<tbody>"):page.index("</tbody>")])
    assert re.findall(r"\b(?:hand|table|grant|settlement|buy_in|wallet)\b", statement) == []


def test_wallet_page_requires_log_in(client: Client) -> None:
    response = client.get(reverse("wallet:wallet"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get(reverse("wallet:statement-csv")).status_code == 302
    assert client.get(reverse("api-wallet-balance")).status_code == 403


def test_statement_filters_by_kind_and_dates(client: Client, lin_history) -> None:
    lin, _ = lin_history
    client.force_login(lin)
    url = reverse("wallet:wallet")
    grants = client.get(url, {"kind": "grant"}).context["page"].object_list
    assert [e.transaction.kind for e in grants] == ["grant"]
    march_2 = client.get(url, {"since": "2026-03-02", "until": "2026-03-02"}).context["page"].object_list
    assert sorted(e.transaction.kind for e in march_2) == ["buy_in", "buy_in", "settlement"]
    march_1 = client.get(url, {"until": "2026-03-01"}).context["page"].object_list
    assert [e.transaction.kind for e in march_1] == ["grant"]
    bad = client.get(url, {"since": "2026-03-05", "until": "2026-03-01"})
    assert bad.context["form"].errors


def test_statement_is_paginated(client: Client, player) -> None:
    lin = player("lin")
    for _ in range(30):
        services.wallet_grant(user=lin, amount=1, idempotency_key=key(), actor=None)
    client.force_login(lin)
    first = client.get(reverse("wallet:wallet"), {"kind": "grant"})
    assert len(first.context["page"].object_list) == 25
    assert "kind=grant&amp;page=2" in first.content.decode()
    second = client.get(reverse("wallet:wallet"), {"kind": "grant", "page": 2})
    assert len(second.context["page"].object_list) == 5


def test_statement_csv_is_streamed_filtered_and_safe_for_spreadsheets(client: Client, lin_history) -> None:
    lin, _ = lin_history
    client.force_login(lin)
    response = client.get(reverse("wallet:statement-csv"), {"kind": "settlement"})
    assert response.streaming
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [(r["kind"], r["account"], r["table"], r["amount"], r["balance_after"]) for r in rows] == [
        ("settlement", "table", "t9", "9.50", "39.50")
    ]
    assert rows[0]["memo"] == "'=HYPERLINK(evil)"
    assert rows[0]["description"] == "牌桌 t9 牌局结算"  # the player's language; the codes in their own columns


def test_balance_api(client: Client, lin_history) -> None:
    lin, _ = lin_history
    client.force_login(lin)
    data = client.get(reverse("api-wallet-balance")).json()
    assert data == {"balance": 7_000, "balance_display": "70.00",
                    "table_money": [{"table_ref": "t9", "amount": 3_950, "amount_display": "39.50"}]}


def test_statement_api_shows_only_the_players_own_entries(client: Client, lin_history) -> None:
    lin, bo = lin_history
    client.force_login(bo)
    data = client.get(reverse("api-wallet-statement"), {"page_size": 2}).json()
    assert data["count"] == 4  # bo's grant, buy-in (wallet and table money) and loss; none of lin's
    assert data["next"] and len(data["results"]) == 2
    assert data["results"][0]["amount"] == -1_000 and data["results"][0]["amount_display"] == "-10.00"
    client.force_login(lin)
    settled = client.get(reverse("api-wallet-statement"), {"kind": "settlement"}).json()["results"]
    assert [(r["reference"], r["amount"], r["balance_after"]) for r in settled] == [("hand:41", 950, 3_950)]
    assert settled[0]["description"] == "牌桌 t9 牌局结算"


def test_statement_api_rejects_bad_filters(client: Client, player) -> None:
    client.force_login(player("lin"))
    response = client.get(reverse("api-wallet-statement"), {"kind": "bribe", "since": "yesterday"})
    assert response.status_code == 400
    assert set(response.json()) == {"kind", "since"}


def test_the_schema_documents_the_wallet_api(client: Client, player) -> None:
    client.force_login(player("lin"))
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()
    assert {"/api/wallet/balance/", "/api/wallet/statement/"} <= set(schema["paths"])
    names = {p["name"] for p in schema["paths"]["/api/wallet/statement/"]["get"]["parameters"]}
    assert {"kind", "since", "until", "page"} <= names
