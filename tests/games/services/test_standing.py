"""The services read a player's standing fresh (docs/RESPONSIBLE_PLAY.md "Stopping play"): a
join or top-up with a user object held from before a ban is refused, and a deal never deals in a
player who is banned, self-excluded or cooling off, even where nothing stood them up (a ban
through the user admin's "active" box, the moment between an exclusion and its stop)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.models import Hand
from games.services import seating
from games.services.errors import PlayError
from games.services.hands import hand_start_if_ready
from responsible.services import cool_off_start, exclusion_start
from tables.models import Seat, Table
from wallet.selectors import table_money, wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)


def _ban(user: User) -> None:
    User.objects.filter(pk=user.pk).update(is_active=False)  # the user admin's box: no stop service


BARS: dict[str, Callable[[User], object]] = {
    "banned": _ban,
    "self_excluded": lambda user: exclusion_start(user=user, period="7d"),
    "cooling_off": lambda user: cool_off_start(user=user, period="1h"),
}


def _seat(table: Table, user: User, request_id: str) -> None:
    seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=request_id)


def test_a_join_with_a_user_held_from_before_the_ban_is_refused(funded, table_for):
    table, user = table_for("thirteen"), funded()
    held = User.objects.get(pk=user.pk)  # as a socket holds it from the moment it opened
    _ban(user)
    with pytest.raises(PlayError) as refused:
        _seat(table, held, "a")
    assert refused.value.code == "banned"
    assert not Seat.objects.filter(table=table).exists() and wallet_balance(user=user) == 10_000_000


def test_a_top_up_with_a_user_held_from_before_the_ban_is_refused(funded, table_for):
    table, user = table_for("thirteen"), funded()
    _seat(table, user, "a")
    _ban(user)
    with pytest.raises(PlayError) as refused:
        seating.seat_top_up(table_id=table.pk, user=user, amount=100, request_id="b")
    assert refused.value.code == "banned"
    assert table_money(user=user, table_ref=table.wallet_ref) == table.stake_level.min_buy_in


@pytest.mark.parametrize("reason", sorted(BARS))
def test_the_deal_stands_a_barred_player_up_and_deals_the_others(reason, funded, table_for):
    table = table_for("thirteen")
    barred, *others = users = [funded() for _ in range(3)]
    for i, user in enumerate(users):
        _seat(table, user, f"s{i}")
    BARS[reason](barred)

    assert hand_start_if_ready(table_id=table.pk) is None  # the seat goes first, told why; then a deal

    hand = Hand.objects.get(table=table)
    assert {p["user"] for p in hand.players} == {u.pk for u in others}
    assert not Seat.objects.filter(table=table, user=barred).exists()
    assert wallet_balance(user=barred) == 10_000_000  # its table money back


def test_the_deal_ends_the_trio_set_of_a_barred_player(funded, table_for):
    table = table_for("thirteen_trio")
    users = [funded() for _ in range(3)]
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 2, request_id=f"s{i}")
    Table.objects.filter(pk=table.pk).update(carry={"engine": {"set_game": 2}, "players": [u.pk for u in users]})
    exclusion_start(user=users[0], period="1d")

    assert hand_start_if_ready(table_id=table.pk) is None

    table.refresh_from_db()
    assert table.carry == {} and not Seat.objects.filter(table=table, user=users[0]).exists()
