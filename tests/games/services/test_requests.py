"""Client request ids (games/services/requests.py, docs/PROTOCOL.md "Ids"): an id is spent once
per user, a resend of the same request gets its first reply, the id spent on another request is
refused, and ids older than GAMES_CLIENT_ID_RETENTION are forgotten."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import ClientRequest
from games.services.errors import PlayError
from games.services.requests import (
    client_requests_prune,
    request_earlier_reply,
    request_fingerprint,
    request_record,
)

pytestmark = pytest.mark.django_db


def _user() -> User:
    return User.objects.create_user(username="ids", password="x" * 12)


def test_the_fingerprint_is_the_same_for_the_same_request_and_differs_for_another():
    same = request_fingerprint(table_id=1, type="act", data={"a": 1, "b": 2})
    assert same == request_fingerprint(table_id=1, type="act", data={"b": 2, "a": 1})
    assert same != request_fingerprint(table_id=2, type="act", data={"a": 1, "b": 2})
    assert same != request_fingerprint(table_id=1, type="leave", data={"a": 1, "b": 2})


def test_a_new_id_has_no_earlier_reply_and_a_resent_one_gets_its_first_reply_marked_duplicate():
    user, print_ = _user(), request_fingerprint(table_id=1, type="act", data={})
    assert request_earlier_reply(user=user, client_id="c1", fingerprint=print_) is None
    request_record(user=user, client_id="c1", type="act", fingerprint=print_, reply={"status": "applied", "v": 3})
    assert request_earlier_reply(user=user, client_id="c1", fingerprint=print_) == {
        "status": "duplicate", "v": 3, "duplicate": True,
    }


def test_an_id_spent_on_another_request_is_refused_with_its_code():
    user = _user()
    request_record(user=user, client_id="c1", type="act", reply={},
                   fingerprint=request_fingerprint(table_id=1, type="act", data={}))
    with pytest.raises(PlayError) as refused:
        request_earlier_reply(user=user, client_id="c1",
                              fingerprint=request_fingerprint(table_id=1, type="leave", data={}))
    assert refused.value.code == "duplicate_id"


def test_pruning_forgets_only_the_ids_older_than_the_retention(settings):
    user = _user()
    for client_id in ("old", "new"):
        request_record(user=user, client_id=client_id, type="act", fingerprint="f", reply={})
    ClientRequest.objects.filter(client_id="old").update(
        created=timezone.now() - timedelta(seconds=settings.GAMES_CLIENT_ID_RETENTION + 60))
    assert client_requests_prune() == 1
    assert list(ClientRequest.objects.values_list("client_id", flat=True)) == ["new"]
