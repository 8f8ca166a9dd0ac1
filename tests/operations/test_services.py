"""Staff actions: each through its service, with who, when, why and (for coins) the ledger
transaction; refused without the permission or a reason; idempotent on the request."""

from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client, RequestFactory

from games.models import Hand
from games.services.errors import PlayError
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from operations import services
from operations.models import StaffAction
from tables.models import Seat, Table
from tests.factories import funded_user, table_at
from wallet.audit import ledger_audit
from wallet.models import TransactionKind
from wallet.selectors import table_money, wallet_balance

pytestmark = pytest.mark.django_db
START = 100_000


def _seated(table: Table, name: str) -> Any:
    user = funded_user(name, START)
    seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="join")
    return user


def test_grant_posts_a_ledger_transaction_and_records_who_when_why(people: dict[str, Any]) -> None:
    staff, player = people["staff"], people["player"]
    action = services.staff_grant(actor=staff, user=player, amount=5_000, reason="welcome back", request_key="r1")
    assert (action.kind, action.actor, action.target_user, action.amount) == ("grant", staff, player, 5_000)
    assert action.reason == "welcome back" and action.at is not None
    txn = action.ledger_transaction
    assert txn is not None and txn.kind == TransactionKind.GRANT and txn.actor == staff and txn.memo == "welcome back"
    assert wallet_balance(user=player) == 5_000
    again = services.staff_grant(actor=staff, user=player, amount=5_000, reason="welcome back", request_key="r1")
    assert again.pk == action.pk and wallet_balance(user=player) == 5_000
    assert StaffAction.objects.count() == 1 and ledger_audit().ok


@pytest.mark.parametrize("who", ["player", "bare", "auditor"])
def test_only_staff_with_the_permission_may_act(people: dict[str, Any], who: str) -> None:
    actor, player = people[who], people["player"]
    table = table_at("thirteen")
    with pytest.raises(PermissionDenied):
        services.staff_grant(actor=actor, user=player, amount=1, reason="x", request_key="g")
    with pytest.raises(PermissionDenied):
        services.staff_ban(actor=actor, user=player, reason="x", request_key="b")
    with pytest.raises(PermissionDenied):
        services.staff_table_close(actor=actor, table_id=table.pk, reason="x", request_key="c")
    with pytest.raises(PermissionDenied):
        services.staff_table_correct(actor=actor, table_id=table.pk, reason="x", request_key="v")
    assert not StaffAction.objects.exists() and wallet_balance(user=player) == 0


def test_a_reason_is_required(people: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        services.staff_grant(actor=people["staff"], user=people["player"], amount=1, reason="  ", request_key="g")
    assert not StaffAction.objects.exists()


def test_closing_a_table_cashes_out_and_is_recorded(people: dict[str, Any]) -> None:
    table = table_at("thirteen")
    users = [_seated(table, f"close{i}") for i in range(2)]
    action = services.staff_table_close(actor=people["staff"], table_id=table.pk, reason="retired", request_key="c")
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.closed_by == people["staff"]
    assert action.target_table == table and action.amount == 2 * table.stake_level.min_buy_in
    assert {k: action.details[k] for k in ("cashed_out", "in_hand")} == {"cashed_out": 2, "in_hand": 0}
    assert [wallet_balance(user=u) for u in users] == [START, START]


def test_correcting_a_table_voids_its_hand_in_play(people: dict[str, Any]) -> None:
    table = table_at("thirteen")
    users = [_seated(table, f"fix{i}") for i in range(2)]
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    action = services.staff_table_correct(actor=people["staff"], table_id=table.pk, reason="stuck", request_key="v")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOIDED and action.details["hand"] == hand.pk
    assert [table_money(user=u, table_ref=table.wallet_ref) for u in users] == [table.stake_level.min_buy_in] * 2
    with pytest.raises(ValidationError):  # nothing in play any more
        services.staff_table_correct(actor=people["staff"], table_id=table.pk, reason="again", request_key="v2")
    assert ledger_audit().ok


def test_a_banned_player_is_cashed_out_and_cannot_log_in_or_sit(people: dict[str, Any]) -> None:
    table = table_at("thirteen")
    user = _seated(table, "banme")
    client = Client()
    client.force_login(user)
    assert authenticate(RequestFactory().post("/"), username="banme", password="x" * 12) == user
    action = services.staff_ban(actor=people["staff"], user=user, reason="collusion", request_key="b")
    user.refresh_from_db()
    assert not user.is_active and action.target_user == user
    assert not Seat.objects.filter(user=user).exists() and wallet_balance(user=user) == START
    assert authenticate(RequestFactory().post("/"), username="banme", password="x" * 12) is None
    assert client.get("/wallet/").status_code == 302  # the old session no longer authenticates
    with pytest.raises(PlayError):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="again")
    services.staff_unban(actor=people["staff"], user=user, reason="appeal upheld", request_key="u")
    user.refresh_from_db()
    assert user.is_active
    assert list(StaffAction.objects.values_list("kind", flat=True)) == ["unban", "ban"]


def _issued_key(client: Client, query: str = "") -> str:
    """The request key the server put in a freshly shown staff action form."""
    response = client.get(f"/admin/operations/staffaction/act/{query}")
    assert response.status_code == 200
    return str(response.context["form"].initial["request_key"])


def test_the_admin_form_calls_the_service(people: dict[str, Any]) -> None:
    client = Client()
    client.force_login(people["staff"])
    url = "/admin/operations/staffaction/act/"
    body = {"kind": "grant", "player": people["player"].username, "amount": "7.00", "reason": "promo",
            "request_key": _issued_key(client)}
    assert client.post(url, body).status_code == 302
    assert client.post(url, body).status_code == 302  # the same request again: nothing more
    assert wallet_balance(user=people["player"]) == 700
    assert client.post(url, {**body, "reason": "", "request_key": _issued_key(client)}).status_code == 200
    assert StaffAction.objects.count() == 1
