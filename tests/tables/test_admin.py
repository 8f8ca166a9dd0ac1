"""Tables in admin: a table that had a seat or a hand is closed, never deleted (neither from its
page nor by "delete selected"); "Close table" on the changelist and on the table's page cashes
out the idle seats and says what happened; a table nobody ever sat at may still be deleted."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Hand
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join, seat_leave
from tables.models import Seat, Table
from tests.factories import funded_user, table_at
from wallet.audit import ledger_audit
from wallet.selectors import table_money, wallet_balance

pytestmark = pytest.mark.django_db

START = 1_000_000
_names = itertools.count(1)


@pytest.fixture
def boss(client: Client) -> Client:
    client.force_login(User.objects.create_user(
        username="boss", password="x" * 12, is_staff=True, is_superuser=True, language="en"))
    return client


def _join(table: Table) -> User:
    user = funded_user(f"sitter{next(_names)}", START)
    seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="join")
    return user


def _messages(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_table_with_a_seated_player_cannot_be_deleted_from_its_page(boss: Client) -> None:
    table = table_at("thirteen")
    user = _join(table)
    url = reverse("admin:tables_table_delete", args=[table.pk])
    assert boss.get(url).status_code == 403
    assert boss.post(url, {"post": "yes"}).status_code == 403
    change = boss.get(reverse("admin:tables_table_change", args=[table.pk])).content.decode()
    assert url not in change  # no Delete link
    assert Seat.objects.filter(table=table, user=user).exists()
    assert table_money(user=user, table_ref=table.wallet_ref) == table.stake_level.min_buy_in
    with pytest.raises(ProtectedError):  # nor by any other code: the seat protects its table
        table.delete()


def test_delete_selected_refuses_every_table_that_had_a_seat_or_a_hand(boss: Client) -> None:
    seated, emptied, played, unused = (table_at("thirteen", name=name) for name in ("seated", "emptied", "played", "unused"))
    _join(seated)
    seat_leave(table_id=emptied.pk, user=_join(emptied))  # left: no seat now, but it had one
    for _ in range(2):
        _join(played)
    assert hand_start_if_ready(table_id=played.pk) is not None
    chosen = [t.pk for t in (seated, emptied, played, unused)]
    response = boss.post(reverse("admin:tables_table_changelist"),
                         {"action": "delete_selected", ACTION_CHECKBOX_NAME: chosen, "post": "yes"})
    page = response.content.decode()
    assert response.status_code == 200 and "close it instead" in page
    for table in (seated, emptied, played):
        assert f"{table.name}: it had seats or hands; close it instead." in page
    assert "unused: it had" not in page
    assert Table.objects.filter(pk__in=chosen).count() == 4  # nothing deleted, not even the unused one


def test_a_table_nobody_ever_sat_at_can_be_deleted(boss: Client) -> None:
    table = table_at("thirteen")
    response = boss.post(reverse("admin:tables_table_delete", args=[table.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Table.objects.filter(pk=table.pk).exists()


def test_close_table_on_the_changelist_asks_for_a_reason_then_cashes_out_idle_seats(boss: Client) -> None:
    table = table_at("thirteen")
    users = [_join(table) for _ in range(2)]
    changelist = reverse("admin:tables_table_changelist")
    confirm = boss.post(changelist, {"action": "close_tables", ACTION_CHECKBOX_NAME: [table.pk], "index": 0})
    assert confirm.status_code == 200 and 'name="reason"' in confirm.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN  # nothing happens before the confirmation
    done = boss.post(changelist, {"action": "close_tables", ACTION_CHECKBOX_NAME: [table.pk],
                                  "reason": "retired level"}, follow=True)
    table.refresh_from_db()
    assert (table.status, table.close_reason) == (Table.Status.CLOSED, "retired level")
    assert _messages(done) == [f"{table.name} is closed: 2 seats cashed out (30.00 coins back in the wallets)."]
    assert [wallet_balance(user=u) for u in users] == [START, START]
    assert ledger_audit().ok


def test_close_table_on_its_page_lets_the_hand_in_play_finish_and_says_so(boss: Client) -> None:
    table = table_at("thirteen")
    dealt = [_join(table) for _ in range(2)]
    assert hand_start_if_ready(table_id=table.pk) is not None
    idle = _join(table)
    page = boss.get(reverse("admin:tables_table_change", args=[table.pk])).content.decode()
    close_url = reverse("admin:tables_table_close", args=[table.pk])
    assert close_url in page
    assert boss.get(close_url).status_code == 200
    done = boss.post(close_url, {"reason": "maintenance"}, follow=True)
    assert done.redirect_chain[-1][0] == reverse("admin:tables_table_change", args=[table.pk])
    assert _messages(done) == [
        f"{table.name} is closed: 1 seat cashed out (15.00 coins back in the wallet). "
        "The hand in play will finish; its 2 seats are cashed out when it ends."
    ]
    assert wallet_balance(user=idle) == START
    assert set(Seat.objects.filter(table=table).values_list("user_id", flat=True)) == {u.pk for u in dealt}
    assert Hand.objects.get(table=table).status == Hand.Status.ACTIVE
    assert close_url not in done.content.decode()  # closed: no button any more


def test_staff_without_the_change_permission_cannot_close_a_table(client: Client) -> None:
    table = table_at("thirteen")
    _join(table)
    viewer = User.objects.create_user(username="viewer", password="x" * 12, is_staff=True, language="en")
    viewer.user_permissions.add(*Permission.objects.filter(codename="view_table"))
    client.force_login(viewer)
    assert client.post(reverse("admin:tables_table_close", args=[table.pk]), {"reason": "x"}).status_code == 403
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_staff_find_the_private_rooms_with_their_passes_in_admin(boss: Client) -> None:
    from tables.rooms import room_enter, room_open

    public = table_at("thirteen")
    owner, guest = funded_user(f"owner{next(_names)}", START), funded_user(f"guest{next(_names)}", START)
    room = room_open(owner=owner, level_id=public.stake_level_id)
    room_enter(code=str(room.room_code), user=guest)
    listed = boss.get(reverse("admin:tables_table_changelist"), {"room": "yes"})
    assert listed.status_code == 200
    assert [t.pk for t in listed.context["cl"].result_list] == [room.pk]
    public_only = boss.get(reverse("admin:tables_table_changelist"), {"room": "no"})
    assert room.pk not in [t.pk for t in public_only.context["cl"].result_list]
    page = boss.get(reverse("admin:tables_table_change", args=[room.pk]))
    assert page.status_code == 200 and str(room.room_code) in page.content.decode()
    assert guest.username in page.content.decode()
