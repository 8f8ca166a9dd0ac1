"""Closing a table: idle seats cashed out at once, a hand in play finishes and its seats are
cashed out when it settles or is voided, nothing is dealt again, and nobody joins or tops up."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone, translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games.models import Clock, Hand
from games.services.errors import PlayError
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join, seat_top_up, table_close
from games.services.store import SWEEPER_CLOCK
from games.services.sweeper import hands_sweep
from tables.models import Seat, Table
from tests.factories import funded_user, hand_play_out, table_at
from tests.games.live.conftest import _fresh_connection_pool  # noqa: F401 - a fresh pool per socket test
from tests.games.live.helpers import WsPlayer, db
from wallet.audit import ledger_audit
from wallet.selectors import table_money, wallet_balance

pytestmark = pytest.mark.django_db

START = 1_000_000
_names = itertools.count(1)


def _player() -> User:
    return funded_user(f"closer{next(_names)}", START)


def _staff() -> User:
    return User.objects.create_user(username=f"staff{next(_names)}", password="x" * 12, is_staff=True)


def _join(table: Table, buy_in: int | None = None) -> User:
    user = _player()
    seat_join(table_id=table.pk, user=user, buy_in=buy_in or table.stake_level.min_buy_in, request_id="join")
    return user


def test_closing_cashes_out_every_idle_seat_at_once() -> None:
    table = table_at("thirteen")
    users = [_join(table, table.stake_level.min_buy_in + 100 * i) for i in range(3)]
    staff = _staff()
    closing = table_close(table_id=table.pk, actor=staff, reason="retired level")
    table.refresh_from_db()
    assert (closing.cashed_out, closing.in_hand) == (3, 0)
    assert closing.amount == 3 * table.stake_level.min_buy_in + 300
    assert (table.status, table.closed_by, table.close_reason) == (Table.Status.CLOSED, staff, "retired level")
    assert table.closed_at is not None and not Seat.objects.filter(table=table).exists()
    assert [wallet_balance(user=u) for u in users] == [START] * 3
    assert [table_money(user=u, table_ref=table.wallet_ref) for u in users] == [0, 0, 0]
    assert ledger_audit().ok


def test_a_hand_in_play_finishes_then_its_seats_are_cashed_out_and_nothing_is_dealt_again() -> None:
    table = table_at("thirteen")
    dealt = [_join(table) for _ in range(2)]
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    late = _join(table)  # seated after the deal: idle
    closing = table_close(table_id=table.pk, actor=_staff(), reason="maintenance")
    assert (closing.cashed_out, closing.amount, closing.in_hand) == (1, table.stake_level.min_buy_in, 2)
    assert wallet_balance(user=late) == START
    assert set(Seat.objects.filter(table=table).values_list("user_id", flat=True)) == {u.pk for u in dealt}
    hand = hand_play_out(hand, dealt)
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert not Seat.objects.filter(table=table).exists()
    for user, coins in zip(dealt, hand.result["coins"], strict=True):
        assert (wallet_balance(user=user), table_money(user=user, table_ref=table.wallet_ref)) == (START + coins, 0)
    assert hand_start_if_ready(table_id=table.pk) is None
    assert Hand.objects.filter(table=table).count() == 1
    assert ledger_audit().ok


def test_a_hand_voided_at_a_closed_table_returns_every_stake_and_cashes_out_its_seats() -> None:
    table = table_at("thirteen_trio")
    users = [_join(table) for _ in range(3)]
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None and hand.deadline is not None
    assert table_close(table_id=table.pk, actor=_staff(), reason="outage").in_hand == 3
    now = timezone.now()
    Clock.objects.create(name=SWEEPER_CLOCK, last_tick=now - timedelta(hours=1))  # the platform was down
    hands_sweep(now=now)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOIDED
    assert not Seat.objects.filter(table=table).exists()
    assert [wallet_balance(user=u) for u in users] == [START] * 3
    assert ledger_audit().ok


def test_closing_twice_keeps_the_first_closing_and_cashes_out_nothing_more() -> None:
    table = table_at("thirteen")
    _join(table)
    first, second = _staff(), _staff()
    table_close(table_id=table.pk, actor=first, reason="first")
    again = table_close(table_id=table.pk, actor=second, reason="second")
    table.refresh_from_db()
    assert (again.cashed_out, again.amount, again.in_hand) == (0, 0, 0)
    assert (table.closed_by, table.close_reason) == (first, "first")


def test_top_up_and_join_at_a_closed_table_are_refused_with_the_code_closed() -> None:
    table = table_at("thirteen")
    dealt = [_join(table) for _ in range(2)]
    assert hand_start_if_ready(table_id=table.pk) is not None
    table_close(table_id=table.pk, actor=_staff(), reason="closing")
    with pytest.raises(PlayError) as refused, translation.override("en"):
        seat_top_up(table_id=table.pk, user=dealt[0], amount=100, request_id="more")
    assert refused.value.code == "closed" and str(refused.value) == "This table is closed."
    with pytest.raises(PlayError) as refused:
        seat_join(table_id=table.pk, user=_player(), buy_in=table.stake_level.min_buy_in, request_id="late")
    assert refused.value.code == "closed"
    assert table_money(user=dealt[0], table_ref=table.wallet_ref) == table.stake_level.min_buy_in


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    dealt_in=st.lists(st.integers(0, 3_000), min_size=0, max_size=3),
    idle=st.lists(st.integers(0, 3_000), min_size=0, max_size=2),
)
def test_closing_any_table_returns_every_coin_and_leaves_the_ledger_clean(
    dealt_in: list[int], idle: list[int]
) -> None:
    """Players dealt into a hand (or none: fewer than two deal nothing) and players seated
    after the deal, each with a buy-in above the minimum: once the table is closed and any
    hand played out, every wallet holds its coins plus the hand's result and no table money is left."""
    with transaction.atomic():
        table = table_at("thirteen")
        minimum = table.stake_level.min_buy_in
        bought: dict[int, int] = {}
        first = [_join(table, minimum + extra) for extra in dealt_in]
        bought.update((u.pk, minimum + extra) for u, extra in zip(first, dealt_in, strict=True))
        hand = hand_start_if_ready(table_id=table.pk)
        idle = idle[: table.stake_level.seats - len(first)]
        later = [_join(table, minimum + extra) for extra in idle]
        bought.update((u.pk, minimum + extra) for u, extra in zip(later, idle, strict=True))
        closing = table_close(table_id=table.pk, actor=_staff(), reason="property")
        seated_idle = later if hand is not None else first + later
        assert closing.cashed_out == len(seated_idle)
        assert closing.amount == sum(bought[u.pk] for u in seated_idle)
        coins: dict[int, Any] = {}
        if hand is not None:
            hand = hand_play_out(hand, first)
            assert hand.result is not None
            coins = dict(zip([p["user"] for p in hand.players], hand.result["coins"], strict=True))
        assert not Seat.objects.filter(table=table).exists()
        for user in first + later:
            assert table_money(user=user, table_ref=table.wallet_ref) == 0
            assert wallet_balance(user=user) == START + coins.get(user.pk, 0)
        assert ledger_audit().ok
        transaction.set_rollback(True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_top_up_at_a_closed_table_gets_an_error_frame_through_the_socket() -> None:
    table = await db(table_at)("thirteen")
    users = [await db(_player)() for _ in range(2)]
    players = [await WsPlayer(table.pk, user).connect() for user in users]
    for player in players:
        assert (await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    assert await db(hand_start_if_ready)(table_id=table.pk) is not None
    await db(table_close)(table_id=table.pk, actor=await db(_staff)(), reason="closing")
    reply = await players[0].request({"id": "more", "type": "top_up", "amount": 100})
    assert reply == {"type": "error", "id": "more", "code": "closed", "message": "本桌已关闭。"}
    for player in players:
        await player.close()
