"""The dispute admin page shows as much of the disputed hand as the history API would."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import User
from disputes.services import dispute_open
from history.models import HandRecord
from tests.history.conftest import records_of

pytestmark = pytest.mark.django_db


def staff_holding(username: str, *perms: str) -> User:
    user = User.objects.create_user(username=username, password="x" * 12, is_staff=True)
    for perm in perms:
        app, codename = perm.split(".")
        user.user_permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))
    return User.objects.get(pk=user.pk)  # a fresh permission cache


def unused(record: HandRecord, seat: int) -> set[str]:
    s = record.body["seats"][seat]
    return set(s["cards"]) - set(s["front"] + s["middle"] + s["back"])


@pytest.fixture
def trio_dispute(live: Any) -> dict[str, Any]:
    """A 三人十三支 hand (whose player's copy hides the opponents' unused cards and the seed), disputed."""
    table = live("thirteen_trio", "", 3, seed=51)
    table.play(1)
    record = records_of(table.table)[0]
    dispute = dispute_open(player=table.users[0], record=record, category="cards", text="odd deal")
    return {"record": record, "change": reverse("admin:disputes_dispute_change", args=[dispute.pk])}


def test_staff_who_may_only_view_disputes_see_the_players_copy_not_the_seed_or_hidden_cards(
    trio_dispute: dict[str, Any], client: Client
) -> None:
    record = trio_dispute["record"]
    client.force_login(staff_holding("disputeviewer", "disputes.view_dispute"))
    assert client.get(reverse("api-history-hand", args=[record.hand_id])).status_code == 404
    page = client.get(trio_dispute["change"]).content.decode()
    assert record.body["fairness"]["server_seed"] not in page
    hidden = unused(record, 1) | unused(record, 2)
    assert not any(f'title="{card}"' in page or f"&quot;{card}&quot;" in page for card in hidden)
    assert all(f'title="{card}"' in page for card in unused(record, 0)), "the disputing player's own cards"
    assert record.body["fairness"]["commitment"] in page


def test_staff_who_may_read_every_hand_see_the_complete_record_in_the_dispute(
    trio_dispute: dict[str, Any], client: Client
) -> None:
    record = trio_dispute["record"]
    client.force_login(staff_holding("reader", "disputes.view_dispute", "history.view_handrecord"))
    assert client.get(reverse("api-history-hand", args=[record.hand_id])).status_code == 200
    page = client.get(trio_dispute["change"]).content.decode()
    assert record.body["fairness"]["server_seed"] in page
    assert all(f'title="{card}"' in page and f"&quot;{card}&quot;" in page
               for seat in range(3) for card in unused(record, seat))
