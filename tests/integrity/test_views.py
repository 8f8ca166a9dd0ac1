"""The integrity pages' period: ``?days=`` of any size or shape shows a page, never a 500; a
pair's flags show on the pairs and player pages as their reasons, in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import gettext

from integrity.models import PairSignal
from integrity.views import MAX_DAYS, period_days
from tests.factories import funded_user


@pytest.mark.parametrize(("raw", "days"), [("7", 7), ("365", 365), ("", None), ("0", None), ("-3", None),
                                           ("x", None), ("1e3", None), (str(10**30), MAX_DAYS),
                                           (str(MAX_DAYS + 1), MAX_DAYS), ("9" * 5000, None)])
def test_a_period_is_a_positive_number_of_days_clamped_to_a_century(raw: str, days: int | None) -> None:
    assert period_days(raw) == days


@pytest.mark.django_db
@pytest.mark.parametrize("raw", [str(10**30), "99999999999", "-" + str(10**30), "abc", "-1"])
def test_every_integrity_page_answers_a_huge_negative_or_wordy_period(raw: str) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(funded_user("auditor", 1, is_staff=True, is_superuser=True))
    for page in ("/admin/integrity/", "/admin/integrity/players/", "/admin/integrity/pairs/1/2/",
                 "/admin/integrity/player/1/"):
        assert client.get(page, {"days": raw}).status_code in (200, 403), page


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "zh-hant", "en"])
def test_a_pairs_flags_show_as_their_reasons_in_the_readers_language(lang: str) -> None:
    giver, banker = funded_user(f"giver-{lang}", 1), funded_user(f"banker-{lang}", 1)
    now = timezone.now()
    PairSignal.objects.create(a=giver, b=banker, hands=60, first_at=now, last_at=now, flags=["bets", "favour"],
                              flagged_at=now, bet_ab_hands=40, bet_ab_net=-40_000, bet_ab_sq=50_000_000)
    client = Client()
    client.force_login(funded_user(f"auditor-{lang}", 1, is_staff=True, is_superuser=True, language=lang))
    with translation.override(lang):
        reasons = [gettext("bets against the cards when the other banks"),
                   gettext("play below the cards favours one player")]
    for page in ("/admin/integrity/", f"/admin/integrity/player/{giver.pk}/"):
        body = client.get(page).content.decode()
        assert all(r in body for r in reasons), (page, lang)
        assert "bets, favour" not in body
