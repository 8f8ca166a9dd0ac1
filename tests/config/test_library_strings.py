"""The admin reads in one language: its index, django-axes' log-in attempts and the hand records,
in 简体 and 繁體, keep no English word (the libraries' strings our catalogues
translate: config/library_strings.py), and a hand is named by its game's translated name."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from accounts.models import User
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from history.models import HandRecord
from tests.factories import funded_user, hand_play_out, table_at

pytestmark = pytest.mark.django_db

LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z_]+")
#: What the admin writes in Latin letters in every language: the names of formats and addresses.
KEPT = frozenset({"ID", "IP", "JSON", "Lines", "UTC", "CSV", "SHA"})
HEX = re.compile(r"\b[0-9a-f]{8,}\b")  # hashes and seeds: data, in every language
PAGES = ["/admin/", "/admin/axes/accessattempt/", "/admin/history/handrecord/", "/admin/games/hand/"]


def _words(page: str) -> set[str]:
    """The Latin words a reader sees in the page's content (scripts, styles and markup left out)."""
    content = page[page.index('<div id="content"'):] if '<div id="content"' in page else page
    content = re.sub(r"<(script|style)\b.*?</\1>", " ", content, flags=re.S)
    text = HEX.sub(" ", html.unescape(re.sub(r"<[^>]+>", " ", content)))
    return set(LATIN_WORD.findall(text)) - KEPT


def _played_hand() -> HandRecord:
    table = table_at("thirteen_trio", name="一号桌")  # staff name their tables; the name is data
    users = [funded_user(f"admin_probe_{i}", 10**7, display_name=f"阿{i}") for i in range(3)]
    for user in users:
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"j{user.pk}")
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    hand_play_out(hand, users)
    return HandRecord.objects.get(hand_id=hand.pk)


@pytest.mark.parametrize(("lang", "game"), [("zh-hans", "三人十三支"), ("zh-hant", "三人十三支")])
def test_the_admin_pages_keep_no_english_word(lang: str, game: str) -> None:
    record = _played_hand()
    staff = User.objects.create_superuser(username="管理员" + ("甲" if lang == "zh-hans" else "乙"), password="x" * 12, language=lang)
    client = Client()
    client.force_login(staff)
    for url in PAGES:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 200, url
        assert _words(response.content.decode()) == set(), url
    listed = client.get("/admin/history/handrecord/").content.decode()
    assert f"牌局 {record.hand_id}（{game}）" in listed
    assert "thirteen_trio" not in _words(listed)
