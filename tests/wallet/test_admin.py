"""Ledger admin: read-only for everyone; grants and adjustments only through the staff action form."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.roles import roles_sync
from tests.wallet.conftest import key
from wallet import services
from wallet.models import Entry, LedgerTransaction

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


def test_grant_or_adjust_opens_the_staff_action_form(admin_client: Client, player) -> None:
    """Coins move by hand only through the staff action form, recorded in the staff trail."""
    accounts = admin_client.get(reverse("admin:wallet_account_changelist")).content.decode()
    link = reverse("admin:operations_act") + "?kind=grant"
    assert f'href="{link}"' in accounts
    form = admin_client.get(link).context["form"]
    assert form.initial["kind"] == "grant"


def test_auditors_see_the_ledger_but_cannot_grant(client: Client, make_user, grant: LedgerTransaction) -> None:
    auditor = make_user("audrey", is_staff=True)
    auditor.groups.add(roles_sync())
    client.force_login(auditor)
    assert client.get(reverse("admin:wallet_ledgertransaction_change", args=[grant.pk])).status_code == 200
    accounts = client.get(reverse("admin:wallet_account_changelist")).content.decode()
    assert "<td>-10.00</td>" in accounts  # the issuance balance, the sum of its entries
    assert reverse("admin:operations_act") not in accounts
    assert client.get(reverse("admin:operations_act")).status_code == 403


def test_players_cannot_open_the_ledger_admin(client: Client, player) -> None:
    client.force_login(player("lin"))
    assert client.get(reverse("admin:wallet_account_changelist")).status_code == 302  # to the admin log-in
