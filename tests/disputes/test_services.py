"""A dispute from opening to resolution: the player's window, review, an upheld resolution
paying a compensation through the wallet, and a hand record that never changes."""

from __future__ import annotations

import datetime as dt
import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from disputes.models import Dispute, DisputeEvent
from disputes.services import DisputeError, NotAllowed, dispute_open, dispute_resolve, dispute_review_start
from games.engine.verify import verify_lines
from history.models import HandRecord
from tests.history.conftest import records_of
from wallet import selectors as wallet_selectors
from wallet.models import LedgerTransaction, TransactionKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def hand(live: Any, people: dict[str, Any]) -> dict[str, Any]:
    table = live("thirteen", "", 3, seed=61)
    table.play(2)
    record = records_of(table.table)[0]
    return {**people, "player": table.users[0], "other": table.users[1], "stranger_at_table": table.users[2],
            "record": record, "table": table}


def test_an_upheld_dispute_pays_compensation_and_leaves_history_alone(hand: dict[str, Any], client: Client) -> None:
    record, player, staff = hand["record"], hand["player"], hand["staff"]
    before = (record.canonical, record.hash)
    wallet_before = wallet_selectors.wallet_balance(user=player)

    client.force_login(player)
    opened = client.post(reverse("api-disputes"), {"record": record.pk, "category": "auto_play",
                                                    "text": "My hand was auto-played although I was connected."})
    assert opened.status_code == 201, opened.content
    dispute_id = opened.json()["id"]
    assert opened.json()["status"] == "open"

    client.force_login(staff)
    assert client.post(reverse("api-dispute-review", args=[dispute_id]), {"note": "checking the timeline"}).json()[
        "status"] == "under_review"
    resolved = client.post(reverse("api-dispute-resolve", args=[dispute_id]),
                           {"outcome": "upheld", "reason": "Our server dropped your connection.", "compensation": 1250})
    assert resolved.status_code == 200, resolved.content
    assert resolved.json()["status"] == "upheld" and resolved.json()["compensation"] == 1250

    dispute = Dispute.objects.get(pk=dispute_id)
    tx = LedgerTransaction.objects.get(pk=dispute.compensation_transaction_id)
    assert tx.kind == TransactionKind.DISPUTE_COMPENSATION and tx.reference == f"dispute:{dispute_id}"
    assert wallet_selectors.wallet_balance(user=player) == wallet_before + 1250
    call_command("ledger_check", stdout=io.StringIO())

    record = HandRecord.objects.get(pk=record.pk)
    assert (record.canonical, record.hash) == before, "the hand record is unchanged"
    export = io.StringIO()
    call_command("export_hands", "--table", str(record.table_id), stdout=export)
    assert verify_lines(export.getvalue().splitlines()).problems == []

    events = list(DisputeEvent.objects.filter(dispute=dispute).order_by("id"))
    assert [e.kind for e in events] == ["opened", "review", "compensated", "upheld"]
    assert [e.actor_id for e in events] == [player.pk, staff.pk, staff.pk, staff.pk]
    assert all(e.at is not None for e in events)
    assert events[-1].note == "Our server dropped your connection." and events[2].data["transaction"] == tx.pk

    client.force_login(player)
    seen = client.get(reverse("api-dispute", args=[dispute_id])).json()
    assert seen["status"] == "upheld" and seen["reason"] == "Our server dropped your connection."
    assert [e["note"] for e in seen["events"] if e["kind"] == "review"] == [""], "working notes stay internal"
    page = client.get(reverse("dispute-detail", args=[dispute_id])).content.decode()
    assert "Our server dropped your connection." in page and "12.50" in page


def test_a_rejected_dispute_pays_nothing(hand: dict[str, Any]) -> None:
    dispute = dispute_open(player=hand["player"], record=hand["record"], category="result", text="wrong total")
    dispute_review_start(dispute=dispute, actor=hand["staff"])
    with pytest.raises(DisputeError, match="Only an upheld dispute"):
        dispute_resolve(dispute=dispute, actor=hand["staff"], upheld=False, reason="no", compensation=100)
    dispute = dispute_resolve(dispute=dispute, actor=hand["staff"], upheld=False, reason="The score is right.")
    assert dispute.status == "rejected" and dispute.compensation == 0 and dispute.compensation_transaction_id is None
    assert not LedgerTransaction.objects.filter(kind=TransactionKind.DISPUTE_COMPENSATION).exists()
    with pytest.raises(DisputeError):
        dispute_resolve(dispute=dispute, actor=hand["staff"], upheld=True, reason="changed my mind", compensation=5)


def test_statuses_only_move_forward(hand: dict[str, Any]) -> None:
    dispute = dispute_open(player=hand["player"], record=hand["record"], category="cards", text="odd deal")
    with pytest.raises(DisputeError, match="under review"):
        dispute_resolve(dispute=dispute, actor=hand["staff"], upheld=True, reason="yes")
    dispute_review_start(dispute=dispute, actor=hand["staff"])
    with pytest.raises(DisputeError):
        dispute_review_start(dispute=dispute, actor=hand["staff"])
    with pytest.raises(DisputeError, match="reason"):
        dispute_resolve(dispute=dispute, actor=hand["staff"], upheld=True, reason="   ")


def test_only_a_player_of_the_hand_may_open_and_only_once(hand: dict[str, Any]) -> None:
    with pytest.raises(NotAllowed):
        dispute_open(player=hand["stranger"], record=hand["record"], category="other", text="hm")
    dispute_open(player=hand["player"], record=hand["record"], category="other", text="hm")
    with pytest.raises(DisputeError, match="already"):
        dispute_open(player=hand["player"], record=hand["record"], category="other", text="again")
    dispute_open(player=hand["other"], record=hand["record"], category="other", text="me too")
    with pytest.raises(DisputeError, match="category"):
        dispute_open(player=hand["player"], record=records_of(hand["table"].table)[1], category="nope", text="x")


def test_disputes_open_within_the_window(hand: dict[str, Any], time_machine: Any, settings: Any) -> None:
    record = hand["record"]
    time_machine.move_to(record.finished_at + dt.timedelta(days=30) - dt.timedelta(minutes=1), tick=False)
    dispute_open(player=hand["player"], record=record, category="timing", text="timer ran early")
    time_machine.move_to(record.finished_at + dt.timedelta(days=30, minutes=1), tick=False)
    with pytest.raises(DisputeError, match="within 30 days") as refused:
        dispute_open(player=hand["other"], record=record, category="timing", text="late")
    assert refused.value.code == "too_late"
    settings.DISPUTE_WINDOW_DAYS = 60
    dispute_open(player=hand["other"], record=record, category="timing", text="late but allowed now")
    assert timezone.now() > record.finished_at


def test_auditors_and_players_cannot_review(hand: dict[str, Any]) -> None:
    dispute = dispute_open(player=hand["player"], record=hand["record"], category="other", text="x")
    for actor in (hand["auditor"], hand["player"], hand["stranger"]):
        with pytest.raises(NotAllowed):
            dispute_review_start(dispute=dispute, actor=actor)
    assert Dispute.objects.get(pk=dispute.pk).status == "open"


def test_the_review_queue_in_admin(hand: dict[str, Any], client: Client) -> None:
    record, staff, auditor = hand["record"], hand["staff"], hand["auditor"]
    dispute = dispute_open(player=hand["player"], record=record, category="auto_play", text="auto-played")
    change = reverse("admin:disputes_dispute_change", args=[dispute.pk])

    client.force_login(auditor)
    page = client.get(change).content.decode()
    body = record.body
    assert all(f'title="{c}"' in page for s in body["seats"] for c in s["cards"]), "the replay"
    assert body["fairness"]["server_seed"] in page, "the complete record"
    assert str(record.ledger_transaction_id) in page, "the hand's ledger entries"
    assert 'name="decision"' not in page
    assert client.post(change, {"decision": "review"}).status_code == 403

    client.force_login(staff)
    assert 'name="decision"' in client.get(change).content.decode()
    newer = dispute_open(player=hand["other"], record=record, category="other", text="me too")
    dispute_review_start(dispute=newer, actor=staff)
    dispute_resolve(dispute=newer, actor=staff, upheld=False, reason="no")
    older_open = dispute_open(player=hand["stranger_at_table"], record=record, category="other", text="and me")
    queue = client.get(reverse("admin:disputes_dispute_changelist")).content.decode()
    positions = [queue.index(reverse("admin:disputes_dispute_change", args=[d.pk])) for d in (dispute, older_open, newer)]
    assert positions == sorted(positions), "open disputes first, oldest first; resolved ones last"
    client.post(change, {"decision": "review", "message": "looking"})
    client.post(change, {"decision": "uphold", "message": "Refunded.", "compensation_coins": "3.00"})
    dispute.refresh_from_db()
    assert dispute.status == "upheld" and dispute.compensation == 300 and dispute.reason == "Refunded."
    assert json.loads(HandRecord.objects.get(pk=record.pk).canonical) == body
    call_command("ledger_check", stdout=io.StringIO())


def test_a_compensation_above_the_threshold_waits_for_a_second_reviewer(hand: dict[str, Any], settings: Any) -> None:
    from django.contrib.auth.models import Permission

    from accounts.models import User
    from operations.approvals import approval_decide
    from operations.models import ApprovalRequest, StaffAction

    settings.STAFF_APPROVAL_ABOVE, settings.STAFF_ACT_CAP = 1_000, 50_000
    player, staff = hand["player"], hand["staff"]
    dispute = dispute_open(player=player, record=hand["record"], category="result", text="short paid")
    dispute_review_start(dispute=dispute, actor=staff)
    with pytest.raises(DisputeError, match="At most 500.00 coins per act"):
        dispute_resolve(dispute=dispute, actor=staff, upheld=True, reason="yes", compensation=50_001)
    before = wallet_selectors.wallet_balance(user=player)
    dispute = dispute_resolve(dispute=dispute, actor=staff, upheld=True, reason="Underpaid.", compensation=2_500)
    assert (dispute.status, dispute.compensation, wallet_selectors.wallet_balance(user=player)) == ("upheld", 0, before)
    request = ApprovalRequest.objects.get(kind="compensation", dispute=dispute)
    with pytest.raises(Exception, match="second staff member"):
        approval_decide(actor=staff, approval_id=request.pk, approve=True, reason="mine")
    second = User.objects.create_user(username="second", password="x" * 12, is_staff=True)
    second.user_permissions.add(Permission.objects.get(codename="change_dispute"))
    approval_decide(actor=User.objects.get(pk=second.pk), approval_id=request.pk, approve=True, reason="checked")
    dispute.refresh_from_db()
    assert dispute.compensation == 2_500 and wallet_selectors.wallet_balance(user=player) == before + 2_500
    trail = list(StaffAction.objects.filter(target_user=player).order_by("id").values_list("kind", "actor_id"))
    assert trail == [("dispute", staff.pk), ("approval_asked", staff.pk), ("dispute", staff.pk),
                     ("approved", second.pk)]
    assert StaffAction.objects.get(kind="approved").ledger_transaction_id == dispute.compensation_transaction_id


def test_dispute_events_cannot_be_changed_or_deleted_in_the_database(hand: dict[str, Any]) -> None:
    from django.db import DatabaseError, connection, transaction

    dispute_open(player=hand["player"], record=hand["record"], category="result", text="check")
    for sql in ("UPDATE disputes_disputeevent SET note = 'edited'", "DELETE FROM disputes_disputeevent"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
