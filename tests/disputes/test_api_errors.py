"""Refusals through the API: the status and the exact JSON body each one answers with."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _users_read_english(setup: dict[str, Any]) -> None:
    """The users' own language picks the API's messages: English here."""
    for user in setup.values():
        if hasattr(user, "language"):
            user.language = "en"
            user.save(update_fields=["language"])


def _post(client: Client, who: Any, url: str, body: dict[str, Any]) -> tuple[int, bytes, str]:
    client.force_login(who)
    response = client.post(url, body)
    return response.status_code, response.content, response["Content-Type"]


def _detail(message: str) -> bytes:
    return b'{"detail":"' + message.encode() + b'"}'


def test_opening_on_a_hand_not_played_is_403_with_the_reason(setup: dict[str, Any], client: Client) -> None:
    body = {"record": setup["record"].pk, "category": "other", "text": "please look"}
    assert _post(client, setup["stranger"], reverse("api-disputes"), body) == (
        403, _detail("You can only open a dispute on a hand you played."), "application/json")


def test_opening_twice_is_400_with_the_reason(setup: dict[str, Any], client: Client) -> None:
    body = {"record": setup["dispute"].record_id, "category": "other", "text": "again"}
    assert _post(client, setup["player"], reverse("api-disputes"), body) == (
        400, _detail("You already opened a dispute on this hand."), "application/json")


def test_status_refusals_of_a_reviewer_are_400_with_the_reason(setup: dict[str, Any], client: Client) -> None:
    pk, staff = setup["dispute"].pk, setup["staff"]
    resolve = reverse("api-dispute-resolve", args=[pk])
    assert _post(client, staff, resolve, {"outcome": "rejected", "reason": "fine"}) == (
        400, _detail("Take the dispute under review before resolving it."), "application/json")
    assert _post(client, staff, reverse("api-dispute-review", args=[pk]), {})[0] == 200
    assert _post(client, staff, reverse("api-dispute-review", args=[pk]), {}) == (
        400, _detail("Only an open dispute can be taken under review."), "application/json")
    assert _post(client, staff, resolve, {"outcome": "rejected", "reason": "  "})[:2] == (
        400, b'{"reason":["This field may not be blank."]}')


def test_the_api_permission_refusals_keep_their_bodies(setup: dict[str, Any], client: Client) -> None:
    body = {"record": setup["record"].pk, "category": "other", "text": "please look"}
    assert _post(client, setup["auditor"], reverse("api-disputes"), body) == (
        403, _detail("Auditors read disputes; they do not open them."), "application/json")
    assert _post(client, setup["player"], reverse("api-dispute-review", args=[setup["dispute"].pk]), {}) == (
        403, _detail("Only staff who review disputes may change them."), "application/json")


def test_a_wallet_refusal_while_compensating_answers_400_and_shows_in_admin(
        setup: dict[str, Any], client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from disputes import services
    from disputes.models import Dispute
    from wallet.errors import InvalidPosting

    def refuse(**_kwargs: Any) -> None:
        raise InvalidPosting(reason="refused for the test")

    monkeypatch.setattr(services.wallet, "wallet_compensate", refuse)
    pk, staff = setup["dispute"].pk, setup["staff"]
    assert _post(client, staff, reverse("api-dispute-review", args=[pk]), {})[0] == 200
    body = {"outcome": "upheld", "reason": "pay", "compensation": 300}
    assert _post(client, staff, reverse("api-dispute-resolve", args=[pk]), body) == (
        400, _detail("invalid posting: refused for the test"), "application/json")
    change = reverse("admin:disputes_dispute_change", args=[pk])
    page = client.post(change, {"decision": "uphold", "message": "pay", "compensation_coins": "3.00"}, follow=True)
    assert [str(m) for m in page.context["messages"]][0] == "invalid posting: refused for the test"
    assert Dispute.objects.get(pk=pk).status == "under_review"
