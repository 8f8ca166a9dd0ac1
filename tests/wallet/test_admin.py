"""Ledger admin: read-only for everyone; grants and adjustments only through the posting form."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.roles import roles_sync
from tests.wallet.conftest import key
from wallet import services
from wallet.models import Entry, LedgerTransaction, TransactionKind
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client, make_user) -> Client:
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def grant(player):
    lin = player("lin")
    return services.wallet_grant(user=lin, amount=1_000, idempotency_key=key(), actor=None, memo="hello")


def test_admin_lists_and_shows_ledger_rows_read_only(admin_client: Client, grant: LedgerTransaction) -> None:
    for name in ("account", "ledgertransaction", "entry"):
        assert admin_client.get(reverse(f"admin:wallet_{name}_changelist")).status_code == 200
        assert admin_client.get(reverse(f"admin:wallet_{name}_add")).status_code == 403
    page = admin_client.get(reverse("admin:wallet_ledgertransaction_change", args=[grant.pk])).content.decode()
    assert 'name="_save"' not in page
    assert "10.00" in page and "-10.00" in page  # the inline entries, shown read-only
    assert 'name="entries-0-amount"' not in page and "entries-0-DELETE" not in page


def test_admin_refuses_to_change_or_delete_ledger_rows(admin_client: Client, grant: LedgerTransaction) -> None:
    entry = grant.entries.first()
    assert entry is not None
    change = reverse("admin:wallet_ledgertransaction_change", args=[grant.pk])
    assert admin_client.post(change, {"memo": "edited"}).status_code == 403
    assert admin_client.post(reverse("admin:wallet_entry_change", args=[entry.pk]), {"amount": 1}).status_code == 403
    for name, pk in (("ledgertransaction", grant.pk), ("entry", entry.pk)):
        assert admin_client.post(reverse(f"admin:wallet_{name}_delete", args=[pk]), {"post": "yes"}).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [grant.pk], "post": "yes"}
    admin_client.post(reverse("admin:wallet_ledgertransaction_changelist"), bulk)
    assert LedgerTransaction.objects.filter(pk=grant.pk, memo="hello").exists()
    assert Entry.objects.filter(transaction=grant).count() == 2


def test_admin_grant_posts_a_transaction_with_the_admin_as_actor(admin_client: Client, player) -> None:
    lin = player("lin")
    url = reverse("admin:wallet_account_grant")
    form = admin_client.get(url).context["form"]
    idem = form.initial["idempotency_key"]
    data = {"username": "lin", "operation": "grant", "amount": "12.50", "reason": "welcome", "idempotency_key": idem}
    response = admin_client.post(url, data)
    txn = LedgerTransaction.objects.get(idempotency_key=idem)
    assert response.status_code == 302 and response["Location"].endswith(f"/{txn.pk}/change/")
    assert (txn.kind, txn.actor.username, txn.memo, wallet_balance(user=lin)) == (TransactionKind.GRANT, "boss", "welcome", 1250)
    admin_client.post(url, data)  # submitted twice: posted once
    assert wallet_balance(user=lin) == 1250


def test_admin_adjust_takes_coins_back_and_refuses_an_overdraw(admin_client: Client, player) -> None:
    lin = player("lin", coins=1_000)
    url = reverse("admin:wallet_account_grant")
    base = {"username": "lin", "operation": "adjust", "reason": "chargeback"}
    admin_client.post(url, {**base, "amount": "-4", "idempotency_key": "adm-1"})
    assert wallet_balance(user=lin) == 600
    refused = admin_client.post(url, {**base, "amount": "-7.00", "idempotency_key": "adm-2"})
    assert refused.status_code == 200
    assert refused.context["form"].non_field_errors() == ["余额不足：您的钱包有 6.00，需要 7.00。"]  # the admin's language
    assert wallet_balance(user=lin) == 600


def test_admin_grant_form_validates_its_input(admin_client: Client, player) -> None:
    player("lin")
    url = reverse("admin:wallet_account_grant")
    response = admin_client.post(url, {"username": "nobody", "operation": "grant", "amount": "1.234",
                                       "reason": "x", "idempotency_key": "adm-3"})
    assert set(response.context["form"].errors) == {"username", "amount"}
    negative = admin_client.post(url, {"username": "lin", "operation": "grant", "amount": "-1",
                                       "reason": "x", "idempotency_key": "adm-4"})
    assert "amount" in negative.context["form"].errors
    assert not LedgerTransaction.objects.exists()


def test_auditors_see_the_ledger_but_cannot_grant(client: Client, make_user, grant: LedgerTransaction) -> None:
    auditor = make_user("audrey", is_staff=True)
    auditor.groups.add(roles_sync())
    client.force_login(auditor)
    assert client.get(reverse("admin:wallet_ledgertransaction_change", args=[grant.pk])).status_code == 200
    accounts = client.get(reverse("admin:wallet_account_changelist")).content.decode()
    assert "<td>-10.00</td>" in accounts  # the issuance balance, the sum of its entries
    assert "Grant or adjust coins" not in accounts
    assert client.get(reverse("admin:wallet_account_grant")).status_code == 403


def test_players_cannot_open_the_ledger_admin(client: Client, player) -> None:
    client.force_login(player("lin"))
    assert client.get(reverse("admin:wallet_account_grant")).status_code == 302  # to the admin log-in
