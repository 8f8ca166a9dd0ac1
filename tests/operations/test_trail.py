"""The staff trail: one row per staff act, with the values before and after and every ledger
transaction it caused; the database refuses to change or delete it (and dispute events, limit
changes and decided approval requests), as it does the ledger."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.test import Client

from accounts.models import User
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join, seat_leave
from operations import services
from operations.models import ApprovalRequest, StaffAction, StaffActionTransaction
from operations.trail import staff_act, trail_cash_outs_link
from responsible.models import LimitChange
from responsible.services import limits_set
from tables.models import StakeLevel, Table
from tests.factories import funded_user, hand_play_out, table_at
from wallet.models import TransactionKind

pytestmark = pytest.mark.django_db


def _seated(table: Table, name: str) -> Any:
    user = funded_user(name, 100_000)
    seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="join")
    return user


def _boss(name: str) -> Any:
    return User.objects.create_superuser(username=name, password="x" * 12, language="en")


def test_staff_act_records_who_why_what_before_after_and_links_its_transactions(people: dict[str, Any]) -> None:
    staff, player = people["staff"], people["player"]
    grant = services.staff_grant(actor=staff, user=player, amount=500, reason="goodwill", request_key="g")
    act = staff_act(actor=staff, kind=StaffAction.Kind.CASE, reason="  confiscated  ", target_user=player,
                    subject_type="case", subject_id=7, before={"status": "open"}, after={"status": "actioned"},
                    transactions=[grant.ledger_transaction_id])
    assert (act.reason, act.subject_type, act.subject_id, act.before, act.after) == (
        "confiscated", "case", 7, {"status": "open"}, {"status": "actioned"})
    assert list(act.transactions.values_list("pk", flat=True)) == [grant.ledger_transaction_id]
    assert list(grant.transactions.values_list("pk", flat=True)) == [grant.ledger_transaction_id]
    with pytest.raises(ValidationError):
        staff_act(actor=staff, kind=StaffAction.Kind.CASE, reason=" ")
    with pytest.raises(ValueError, match="unknown staff act"):
        staff_act(actor=staff, kind="coffee", reason="x")


def test_closing_a_table_links_the_cash_outs_it_caused(people: dict[str, Any]) -> None:
    table = table_at("thirteen")
    users = [_seated(table, f"closer{i}") for i in range(2)]
    act = services.staff_table_close(actor=people["staff"], table_id=table.pk, reason="retired", request_key="c")
    linked = list(act.transactions.all())
    assert len(linked) == 2 and {t.kind for t in linked} == {TransactionKind.CASH_OUT}
    assert {e.account.user_id for t in linked for e in t.entries.select_related("account")} == {u.pk for u in users}


def test_a_ban_links_the_players_cash_out_and_keeps_before_and_after(people: dict[str, Any]) -> None:
    table = table_at("thirteen")
    banned, _other = _seated(table, "cheat"), _seated(table, "honest")
    act = services.staff_ban(actor=people["staff"], user=banned, reason="collusion", request_key="b")
    (cash_out,) = act.transactions.all()
    assert cash_out.kind == TransactionKind.CASH_OUT and f":{banned.pk}:" in cash_out.idempotency_key
    assert (act.before, act.after) == ({"is_active": True}, {"is_active": False})


def _dealt(table: Table, names: list[str]) -> tuple[Any, list[Any]]:
    users = [_seated(table, name) for name in names]
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    return hand, users


def test_a_close_links_the_cash_outs_of_the_seats_in_a_hand_once_the_hand_ends(people: dict[str, Any]) -> None:
    table = table_at("thirteen")
    hand, users = _dealt(table, ["late0", "late1"])
    act = services.staff_table_close(actor=people["staff"], table_id=table.pk, reason="retired", request_key="c")
    assert act.transactions.count() == 0 and act.details["in_hand"] == 2  # both are in the hand
    assert trail_cash_outs_link() == 0  # nothing cashed out yet
    hand_play_out(hand, users)
    assert trail_cash_outs_link() == 2
    linked = list(act.transactions.all())
    assert {t.kind for t in linked} == {TransactionKind.CASH_OUT}
    assert {e.account.user_id for t in linked for e in t.entries.select_related("account")} == {u.pk for u in users}
    assert trail_cash_outs_link() == 0  # linked once


def test_a_ban_links_the_players_cash_out_at_the_end_of_its_hand_and_no_one_elses(people: dict[str, Any]) -> None:
    table, quiet = table_at("thirteen"), table_at("thirteen")
    hand, (banned, other) = _dealt(table, ["cheat2", "honest2"])
    _seated(quiet, "bystander")
    seat_join(table_id=quiet.pk, user=banned, buy_in=quiet.stake_level.min_buy_in, request_id="idle")
    act = services.staff_ban(actor=people["staff"], user=banned, reason="collusion", request_key="b")
    (at_once,) = act.transactions.all()  # the idle seat's, in the act's transaction
    assert f"cashout:{quiet.pk}:{banned.pk}:" in at_once.idempotency_key
    hand_play_out(hand, [banned, other])
    seat_leave(table_id=table.pk, user=other)  # another player's cash-out at that table
    assert trail_cash_outs_link() == 1
    keys = sorted(t.idempotency_key for t in act.transactions.all())
    assert [k.split(":")[1:3] for k in keys] == sorted([[str(quiet.pk), str(banned.pk)], [str(table.pk), str(banned.pk)]])


def test_closing_from_the_tables_admin_is_in_the_trail(people: dict[str, Any]) -> None:
    table = table_at("thirteen")
    _seated(table, "sitter")
    client = Client()
    client.force_login(_boss("tableboss"))
    client.post(f"/admin/tables/table/{table.pk}/close/", {"reason": "maintenance"})
    act = StaffAction.objects.get(kind=StaffAction.Kind.TABLE_CLOSE)
    assert (act.target_table_id, act.reason, act.transactions.count()) == (table.pk, "maintenance", 1)


def test_a_stake_level_edit_keeps_old_and_new_values_and_needs_a_reason(people: dict[str, Any]) -> None:
    table_at("thirteen")
    level = StakeLevel.objects.filter(game="thirteen").first()
    assert level is not None
    client = Client()
    client.force_login(_boss("levelboss"))
    url = f"/admin/tables/stakelevel/{level.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {k: ("" if v is None else v) for k, v in form.initial.items() if k in form.fields}
    data.update(rules=json.dumps(level.rules), commission_percent=level.commission_percent + 1)
    if not level.active:
        data.pop("active")
    assert client.post(url, data).status_code == 200  # refused: no reason
    assert client.post(url, {**data, "staff_reason": "new tariff"}).status_code == 302
    act = StaffAction.objects.get(kind=StaffAction.Kind.STAKE_LEVEL)
    assert (act.subject_id, act.reason) == (level.pk, "new tariff")
    assert act.before == {"commission_percent": level.commission_percent}
    assert act.after == {"commission_percent": level.commission_percent + 1}


def test_an_account_deactivated_in_the_user_admin_is_in_the_trail(people: dict[str, Any]) -> None:
    player = people["player"]
    client = Client()
    client.force_login(_boss("userboss"))
    url = f"/admin/accounts/user/{player.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if k in form.fields and v is not None and k != "password"}
    data.update(is_active="", groups=[], user_permissions=[], date_joined_0=player.date_joined.date().isoformat(),
                date_joined_1=player.date_joined.time().strftime("%H:%M:%S"), last_login_0="", last_login_1="")
    data.pop("date_joined", None)
    data.pop("is_active")
    assert client.post(url, data).status_code == 200  # refused: no reason
    assert client.post(url, {**data, "staff_reason": "chargebacks"}).status_code == 302
    act = StaffAction.objects.get(kind=StaffAction.Kind.ACCOUNT)
    assert (act.target_user, act.before, act.after) == (player, {"is_active": True}, {"is_active": False})


GUARDED = [
    ("operations_staffaction", "reason = 'edited'"),
    ("operations_staffactiontransaction", "transaction_id = transaction_id"),
    ("responsible_limitchange", "new_value = 1"),
]


@pytest.mark.parametrize(("table", "change"), GUARDED)
@pytest.mark.parametrize("statement", ["UPDATE", "DELETE"])
def test_the_database_refuses_to_change_or_delete_a_trail_row(
    people: dict[str, Any], table: str, change: str, statement: str,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL refuses UPDATE and DELETE; SQLite refuses UPDATE (its test flush deletes)")
    staff, player = people["staff"], people["player"]
    services.staff_grant(actor=staff, user=player, amount=300, reason="r", request_key="row")
    limits_set(user=player, daily=10_000, weekly=None, reminder_minutes=None)
    assert LimitChange.objects.exists() and StaffActionTransaction.objects.exists()
    sql = f"UPDATE {table} SET {change}" if statement == "UPDATE" else f"DELETE FROM {table}"  # noqa: S608 - constants
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)


def test_a_decided_approval_request_cannot_be_changed_again(people: dict[str, Any]) -> None:
    staff, player = people["staff"], people["player"]
    act = services.staff_grant(actor=staff, user=player, amount=10_000_000, reason="big", request_key="big")
    request = ApprovalRequest.objects.get(pk=act.subject_id)
    with pytest.raises(DatabaseError), transaction.atomic():
        ApprovalRequest.objects.filter(pk=request.pk).update(amount=1)  # the asked amount is fixed
    with pytest.raises(DatabaseError), transaction.atomic():
        ApprovalRequest.objects.filter(pk=request.pk).update(decided_by=staff, decided_at=request.requested_at,
                                                             status="approved")  # never by its asker
    ApprovalRequest.objects.filter(pk=request.pk).update(decided_by=people["bare"], decided_at=request.requested_at,
                                                         status="rejected")
    with pytest.raises(DatabaseError), transaction.atomic():
        ApprovalRequest.objects.filter(pk=request.pk).update(status="approved")  # decided once
    if connection.vendor == "postgresql":
        with pytest.raises(DatabaseError), transaction.atomic():
            ApprovalRequest.objects.filter(pk=request.pk).delete()


def test_auditors_export_the_trail_as_csv_and_json_lines(people: dict[str, Any]) -> None:
    staff, player = people["staff"], people["player"]
    table = table_at("thirteen")
    _seated(table, "exported")
    services.staff_grant(actor=staff, user=player, amount=250, reason="first", request_key="1")
    services.staff_table_close(actor=staff, table_id=table.pk, reason="second", request_key="2")
    client = Client()
    client.force_login(people["auditor"])
    rows = client.get("/admin/operations/staffaction/export.jsonl").content.decode().splitlines()
    acts = [json.loads(r) for r in rows]
    assert [a["kind"] for a in acts] == ["grant", "table_close"]
    assert acts[0]["amount"] == 250 and acts[0]["transactions"] == [acts[0]["ledger_transaction"]]
    assert acts[1]["table"] == table.pk and len(acts[1]["transactions"]) == 1
    csv_rows = client.get("/admin/operations/staffaction/export.csv").content.decode().splitlines()
    assert csv_rows[0].startswith("id,at,kind,staff,player,table,subject,subject_id,amount") and len(csv_rows) == 3
    staff_client = Client()
    staff_client.force_login(staff)  # without operations.export_activity
    assert staff_client.get("/admin/operations/staffaction/export.jsonl").status_code == 403
