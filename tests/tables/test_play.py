""""Play" with too little money explains instead of opening an empty table; a player already
seated at the stake goes back to their table; titles name modes in the page's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from tables.models import Seat, StakeLevel, Table
from tables.titles import level_title, table_title
from tests.factories import ensure_stake_levels, funded_user
from wallet.money import format_coins

pytestmark = pytest.mark.django_db


def _level(game: str = "thirteen", mode: str = "", rank: int = 1) -> StakeLevel:
    """The ``rank``-th cheapest level of a game and mode."""
    ensure_stake_levels()
    return list(StakeLevel.objects.filter(game=game, mode=mode).order_by("min_buy_in"))[rank - 1]


def test_play_with_too_little_money_explains_and_opens_no_table(client: Any) -> None:
    cheap, dear = _level(rank=1), _level(rank=3)
    player = funded_user("shorty", dear.min_buy_in - 1, language="en")
    client.force_login(player)
    response = client.post(reverse("table-play", args=[dear.pk]), follow=True)
    page = response.content.decode()
    assert response.redirect_chain == [(reverse("table-play", args=[dear.pk]), 302)]  # an address of its own
    assert response.status_code == 200 and 'data-testid="play-short"' in page
    assert "Not enough coins for this stake" in page
    assert f"your wallet holds {format_coins(dear.min_buy_in - 1, grouping=True)}" in page
    assert f'action="{reverse("table-play", args=[cheap.pk])}"' in page  # a stake the wallet covers
    assert f'action="{reverse("table-play", args=[dear.pk])}"' not in page
    assert reverse("wallet:wallet") in page
    assert not Table.objects.filter(stake_level=dear).exists()


def test_play_with_an_empty_wallet_offers_no_stake_but_the_way_to_more_coins(client: Any) -> None:
    level = _level(rank=1)
    client.force_login(funded_user("broke", 1, language="zh-hant"))
    page = client.post(reverse("table-play", args=[level.pk]), follow=True).content.decode()
    assert "金幣不足" in page and "如何獲得更多金幣" in page
    assert 'action="/lobby/play/' not in page
    assert not Table.objects.exists()


def test_play_takes_a_seated_player_back_to_their_table_whatever_the_wallet(client: Any) -> None:
    level = _level()
    player = funded_user("sitter", 1)
    table = Table.objects.create(stake_level=level, name="mine")
    Seat.objects.create(table=table, index=0, user=player)
    client.force_login(player)
    response = client.post(reverse("table-play", args=[level.pk]))
    assert response.status_code == 302 and response.url == reverse("table", args=[table.pk])
    assert client.get(reverse("table-play", args=[level.pk])).url == reverse("table", args=[table.pk])


def test_the_explanation_page_sends_a_player_who_has_the_coins_to_the_lobby(client: Any) -> None:
    level = _level()
    client.force_login(funded_user("rich", level.min_buy_in))
    response = client.get(reverse("table-play", args=[level.pk]))
    assert response.status_code == 302 and response.url == f"{reverse('lobby')}?game=thirteen"
    assert not Table.objects.exists()  # a GET opens no table


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Sam Gong (三公) · Banker bid (抢庄) · Base 1.00"),
    ("zh-hans", "三公 · 抢庄 · 底注 1.00"),
    ("zh-hant", "三公 · 搶莊 · 底注 1.00"),
])
def test_titles_name_the_mode_in_the_language_never_by_its_code(language: str, expected: str) -> None:
    level = _level("samgong", "banker_bid")
    table = Table.objects.create(stake_level=level, name=level.name)
    with translation.override(language):
        assert level_title(level) == expected
        assert table_title(table).startswith(expected + " · ")
    assert "banker_bid" not in level.name  # the seeded names use the mode's word too (tables 0005)


def test_the_table_page_title_is_translated(client: Any) -> None:
    level = _level("samgong", "house")
    table = Table.objects.create(stake_level=level, name=level.name)
    page = client.get(reverse("table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'<h1 data-testid="table-heading">Table {table.pk}</h1>' in page
    assert 'data-testid="room-copy"' not in page
    assert "House banker · Base 1.00" in page and "house 1" not in page


def test_the_lobby_api_gives_titles_in_the_language_of_the_request(client: Any) -> None:
    level = _level("samgong", "pairwise")
    table = Table.objects.create(stake_level=level, name=level.name)
    levels = client.get(reverse("api-stake-levels"), {"game": "samgong"}, HTTP_ACCEPT_LANGUAGE="en").json()
    assert {row["title"] for row in levels if row["id"] == level.pk} == {"Sam Gong (三公) · Pairwise (两两比牌) · Base 1.00"}
    tables = client.get(reverse("api-tables"), {"game": "samgong"}, HTTP_ACCEPT_LANGUAGE="zh-hant").json()
    assert [row["title"] for row in tables if row["id"] == table.pk] == [f"三公 · 兩兩比牌 · 底注 1.00 · 牌桌 {table.pk}"]
