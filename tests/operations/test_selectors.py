"""The house dashboard: its figures against sums taken by hand from the ledger's entries on a
small fixture (two stake levels, a day boundary), and who may see it, its CSV, the activity
page and its export."""

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from operations import selectors, services

from games.presence import presence_beat
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from tables.models import StakeLevel, Table
from tests.factories import ensure_stake_levels, funded_user, hand_play_out
from wallet import services as wallet
from wallet.models import Entry, LedgerTransaction

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
MIDNIGHT = dt.datetime(2026, 3, 10, 0, 0, tzinfo=dt.UTC)


def _play(level: StakeLevel, names: list[str], moments: list[dt.datetime]) -> list[int]:
    """Hands played to settlement at a table of ``level``, each settled at its moment."""
    with time_machine.travel(moments[0] - dt.timedelta(minutes=5), tick=False):
        table = Table.objects.create(stake_level=level, name=level.name)
        users = [funded_user(n, 1_000_000) for n in names]
        for u in users:
            seat_join(table_id=table.pk, user=u, buy_in=level.min_buy_in * 4, request_id="join")
    txns = []
    for at in moments:
        with time_machine.travel(at, tick=False):
            for u in users:  # at the table: heard from (a table deals to connected players only)
                presence_beat(table.pk, u.pk)
            hand = hand_start_if_ready(table_id=table.pk, hands_played=len(txns))
            assert hand is not None
            hand = hand_play_out(hand, users)
        assert hand.ledger_transaction_id is not None
        txns.append(hand.ledger_transaction_id)
    return txns


@pytest.fixture
def played() -> dict[str, Any]:
    ensure_stake_levels()
    low, high = StakeLevel.objects.filter(game="thirteen", mode="").order_by("unit")[:2]
    a = _play(low, ["a1", "a2"], [MIDNIGHT - dt.timedelta(seconds=1), MIDNIGHT])
    b = _play(high, ["b1", "b2"], [MIDNIGHT - dt.timedelta(hours=12), MIDNIGHT + dt.timedelta(hours=11, minutes=30)])
    moments = {a[0]: MIDNIGHT - dt.timedelta(seconds=1), a[1]: MIDNIGHT,
               b[0]: MIDNIGHT - dt.timedelta(hours=12), b[1]: MIDNIGHT + dt.timedelta(hours=11, minutes=30)}
    assert {t: LedgerTransaction.objects.get(pk=t).created_at for t in moments} == moments
    commission = {t: sum(Entry.objects.filter(transaction_id=t, house="commission").values_list("amount", flat=True))
                  for t in moments}
    return {"low": low, "high": high, "a": a, "b": b, "commission": commission}


def test_figures_match_the_ledger(played: dict[str, Any], people: dict[str, Any]) -> None:
    c, a, b = played["commission"], played["a"], played["b"]
    assert sum(c.values()) > 0
    with time_machine.travel(NOW - dt.timedelta(hours=1), tick=False):
        wallet.wallet_grant(user=people["player"], amount=300, idempotency_key="g", actor=None)
    board = selectors.dashboard(days=7, now=NOW)
    by_day = dict(board.commission_by_day)
    assert len(by_day) == 7
    assert by_day[dt.date(2026, 3, 9)] == c[a[0]] + c[b[0]]
    assert by_day[dt.date(2026, 3, 10)] == c[a[1]] + c[b[1]]
    levels = {(g, lv): (h, coins) for g, lv, h, coins in board.commission_by_level}
    # a level's hands are those that paid commission (a deal can pay none: every seat's win is 0)
    assert levels[("thirteen", played["low"].name)] == (sum(c[h] > 0 for h in a[:2]), c[a[0]] + c[a[1]])
    assert levels[("thirteen", played["high"].name)] == (sum(c[h] > 0 for h in b[:2]), c[b[0]] + c[b[1]])
    hours = dict(board.hands_per_hour)
    assert hours.get(MIDNIGHT) == 1 and hours.get(MIDNIGHT + dt.timedelta(hours=11)) == 1
    assert (board.tables_live, board.players_seated) == (2, 4)
    escrow = sum(Entry.objects.filter(account__kind="table").values_list("amount", flat=True))
    wallets = sum(Entry.objects.filter(account__kind="wallet").values_list("amount", flat=True))
    assert (board.in_escrow, board.in_wallets) == (escrow, wallets)
    grants = -sum(Entry.objects.filter(house="issuance", transaction__kind="grant",
                                       transaction__created_at__gte=NOW - dt.timedelta(days=7)
                                       ).values_list("amount", flat=True))
    assert board.paid["grant"] == grants and grants >= 300 + 4 * 1_000_000
    one_day = selectors.dashboard(days=7, now=NOW + dt.timedelta(days=7))
    assert dict(one_day.commission_by_day).get(dt.date(2026, 3, 10), 0) == 0


URLS = ["/admin/operations/staffaction/dashboard/", "/admin/operations/staffaction/dashboard.csv",
        "/admin/operations/staffaction/", "/admin/operations/staffaction/export.csv",
        "/admin/operations/staffaction/act/"]
EXPECTED = {  # who → status per URL above
    "anonymous": [302, 302, 302, 302, 302],
    "player": [302, 302, 302, 302, 302],
    "bare": [403, 403, 403, 403, 403],
    "auditor": [200, 200, 200, 200, 403],
    "staff": [200, 200, 200, 403, 200],
}


@pytest.mark.parametrize("who", list(EXPECTED))
def test_who_may_see_what(people: dict[str, Any], who: str) -> None:
    services.staff_grant(actor=people["staff"], user=people["player"], amount=1, reason="r", request_key="p")
    client = Client()
    if who != "anonymous":
        client.force_login(people[who])
    assert [client.get(u).status_code for u in URLS] == EXPECTED[who]


def test_auditor_export_is_filtered(people: dict[str, Any]) -> None:
    staff, player = people["staff"], people["player"]
    services.staff_grant(actor=staff, user=player, amount=100, reason="first", request_key="1")
    services.staff_ban(actor=staff, user=player, reason="second", request_key="2")
    client = Client()
    client.force_login(people["auditor"])
    rows = client.get("/admin/operations/staffaction/export.csv?kind__exact=ban").content.decode().splitlines()
    assert len(rows) == 2 and ",ban," in rows[1] and "second" in rows[1]
    page = client.get("/admin/operations/staffaction/?kind__exact=grant").content.decode()
    assert "first" in page and "second" not in page
    board = client.get("/admin/operations/staffaction/dashboard.csv?days=30").content.decode()
    assert "coins_in_wallets" in board.splitlines()[0] or "figure" in board.splitlines()[0]
    assert timezone.now()


@pytest.mark.django_db
def test_the_dashboard_counts_the_open_private_rooms() -> None:
    from tables.rooms import room_open

    ensure_stake_levels()
    level = StakeLevel.objects.filter(game="thirteen").order_by("unit").first()
    assert level is not None
    owner = funded_user("room-owner", 100)
    rooms = [room_open(owner=owner, level_id=level.pk) for _ in range(2)]
    Table.objects.create(stake_level=level, name="public")
    assert selectors.dashboard().rooms_open == 2
    Table.objects.filter(pk=rooms[0].pk).update(status=Table.Status.CLOSED)
    assert selectors.dashboard().rooms_open == 1
