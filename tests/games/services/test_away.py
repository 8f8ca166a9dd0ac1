"""Away means out (games/services/away.py, docs/RULES.md "Away players"): a player gone when a
hand ends after being auto-played sits out (the trio: stands up once its set is over), a table
deals only to two connected players, one tap deals a player in again, and the sweeper stands up
a seat sitting out for GAMES_AWAY_STAND_UP_AFTER."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from asgiref.sync import async_to_sync
from django.utils import timezone, translation

from accounts.models import User
from games.adapters import player_limits
from games.models import Clock, Hand
from games.presence import presence_beat, presence_closed
from games.services import presence, seating
from games.services.hands import hand_expire, hand_start_if_ready
from games.services.store import SWEEPER_CLOCK
from games.services.sweeper import hands_sweep
from tables.models import Seat, Table
from tests.factories import hand_play_out, hand_time_out
from wallet import selectors as wallet_selectors
from wallet.models import TransactionKind
from wallet.presenters import entry_label

pytestmark = pytest.mark.django_db(transaction=True)

SAMGONG_MODES = ["all_compare", "banker_bid", "banker_rotate", "pairwise", "house"]
SIT_OUT_GAMES = [("thirteen", ""), *(("samgong", mode) for mode in SAMGONG_MODES)]


def _seated(table: Table, funded: Callable[..., User], n: int) -> list[User]:
    users = [funded() for _ in range(n)]
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 3, request_id=f"s{i}")
    return users


def _players(table: Table, funded: Callable[..., User]) -> list[User]:
    """As many players as the game's fewest (at least three, so two stay when one is away)."""
    low, high = player_limits(table.stake_level)
    return _seated(table, funded, min(max(low, 3), high))


def _ticked(now: datetime) -> None:
    """The sweeper ran a moment ago: a jump in time is not an outage."""
    Clock.objects.update_or_create(name=SWEEPER_CLOCK, defaults={"last_tick": now - timedelta(seconds=1)})


def _status(table: Table, user: User) -> str | None:
    return Seat.objects.filter(table=table, user=user).values_list("status", flat=True).first()


def _cash_outs(user: User) -> list[str]:
    """The player's statement rows of cash-outs to the wallet, as an English page words them."""
    entries = wallet_selectors.wallet_statement(user=user, kind=TransactionKind.CASH_OUT)
    with translation.override("en"):
        return [entry_label(entry) for entry in entries if entry.account.kind == "wallet"]


@pytest.mark.parametrize(("game", "mode"), SIT_OUT_GAMES, ids=[f"{g}-{m or 'standard'}" for g, m in SIT_OUT_GAMES])
def test_a_player_gone_when_an_auto_played_hand_ends_sits_out_from_the_next_deal(funded, table_for, game, mode):
    table = table_for(game, mode)
    users = _players(table, funded)
    away, present = users[-1], users[:-1]
    hand = hand_start_if_ready(table_id=table.pk)
    async_to_sync(presence_closed)(table.pk, away.pk)  # the tab closed: gone before the window ends
    hand = hand_time_out(hand.pk, [u.pk for u in present])
    assert hand.status == Hand.Status.SETTLED
    assert _status(table, away) == Seat.Status.AWAY
    assert all(_status(table, user) == Seat.Status.PLAYING for user in present)  # played too, but here
    following = hand_start_if_ready(table_id=table.pk)  # none where the game needs every seat
    assert following is not None or len(present) < player_limits(table.stake_level)[0]
    assert following is None or away.pk not in {p["user"] for p in following.players}


def test_a_player_who_acted_is_not_sat_out_however_long_the_hand(funded, table_for):
    """Only the server's moves count: players who all acted in time do not sit out, however old
    their heartbeats when the hand ends."""
    table = table_for("thirteen")
    users = _seated(table, funded, 3)
    hand = hand_start_if_ready(table_id=table.pk)
    with time_machine.travel(timezone.now() + timedelta(seconds=45), tick=False):
        hand = hand_play_out(hand, users)  # all acted; their last heartbeats are 45 s old
    assert hand.status == Hand.Status.SETTLED
    assert {_status(table, u) for u in users} == {Seat.Status.PLAYING}


def test_an_away_trio_player_is_played_to_the_end_of_the_set_then_stands_up(funded, table_for):
    table = table_for("thirteen_trio")
    users = _seated(table, funded, 3)
    away, present = users[2], users[:2]
    for game in range(1, 7):
        hand = hand_start_if_ready(table_id=table.pk)
        assert hand is not None and away.pk in {p["user"] for p in hand.players}, f"game {game} of the set"
        hand = hand_time_out(hand.pk, [u.pk for u in present])
        assert hand.status == Hand.Status.SETTLED
        if game < 6:
            assert _status(table, away) == Seat.Status.PLAYING  # bound to the set, auto-played
    assert _status(table, away) is None  # the set is over: stood up
    assert wallet_selectors.table_money(user=away, table_ref=table.wallet_ref) == 0
    assert _cash_outs(away) == [f"Stood up (away): cash-out from table {table.pk}"]
    assert hand_start_if_ready(table_id=table.pk) is None  # two players wait for a third


def test_a_table_deals_only_when_two_seated_players_are_connected(funded, table_for, settings):
    table = table_for("thirteen")
    users = _seated(table, funded, 2)
    later = timezone.now() + timedelta(seconds=settings.GAMES_PRESENCE_TIMEOUT + 5)
    with time_machine.travel(later, tick=False):
        presence_beat(table.pk, users[0].pk)  # the other has been silent past the window
        assert hand_start_if_ready(table_id=table.pk) is None
        presence_beat(table.pk, users[1].pk)  # back
        assert hand_start_if_ready(table_id=table.pk) is not None


def test_a_house_table_deals_to_one_connected_player(funded, table_for):
    table = table_for("samgong", "house")
    _seated(table, funded, 1)
    assert hand_start_if_ready(table_id=table.pk) is not None


def test_a_seat_marked_disconnected_sits_out_at_the_deal_instead_of_being_dealt_a_hand(funded, table_for):
    table = table_for("thirteen")
    users = _seated(table, funded, 3)
    assert presence.seat_disconnected(table_id=table.pk, user_id=users[2].pk, before=timezone.now() + timedelta(1))
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None and [p["user"] for p in hand.players] == [users[0].pk, users[1].pk]
    assert _status(table, users[2]) == Seat.Status.AWAY


def test_one_tap_deals_an_away_player_in_again(funded, table_for):
    table = table_for("thirteen")
    users = _seated(table, funded, 3)
    hand = hand_time_out(hand_start_if_ready(table_id=table.pk).pk, [u.pk for u in users[:2]])
    assert _status(table, users[2]) == Seat.Status.AWAY
    seat = seating.seat_sit_out(table_id=table.pk, user=users[2], out=False)
    assert seat.status == Seat.Status.PLAYING and seat.sat_out_at is None
    presence_beat(table.pk, users[2].pk)
    following = hand_start_if_ready(table_id=table.pk)
    assert following is not None and following.number == hand.number + 1
    assert users[2].pk in {p["user"] for p in following.players}


def _sweep_at(when: datetime) -> dict[str, Any]:
    with time_machine.travel(when, tick=False):
        _ticked(timezone.now())
        return hands_sweep()


@pytest.mark.parametrize("why", ["away", "by_choice"])
def test_the_sweeper_stands_up_a_seat_sitting_out_for_the_setting_and_not_before(funded, table_for, settings, why):
    table = table_for("thirteen")
    users = _seated(table, funded, 3)
    if why == "away":
        hand_time_out(hand_start_if_ready(table_id=table.pk).pk, [u.pk for u in users[:2]])
    else:
        seating.seat_sit_out(table_id=table.pk, user=users[2], out=True)
    seat = Seat.objects.get(table=table, user=users[2])
    assert seat.status == (Seat.Status.AWAY if why == "away" else Seat.Status.SITTING_OUT)
    money = wallet_selectors.table_money(user=users[2], table_ref=table.wallet_ref)
    before = wallet_selectors.wallet_balance(user=users[2])
    limit = timedelta(seconds=settings.GAMES_AWAY_STAND_UP_AFTER)
    assert _sweep_at(seat.sat_out_at + limit - timedelta(seconds=1))["stood_up"] == 0
    assert _status(table, users[2]) is not None
    assert _sweep_at(seat.sat_out_at + limit + timedelta(seconds=1))["stood_up"] == 1
    assert _status(table, users[2]) is None
    assert wallet_selectors.wallet_balance(user=users[2]) == before + money
    assert _sweep_at(seat.sat_out_at + limit + timedelta(seconds=5))["stood_up"] == 0  # once
    assert _cash_outs(users[2]) == [f"Stood up (away): cash-out from table {table.pk}"]


def test_a_seat_sitting_out_with_no_time_on_record_starts_its_time_at_the_sweep(funded, table_for, settings):
    table = table_for("thirteen")
    users = _seated(table, funded, 2)
    Seat.objects.filter(table=table, user=users[1]).update(status=Seat.Status.SITTING_OUT, sat_out_at=None)
    now = timezone.now()
    assert _sweep_at(now)["stood_up"] == 0
    limit = timedelta(seconds=settings.GAMES_AWAY_STAND_UP_AFTER)
    assert _sweep_at(now + limit - timedelta(seconds=1))["stood_up"] == 0
    assert _sweep_at(now + limit + timedelta(seconds=1))["stood_up"] == 1


@pytest.mark.parametrize("present", [2, 0], ids=["two-stay", "all-tabs-closed"])
def test_a_closed_tab_is_dealt_no_hand_after_the_one_in_play_and_stands_up_after_the_setting(
        funded, table_for, settings, present):
    """The review's table: 十三张 with 8-second arranging, a tab closed at t = 0 (or all three).
    Played out over simulated time with the timers, the deals and the sweeper as they run: the
    closed tab finishes the hand in play only, and its seat stands up once it has sat out for
    GAMES_AWAY_STAND_UP_AFTER; the players still there play on."""
    table = table_for("thirteen", arrange_seconds=8)
    users = _seated(table, funded, 3)
    start = timezone.now()
    first = hand_start_if_ready(table_id=table.pk)
    for user in users[present:]:
        async_to_sync(presence_closed)(table.pk, user.pk)
    dealt_after, stood_at, t = 0, None, 0
    while t < settings.GAMES_AWAY_STAND_UP_AFTER + 30:
        t += 3
        with time_machine.travel(start + timedelta(seconds=t), tick=False):
            for user in users[:present]:
                presence_beat(table.pk, user.pk)
            hand = Hand.objects.filter(table=table, status=Hand.Status.ACTIVE).first()
            if hand is not None and hand.deadline is not None and hand.deadline <= timezone.now():
                hand_expire(hand_id=hand.pk, phase_seq=hand.phase_seq)
            elif hand is None:  # the start timer (the showdown pause only spaces the hands out)
                dealt = hand_start_if_ready(table_id=table.pk)
                dealt_after += int(dealt is not None and users[-1].pk in {p["user"] for p in dealt.players})
            _ticked(timezone.now())
            hands_sweep()
        if stood_at is None and _status(table, users[-1]) is None:
            stood_at = t
    assert dealt_after == 0
    assert stood_at is not None and stood_at <= first.deadline.timestamp() - start.timestamp() + 3 + \
        settings.GAMES_AWAY_STAND_UP_AFTER + 2 * settings.GAMES_SWEEP_EVERY
    hands = Hand.objects.filter(table=table).count()
    assert hands == 1 if present == 0 else hands > 10
