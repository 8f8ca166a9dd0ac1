"""Staff read a player's limits in coins, beside what each limit counts so far, and the history
of changes with the limits in coins too."""

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import User
from games.services.seating import seat_join
from responsible.errors import LimitRefused
from responsible.services import limits_set
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db


def test_limits_and_the_loss_so_far_are_in_coins() -> None:
    player = funded_user("limited", 1_000_000)
    limits_set(user=player, daily=250_000, weekly=None, reminder_minutes=30)
    limits_set(user=player, daily=123_450, weekly=None, reminder_minutes=30)
    table = table_at("thirteen")
    seat_join(table_id=table.pk, user=player, buy_in=table.stake_level.min_buy_in, request_id="j")
    admin = User.objects.create_superuser(username="boss", password="x" * 12, language="en")
    client = Client()
    client.force_login(admin)
    with translation.override("en"):
        listing = client.get("/admin/responsible/playlimits/").content.decode()
        page = client.get(f"/admin/responsible/playlimits/{player.pk}/change/").content.decode()
        changes = client.get("/admin/responsible/limitchange/").content.decode()
    lost = f"{table.stake_level.min_buy_in // 100:,}.{table.stake_level.min_buy_in % 100:02d}"
    for html in (listing, page):
        assert "1,234.50" in html and lost in html and "123450" not in html
    assert "lost in the last 24 hours" in listing.lower()
    assert "2,500.00 → 1,234.50" in page
    assert "2,500.00" in changes and "250000" not in changes


def test_refusals_are_counted_on_the_limits_list_and_listed_in_coins() -> None:
    player = funded_user("refused", 1_000_000)
    limits_set(user=player, daily=100_00, weekly=None, reminder_minutes=None)
    table = table_at("thirteen")
    for request_id in ("a", "b"):
        with pytest.raises(LimitRefused):
            seat_join(table_id=table.pk, user=player, buy_in=1_234_56, request_id=request_id)
    admin = User.objects.create_superuser(username="boss", password="x" * 12, language="en")
    client = Client()
    client.force_login(admin)
    with translation.override("en"):
        listing = client.get("/admin/responsible/playlimits/").content.decode()
        refusals = client.get("/admin/responsible/limitrefusal/").content.decode()
    assert "refusals in the last 7 days" in listing.lower()
    assert '<td class="field-refusals_week">2</td>' in listing
    assert refusals.count("1,234.56") == 2 and "123456" not in refusals and "Loss limit" in refusals
