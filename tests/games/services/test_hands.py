"""A phase that waits only on players who have left the table ends at once: nobody waits out
the clock for them (docs/ARCHITECTURE.md "Timers, presence and the watchdog"). A seat merely
disconnected may come back, so its time runs as usual."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.adapters import engine
from games.models import Hand, HandAction
from games.services import presence, seating
from games.services.hands import hand_act, hand_start_if_ready
from tables.models import Seat, Table
from wallet import selectors

pytestmark = pytest.mark.django_db(transaction=True)


def _seat_all(table: Table, users: list) -> None:
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 3, request_id=f"s{i}")


def _act(hand: Hand, user) -> Hand:
    """``user`` plays the engine's own move; returns the hand, refreshed."""
    seat = hand.seat_of(user.pk)
    action = dict(engine(hand.game).auto_action(hand.state, seat))
    assert hand_act(table_id=hand.table_id, user=user, action=action)["status"] == "applied"
    return Hand.objects.get(pk=hand.pk)


def _autos(hand: Hand) -> set[int]:
    return set(HandAction.objects.filter(hand=hand, auto=True, user=None).values_list("seat", flat=True))


@pytest.mark.parametrize(("game", "mode"), [("thirteen", ""), ("thirteen_trio", ""), ("samgong", "all_compare")])
def test_the_last_action_before_only_leavers_remain_ends_the_phase_at_once(funded, table_for, game, mode):
    table = table_for(game, mode)
    users = [funded() for _ in range(3)]
    _seat_all(table, users)
    hand = hand_start_if_ready(table_id=table.pk)
    deadline = hand.deadline
    assert seating.seat_leave(table_id=table.pk, user=users[2]) is False  # dealt in: leaves after the hand
    hand.refresh_from_db()
    for _ in range(12):
        if hand.status != Hand.Status.ACTIVE:
            break
        awaited = engine(hand.game).awaiting(hand.state)
        present = [u for u in users[:2] if hand.seat_of(u.pk) in awaited]
        assert present, "the phase waits on the leaver while players still present have acted"
        hand = _act(hand, present[0])
    assert hand.status == Hand.Status.SETTLED and 2 in _autos(hand)  # before its deadline, no timer
    assert timezone.now() < deadline
    if game != "thirteen_trio":  # the trio's leaver stays to the end of the set
        assert not Seat.objects.filter(table=table, user=users[2]).exists()


def test_a_player_leaving_last_ends_the_phase_they_held_up(funded, table_for):
    table = table_for("thirteen")
    users = [funded() for _ in range(2)]
    _seat_all(table, users)
    hand = _act(hand_start_if_ready(table_id=table.pk), users[0])
    assert hand.status == Hand.Status.ACTIVE
    assert seating.seat_leave(table_id=table.pk, user=users[1]) is False
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED and _autos(hand) == {1}
    assert not Seat.objects.filter(table=table, user=users[1]).exists()  # cashed out with the hand
    assert selectors.table_money(user=users[1], table_ref=table.wallet_ref) == 0


def test_a_disconnected_seat_keeps_its_time(funded, table_for):
    """Away is not gone: the others have acted, the disconnected player's clock still runs."""
    table = table_for("thirteen_trio")
    users = [funded() for _ in range(3)]
    _seat_all(table, users)
    hand = hand_start_if_ready(table_id=table.pk)
    Seat.objects.filter(table=table, user=users[2]).update(last_seen=hand.started_at)
    assert presence.seat_disconnected(table_id=table.pk, user_id=users[2].pk, before=timezone.now())
    hand = _act(_act(Hand.objects.get(pk=hand.pk), users[0]), users[1])
    assert hand.status == Hand.Status.ACTIVE and hand.deadline is not None
    assert engine(hand.game).awaiting(hand.state) == [2]


def test_a_trio_table_everyone_left_plays_out_its_set_without_waiting(funded, table_for):
    """All three leave after the first game: the five games left are dealt and played for them
    at once (not 6 × 60 s of waiting), each settled, then everyone is cashed out."""
    table = table_for("thirteen_trio")
    users = [funded() for _ in range(3)]
    _seat_all(table, users)
    first = hand_start_if_ready(table_id=table.pk)
    for user in users:
        assert seating.seat_leave(table_id=table.pk, user=user) is False
    first.refresh_from_db()
    assert first.status == Hand.Status.SETTLED and _autos(first) == {0, 1, 2}
    for game in range(2, 7):
        hand = hand_start_if_ready(table_id=table.pk)
        assert hand is not None and hand.state["game_in_set"] == game
        hand.refresh_from_db()
        assert hand.status == Hand.Status.SETTLED and _autos(hand) == {0, 1, 2}
    assert not Seat.objects.filter(table=table).exists()
    assert hand_start_if_ready(table_id=table.pk) is None
    assert all(selectors.table_money(user=u, table_ref=table.wallet_ref) == 0 for u in users)
