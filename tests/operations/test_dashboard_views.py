"""The dashboard page in each language: every game, mode, house account and transaction kind
by its translated label (no code shows), amounts in coins, the charts with their axes; and its
CSV, whose figures are the ledger's."""

import csv
import io
import itertools
import re
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import translation

from accounts.models import User
from games.engine.registry import games
from games.services import hands as hands_service
from operations import selectors
from tests.factories import ensure_stake_levels
from tests.operations.every_game import NOW, Ledger, ledger_of_every_game

pytestmark = pytest.mark.django_db
URL = "/admin/operations/staffaction/dashboard/"
CODES = ["samgong", "thirteen_trio", "all_compare", "banker_bid", "banker_rotate", "pairwise", "dispute_compensation",
         "issuance", "settlement"]


@pytest.fixture
def ledger(monkeypatch: pytest.MonkeyPatch) -> Ledger:
    deals = itertools.count(1)
    monkeypatch.setattr(hands_service, "new_server_seed", lambda: f"{next(deals):064x}")
    ensure_stake_levels()
    return ledger_of_every_game()


def _page(people: dict[str, Any], lang: str, path: str = URL) -> str:
    auditor: User = people["auditor"]
    auditor.language = lang
    auditor.save(update_fields=["language"])
    client = Client()
    client.force_login(auditor)
    with time_machine.travel(NOW, tick=False):
        response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("lang", ["zh-hans", "zh-hant", "en"])
def test_every_label_is_in_the_page_language(ledger: Ledger, people: dict[str, Any], lang: str) -> None:
    page = _page(people, lang)
    text = re.sub(r"<[^>]+>", " ", page)
    for code in CODES if lang != "en" else [c for c in CODES if "_" in c]:  # English words are English
        assert not re.search(rf"\b{code}\b", text), code
    with translation.override(lang):
        for engine in games():
            assert str(translation.gettext(engine.label)) in text
            for mode, label in engine.modes.items():
                assert not mode or translation.gettext(label) in text
        for words in ("Every coin the house took or paid", "hour", "hands", "coins", "dispute compensation",
                      "house-banked games", "penalties"):
            assert translation.gettext(words) in text, words
    assert page.count('<svg class="ops-chart"') == 3 and page.count('class="ops-axis"') == 6
    assert 'class="ops-axis-title ops-y-title"' in page and 'class="ops-value"' in page


def test_the_csv_gives_the_figures_by_their_codes(ledger: Ledger, people: dict[str, Any]) -> None:
    rows = list(csv.DictReader(io.StringIO(_page(people, "zh-hans", URL.replace("/dashboard/", "/dashboard.csv")))))
    board = selectors.dashboard(days=7, now=NOW)
    hands = {(r["game"], r["mode"]): int(r["value"]) for r in rows if r["figure"] == "hands_by_level"}
    assert hands == {(engine.name, mode): 2 for engine in games() for mode in engine.modes}
    by_kind = {(r["house"], r["kind"]): int(r["value"]) for r in rows if r["figure"] == "house_by_kind"}
    assert by_kind == {(h, k): c for h, k, c in board.house_money}
    assert [int(r["value"]) for r in rows if r["figure"] == "house_net"] == [board.house_net]
    assert len([r for r in rows if r["figure"] == "hands_per_hour"]) == 24
