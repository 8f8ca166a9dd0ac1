"""The "My hands" page (history/views.py): the seats stood up while the player was away, and
downloads that answer a refusal with a page message in the player's language, never an API
error body."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape

from accounts.models import User
from games.services.away import seats_away_stand_up
from games.services.seating import seat_join, seat_leave, seat_sit_out
from tables.models import Table
from tests.factories import funded_user, table_at
from tests.history.conftest import records_of
from wallet.money import format_coins
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db

BUSY = "Your previous export is still running: wait for it to finish, then try again."


def _signed_in(user: User, language: str) -> Client:
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def player(live: Any) -> User:
    table = live("thirteen", "", 2, seed=7)
    table.play(2)
    assert len(records_of(table.table)) == 2
    return table.users[0]


@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
def test_a_download_while_the_accounts_export_runs_leads_back_to_my_hands_saying_why(
    player: User, settings: Any, language: str
) -> None:
    settings.EXPORTS_PER_USER = 1
    client = _signed_in(player, language)
    first = client.get(reverse("history-export"), {"format": "csv"})
    assert first.status_code == 200 and first["Content-Disposition"].endswith('.csv"')

    refused = client.get(reverse("history-export"), {"format": "jsonl"}, follow=True)

    assert refused.redirect_chain == [(reverse("history-hands"), 302)]
    with translation.override(language):
        expected = translation.gettext(BUSY)
    assert (expected != BUSY) == (language != "en")
    page = refused.content.decode()
    assert expected in page and "<h1>" in page
    b"".join(first.streaming_content)  # the first export read to its end frees its place
    again = client.get(reverse("history-export"), {"format": "csv"})
    assert again.status_code == 200 and b"".join(again.streaming_content)


@pytest.mark.parametrize("query", [{"since": "yesterday"}, {"format": "pdf"}, {"until": "2026-13-40"}])
def test_a_download_with_a_bad_day_or_format_leads_back_to_my_hands_saying_why(
    player: User, query: dict[str, str]
) -> None:
    client = _signed_in(player, "en")

    refused = client.get(reverse("history-export"), query, follow=True)

    assert refused.redirect_chain == [(reverse("history-hands"), 302)]
    message = list(refused.context["messages"])
    assert len(message) == 1 and message[0].level_tag == "error"
    assert escape(str(message[0])) in refused.content.decode()


def _sit_down(table: Table, user: User, buy_in: int) -> None:
    seat_join(table_id=table.pk, user=user, buy_in=buy_in, request_id=f"sit-{table.pk}-{user.pk}")


@pytest.mark.parametrize("language,words", [
    ("en", "Stood up (away) from Table {table} · {coins} coins back to your wallet"),
    ("zh-hans", "因离开从牌桌 {table} 离座 · {coins} 金币退回钱包"),
    ("zh-hant", "因離開從牌桌 {table} 離座 · {coins} 金幣退回錢包"),
])
def test_my_hands_lists_each_seat_stood_up_while_away_with_its_coins_back_and_time(
    language: str, words: str
) -> None:
    away_table, left_table = table_at("thirteen", name="away"), table_at("samgong", "all_compare", name="left")
    buy_in = away_table.stake_level.min_buy_in * 2 + 37
    player = funded_user("wen", buy_in + left_table.stake_level.min_buy_in)
    _sit_down(away_table, player, buy_in)
    _sit_down(left_table, player, left_table.stake_level.min_buy_in)
    seat_leave(table_id=left_table.pk, user=player)  # the player's own leave: not a stand-up
    seat_sit_out(table_id=away_table.pk, user=player, out=True)
    before = wallet_balance(user=player)
    assert seats_away_stand_up(table_id=away_table.pk, due=timezone.now()) == 1
    assert wallet_balance(user=player) == before + buy_in

    page = _signed_in(player, language).get(reverse("history-hands")).content.decode()

    assert page.count('data-testid="away-stand-up"') == 1
    assert words.format(table=away_table.pk, coins=format_coins(buy_in, grouping=True)) in page


def test_a_player_never_stood_up_sees_no_away_section(player: User) -> None:
    page = _signed_in(player, "en").get(reverse("history-hands")).content.decode()
    assert 'data-testid="away-stand-ups"' not in page and "Stood up while away" not in page
