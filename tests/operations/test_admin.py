"""The staff action form's request key: the server issues it, signed for the staff member it is
shown to; a resubmitted form is one action, and a key from an address, an old action, another
staff member or yesterday cannot make the page say "Done" without doing anything."""

from __future__ import annotations

import datetime as dt
from typing import Any

import time_machine
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone

from operations.forms import request_key_issue
from operations.models import StaffAction
from tests.operations.test_services import _issued_key
from wallet.selectors import wallet_balance

URL = "/admin/operations/staffaction/act/"


def _client(user: Any) -> Client:
    user.language = "en"  # the pages' messages in English
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def _grant(people: dict[str, Any], key: str, amount: str = "7.00", player: str | None = None) -> dict[str, str]:
    return {"kind": "grant", "player": player or people["player"].username, "amount": amount, "reason": "promo",
            "request_key": key}


def _said(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_a_key_in_the_address_is_ignored_and_the_form_carries_a_new_signed_one(people: dict[str, Any]) -> None:
    client = _client(people["staff"])
    key = _issued_key(client, "?request_key=old-key&kind=ban")
    assert key != "old-key" and ":" in key  # signed, not the address's
    assert client.get(f"{URL}?request_key=old-key&kind=ban").context["form"].initial["kind"] == "ban"


def test_an_old_actions_raw_key_is_refused_and_nothing_says_done(people: dict[str, Any]) -> None:
    client = _client(people["staff"])
    assert _said(client.post(URL, _grant(people, _issued_key(client)), follow=True)) == ["Done: coins granted."]
    used = StaffAction.objects.get().request_key.removeprefix("grant:")
    response = client.post(URL, _grant(people, used, amount="9.00"), follow=True)
    assert response.status_code == 200 and "expired or was not issued to you" in response.content.decode()
    assert not any(m.startswith(("Done", "Already done")) for m in _said(response))
    assert (StaffAction.objects.count(), wallet_balance(user=people["player"])) == (1, 700)


def test_a_resubmitted_form_is_one_action_and_says_already_done(people: dict[str, Any]) -> None:
    client = _client(people["staff"])
    body = _grant(people, _issued_key(client))
    first, again = client.post(URL, body), client.post(URL, body)
    assert (first.status_code, again.status_code) == (302, 302)
    assert _said(again)[-1] == "Already done: coins granted."
    assert (StaffAction.objects.count(), wallet_balance(user=people["player"])) == (1, 700)


def test_a_used_form_sent_again_for_another_player_or_amount_is_refused_not_done(people: dict[str, Any]) -> None:
    client = _client(people["staff"])
    key = _issued_key(client)
    assert client.post(URL, _grant(people, key)).status_code == 302
    for changed in (_grant(people, key, amount="99.99"), _grant(people, key, player=people["bare"].username)):
        response = client.post(URL, changed)
        assert response.status_code == 200 and "already used for another action" in response.content.decode()
    assert (StaffAction.objects.count(), wallet_balance(user=people["player"])) == (1, 700)
    assert wallet_balance(user=people["bare"]) == 0


def test_a_key_issued_to_another_staff_member_is_refused(people: dict[str, Any]) -> None:
    key = request_key_issue(actor_id=people["auditor"].pk)
    response = _client(people["staff"]).post(URL, _grant(people, key))
    assert response.status_code == 200 and "not issued to you" in response.content.decode()
    assert not StaffAction.objects.exists()


def test_a_key_older_than_a_day_is_refused(people: dict[str, Any]) -> None:
    client = _client(people["staff"])
    key = _issued_key(client)
    with time_machine.travel(timezone.now() + dt.timedelta(days=1, minutes=1), tick=False):
        response = client.post(URL, _grant(people, key))
    assert response.status_code == 200 and "expired" in response.content.decode()
    assert not StaffAction.objects.exists()
