"""A private room's owner at the table (games/services/rooms.py, docs/RULES.md "Private rooms"):
only pass holders sit, nothing is dealt before the owner's Start and everything after it is a
table's, the owner removes players between hands and closes the room, and an empty room closes
itself. The ledger balances throughout and a room's hands leave their records."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.adapters import player_limits
from games.frames import frame_for
from games.models import Hand
from games.services import rooms as room_actions
from games.services import seating
from games.services.errors import PlayError
from games.services.hands import hand_start_if_ready
from games.services.sweeper import hands_sweep
from games.services.watchdog import watch_deals
from history.models import HandRecord
from tables import rooms
from tables.models import Seat, Table
from tests.factories import ensure_stake_levels, hand_play_out
from wallet.selectors import table_money, wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)


def _room(funded: Any, game: str = "thirteen", mode: str = "") -> tuple[Table, Any]:
    from tables.models import StakeLevel

    ensure_stake_levels()
    owner = funded()
    level = StakeLevel.objects.filter(game=game, mode=mode).order_by("unit").first()
    assert level is not None
    return rooms.room_open(owner=owner, level_id=level.pk), owner


def _sit(room: Table, user: Any, seat: int | None = None) -> None:
    if user.pk != room.room_owner_id:
        rooms.room_enter(code=str(room.room_code), user=user)
    seating.seat_join(table_id=room.pk, user=user, buy_in=room.stake_level.min_buy_in * 4, request_id=f"j{user.pk}",
                      seat_index=seat)


def _dealt(room: Table) -> Hand:
    return Hand.objects.get(table=room, status=Hand.Status.ACTIVE)


def test_only_a_pass_holder_sits_in_a_room(funded):
    room, owner = _room(funded)
    stranger = funded()
    with pytest.raises(PlayError) as refused:
        seating.seat_join(table_id=room.pk, user=stranger, buy_in=room.stake_level.min_buy_in, request_id="x")
    assert refused.value.code == "room_private"
    assert wallet_balance(user=stranger) == 10_000_000 and not Seat.objects.filter(table=room).exists()
    _sit(room, owner)
    _sit(room, stranger)
    assert Seat.objects.filter(table=room).count() == 2


def test_a_room_deals_nothing_before_its_owner_starts_it_and_then_deals_like_a_table(funded):
    room, owner = _room(funded)
    guest = funded()
    _sit(room, owner)
    _sit(room, guest)
    assert hand_start_if_ready(table_id=room.pk) is None
    assert watch_deals(timezone.now() + timedelta(hours=1)) == 0
    frame = frame_for(room.pk, owner.pk)
    assert frame["waiting"] == {"reason": "room_start", "ready": 2, "min": 2}
    assert frame["room"] == {"code": room.room_code, "owner": owner.pk, "started": False}
    with pytest.raises(PlayError) as refused:
        room_actions.room_start(table_id=room.pk, user=guest)
    assert refused.value.code == "not_owner"
    assert room_actions.room_start(table_id=room.pk, user=owner) == {"started": True}
    assert frame_for(room.pk, None)["room"]["started"] is True
    hand = _dealt(room)  # at once, after the start's commit
    hand = hand_play_out(hand, [owner, guest])
    assert hand.status == Hand.Status.SETTLED
    assert HandRecord.objects.filter(hand_id=hand.pk).exists()  # the history treats it as any hand
    assert hand_start_if_ready(table_id=room.pk) is not None  # and it keeps dealing
    call_command("ledger_check")


def test_the_owner_may_not_start_with_too_few_players(funded):
    room, owner = _room(funded)
    _sit(room, owner)
    with pytest.raises(PlayError) as refused:
        room_actions.room_start(table_id=room.pk, user=owner)
    assert refused.value.code == "room_few_players"
    assert Table.objects.get(pk=room.pk).room_started_at is None


def test_room_requests_at_a_public_table_are_refused(funded, table_for):
    table, user = table_for("thirteen"), funded()
    for call in (room_actions.room_start, room_actions.room_close):
        with pytest.raises(PlayError) as refused:
            call(table_id=table.pk, user=user)
        assert refused.value.code == "not_room"


def test_the_owner_removes_a_player_between_hands_not_during_one(funded):
    room, owner = _room(funded)
    guest = funded()
    _sit(room, owner, 0)
    _sit(room, guest, 1)
    room_actions.room_start(table_id=room.pk, user=owner)
    hand = _dealt(room)
    with pytest.raises(PlayError) as refused:
        room_actions.room_remove(table_id=room.pk, user=owner, seat_index=1)
    assert refused.value.code == "in_hand"
    hand_play_out(hand, [owner, guest])
    money = table_money(user=guest, table_ref=room.wallet_ref)
    before = wallet_balance(user=guest)
    assert room_actions.room_remove(table_id=room.pk, user=owner, seat_index=1) == {"removed": 1}
    assert not Seat.objects.filter(table=room, user=guest).exists()
    assert wallet_balance(user=guest) == before + money
    assert not rooms.room_allowed(table=room, user_id=guest.pk)  # the code no longer lets them in
    with pytest.raises(PlayError) as refused:
        room_actions.room_remove(table_id=room.pk, user=owner, seat_index=0)  # the owner's own seat
    assert refused.value.code == "not_allowed"
    call_command("ledger_check")


def test_only_the_owner_closes_the_room_and_every_coin_goes_back(funded):
    room, owner = _room(funded)
    guest = funded()
    _sit(room, owner)
    _sit(room, guest)
    with pytest.raises(PlayError):
        room_actions.room_close(table_id=room.pk, user=guest)
    assert room_actions.room_close(table_id=room.pk, user=owner) == {"closed": True, "in_hand": 0}
    closed = Table.objects.get(pk=room.pk)
    assert closed.status == Table.Status.CLOSED and closed.closed_by_id == owner.pk
    assert wallet_balance(user=guest) == 10_000_000 and wallet_balance(user=owner) == 10_000_000
    with pytest.raises(rooms.RoomError):
        rooms.room_enter(code=str(room.room_code), user=funded())


def test_the_sweeper_closes_a_room_left_empty_for_the_setting(funded, settings):
    settings.ROOMS_CLOSE_EMPTY_AFTER = 600
    room, owner = _room(funded)
    _sit(room, owner)
    busy = rooms.room_open(owner=owner, level_id=room.stake_level_id)
    _sit(busy, owner)
    seating.seat_leave(table_id=room.pk, user=owner)
    now = timezone.now()
    assert hands_sweep(now)["rooms_closed"] == 0  # found empty: the clock starts
    assert hands_sweep(now + timedelta(seconds=601))["rooms_closed"] == 1
    assert Table.objects.get(pk=room.pk).status == Table.Status.CLOSED
    assert Table.objects.get(pk=busy.pk).status == Table.Status.OPEN  # a seat: kept open


@pytest.mark.parametrize(("game", "mode"), [("thirteen_trio", ""), ("samgong", "banker_bid")])
def test_a_room_of_every_kind_waits_for_the_start(funded, game, mode):
    room, owner = _room(funded, game, mode)
    users = [owner] + [funded() for _ in range(player_limits(room.stake_level)[0] - 1)]
    for user in users:
        _sit(room, user)
    assert hand_start_if_ready(table_id=room.pk) is None
    room_actions.room_start(table_id=room.pk, user=owner)
    assert _dealt(room).game == game
