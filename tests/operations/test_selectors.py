"""The house dashboard: its figures against sums taken row by row from the ledger's entries and
the hands, with a hand of every game and mode on two days and every other kind of house
movement; and who may see it, its CSV, the activity page and its export."""

import datetime as dt
import itertools
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.engine.registry import games
from games.services import hands as hands_service
from operations import selectors, services
from operations.closing import day_figures_close_due
from tables.models import StakeLevel, Table
from tests.factories import ensure_stake_levels, funded_user
from tests.operations.every_game import NOW, TODAY, YESTERDAY, Ledger, expected_from_ledger, ledger_of_every_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ledger(monkeypatch: pytest.MonkeyPatch) -> Ledger:
    deals = itertools.count(1)  # the same deals every run
    monkeypatch.setattr(hands_service, "new_server_seed", lambda: f"{next(deals):064x}")
    ensure_stake_levels()
    return ledger_of_every_game()


def _figures(board: selectors.Dashboard) -> dict[str, Any]:
    return {
        "hands_by_level": {r.level_id: r.hands for r in board.by_level},
        "lines_by_level": {r.level_id: r.lines for r in board.by_level if r.lines},
        "hands_by_day": {r.day: r.hands for r in board.by_day if r.hands},
        "house_by_kind": {(h, k): c for h, k, c in board.house_money},
    }


def test_figures_match_the_ledger_with_every_game_and_mode(ledger: Ledger) -> None:
    board = selectors.dashboard(days=7, now=NOW)
    since = dt.datetime(2026, 3, 4, tzinfo=dt.UTC)
    expected = expected_from_ledger(since=since, until=NOW)
    assert _figures(board) == {
        "hands_by_level": expected.hands_by_level, "lines_by_level": expected.lines_by_level,
        "hands_by_day": expected.hands_by_day, "house_by_kind": expected.house_by_kind,
    }
    # every game and mode counts its hands, those that paid no commission too
    assert {(r.game, r.mode): r.hands for r in board.by_level} == {
        (engine.name, mode): 2 for engine in games() for mode in engine.modes}
    assert board.hands == len(ledger.hands) == 2 * len(ledger.levels)
    assert [r.day for r in board.by_day] == [dt.date(2026, 3, 4) + dt.timedelta(days=i) for i in range(7)]
    assert board.house_net == -expected.players_moved  # the ledger balances: what the house took, players gave
    kinds = {k for _h, k in expected.house_by_kind}
    assert {"settlement", "grant", "adjustment", "dispute_compensation", "commission", "penalty"} <= kinds
    houses = {h for lines in expected.lines_by_level.values() for h in lines}
    assert {"commission", "banker"} <= houses and board.houses[: len(houses)] == [
        h for h in ("issuance", "commission", "penalty", "banker") if h in houses]


def test_stored_days_give_the_same_figures_as_the_ledger(ledger: Ledger) -> None:
    counted = selectors.dashboard(days=7, now=NOW)
    assert counted.stored_days == 0
    assert day_figures_close_due(now=NOW, most=90) == 90  # every day before today; today is open
    stored = selectors.dashboard(days=7, now=NOW)
    assert stored.stored_days == 6
    assert _figures(stored) == _figures(counted) and stored.house_net == counted.house_net
    assert day_figures_close_due(now=NOW, most=90) == 0  # a closed day is closed once


def test_a_day_is_counted_in_its_own_window_only(ledger: Ledger) -> None:
    tomorrow = selectors.dashboard(days=7, now=NOW + dt.timedelta(days=1))
    day_after = NOW + dt.timedelta(days=6)  # its window begins with TODAY
    assert {r.day: r.hands for r in tomorrow.by_day if r.hands} == {YESTERDAY.date(): len(ledger.levels),
                                                                      TODAY.date(): len(ledger.levels)}
    late = selectors.dashboard(days=7, now=day_after)
    assert late.hands == len(ledger.levels) and late.by_day[0].day == TODAY.date()


def test_every_hour_of_the_last_day_is_shown(ledger: Ledger) -> None:
    hours = selectors.dashboard(days=7, now=NOW).hands_per_hour
    assert len(hours) == 24 and hours[-1][0] == NOW.replace(minute=0)
    assert all(b - a == dt.timedelta(hours=1) for (a, _), (b, _) in zip(hours, hours[1:], strict=False))
    assert sum(n for _h, n in hours) == len(ledger.levels)  # today's hands, from 9:00 on
    assert hours[0][1] == 0 and dict(hours)[TODAY] >= 1


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
def test_the_dashboard_counts_the_daily_bonuses_the_bank_paid() -> None:
    from accounts.models import User
    from wallet import services as wallet

    users = [User.objects.create_user(username=f"bonus{i}", password="x" * 12) for i in range(3)]
    for i, user in enumerate(users):
        wallet.wallet_daily_bonus(user=user, amount=1_000 + i, day=timezone.localdate().isoformat())
    wallet.wallet_grant(user=users[0], amount=5, idempotency_key="g", actor=None)
    money = {(house, kind): coins for house, kind, coins in selectors.dashboard(days=7).house_money}
    assert money[("issuance", "daily_bonus")] == -3_003 and money[("issuance", "grant")] == -5
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
