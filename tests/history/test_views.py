"""The "My hands" page (history/views.py): its downloads answer a refusal with a page message in
the player's language, never an API error body."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from accounts.models import User
from tests.history.conftest import records_of

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
