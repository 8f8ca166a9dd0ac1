"""Dispute reads (platform/disputes/selectors.py): a player sees only their own disputes, staff
who may read disputes see every one, and a dispute out of reach is not found (404), never shown."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from disputes.selectors import dispute_get_for, dispute_list_for, dispute_queue

pytestmark = pytest.mark.django_db


def test_a_dispute_is_found_for_its_player_and_the_auditor_and_not_for_anyone_else(setup: dict[str, Any]):
    dispute, player = setup["dispute"], setup["player"]
    assert dispute_get_for(user=player, pk=dispute.pk) == dispute
    assert dispute_get_for(user=setup["auditor"], pk=dispute.pk) == dispute
    for outsider in (setup["stranger"], AnonymousUser()):
        with pytest.raises(Http404):
            dispute_get_for(user=outsider, pk=dispute.pk)
    with pytest.raises(Http404):
        dispute_get_for(user=player, pk=dispute.pk + 1_000)


def test_a_player_lists_only_their_own_disputes_and_the_queue_holds_the_open_one(setup: dict[str, Any]):
    dispute = setup["dispute"]
    assert list(dispute_list_for(user=setup["player"])) == [dispute]
    assert list(dispute_list_for(user=setup["stranger"])) == []
    assert [d.pk for d in dispute_queue()] == [dispute.pk]
