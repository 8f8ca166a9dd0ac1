"""A hand the platform voids leaves a row in each dealt-in player's history (voided, nothing won
or lost, every stake still in the seat's table money), shown on "My hands"; the hash chain of
the settled hands around it is exactly what it would be without the voided hand."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.test import Client

from disputes.models import Dispute
from games.models import Hand
from games.services.hands import hand_start_if_ready, hand_void
from history.models import HandRecord, ImmutableRecord, VoidedHandSeat
from tests.history.conftest import records_of
from wallet.selectors import table_money


def _void_next(live_table: Any) -> Hand:
    hand = hand_start_if_ready(table_id=live_table.table.pk)
    assert hand is not None
    assert hand_void(hand_id=hand.pk, reason="outage")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOIDED
    return hand


def test_a_voided_hand_gives_each_player_a_history_row_and_moves_no_coin(live: Any) -> None:
    table = live("samgong", "all_compare", 3, seed=5)
    before = {u.pk: table_money(user=u, table_ref=table.table.wallet_ref) for u in table.users}
    hand = _void_next(table)
    rows = list(VoidedHandSeat.objects.filter(hand=hand).order_by("seat"))
    assert [(r.user_id, r.seat) for r in rows] == [(p["user"], p["seat"]) for p in hand.players]
    assert {(r.table_id, r.number, r.reason, r.voided_at) for r in rows} == {
        (table.table.pk, hand.number, "outage", hand.finished_at)}
    assert not HandRecord.objects.filter(hand=hand).exists()
    assert {u.pk: table_money(user=u, table_ref=table.table.wallet_ref) for u in table.users} == before
    with pytest.raises(ImmutableRecord):
        rows[0].save()


def test_settled_records_around_a_voided_hand_chain_as_if_it_never_happened(live: Any) -> None:
    table = live("samgong", "all_compare", 2, seed=9)
    table.play(1)
    _void_next(table)
    table.play(1)
    first, second = records_of(table.table)
    assert (second.chain_seq, second.prev_hash) == (first.chain_seq + 1, first.hash)
    assert [hashlib.sha256(r.canonical.encode("utf-8")).hexdigest() for r in (first, second)] == [
        first.hash, second.hash]


def test_my_hands_shows_the_voided_hand_to_its_players_only(live: Any, people: dict[str, Any]) -> None:
    table = live("samgong", "all_compare", 2, seed=3)
    hand = _void_next(table)
    client = Client()
    client.force_login(table.users[0])
    page = client.get("/history/").content.decode()
    assert 'data-testid="voided-hands"' in page and f"#{hand.number}" in page
    client.force_login(people["stranger"])
    assert 'data-testid="voided-hands"' not in client.get("/history/").content.decode()


def test_a_player_disputes_a_voided_hand_from_the_page_and_the_api(live: Any) -> None:
    table = live("samgong", "all_compare", 2, seed=4)
    hand = _void_next(table)
    first, second = table.users
    client = Client()
    client.force_login(first)
    page = client.get(f"/disputes/new/{hand.pk}/")
    assert page.status_code == 200 and 'data-testid="voided"' in page.content.decode()
    opened = client.post(f"/disputes/new/{hand.pk}/", {"category": "other", "text": "my hand vanished"})
    assert opened.status_code == 302
    dispute = Dispute.objects.get(player=first)
    assert (dispute.record, dispute.voided.hand_id, dispute.hand_id) == (None, hand.pk, hand.pk)
    assert client.get(opened["Location"]).status_code == 200
    assert client.get("/disputes/").status_code == 200
    again = client.post(f"/disputes/new/{hand.pk}/", {"category": "other", "text": "again"})
    assert again.status_code == 200 and Dispute.objects.filter(player=first).count() == 1

    client.force_login(second)
    reply = client.post("/api/disputes/", {"hand": hand.pk, "category": "result", "text": "voided?"},
                        content_type="application/json")
    assert reply.status_code == 201 and reply.json()["hand"] == hand.pk


def test_a_voided_hand_cannot_be_disputed_by_someone_who_was_not_dealt_in(live: Any, people: dict[str, Any]) -> None:
    table = live("samgong", "all_compare", 2, seed=6)
    hand = _void_next(table)
    client = Client()
    client.force_login(people["stranger"])
    assert client.get(f"/disputes/new/{hand.pk}/").status_code == 404
    reply = client.post("/api/disputes/", {"hand": hand.pk, "category": "result", "text": "x"},
                        content_type="application/json")
    assert reply.status_code == 404 and not Dispute.objects.exists()
