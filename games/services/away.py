"""Away means out (docs/RULES.md "Away players"): a seat whose player is gone is not dealt hand
after hand to be auto-played.

- At the end of a settled hand, a dealt-in seat the server played and whose player is gone
  (``games.presence.presence_absent``: silent past the window, or its connection closed) sits
  out, stands up or stays dealt in, as the game's ``away_outcome`` hook says (the trio keeps it
  to the end of a running set, then stands it up).
- At the deal, a seat marked disconnected meets the same fate, and a table deals only when at
  least two of the seats to be dealt in have a connected player.
- The sweeper stands up every seat sitting out for ``GAMES_AWAY_STAND_UP_AFTER`` seconds, its
  table money back in the wallet through ``seat_remove`` (idempotent), worded "away" in the
  statement.

Called with the table locked, by the actions (``hands``) and the sweeper; below it are only the
settlement, the store and presence.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.adapters import away_outcome, carry_after_removal
from games.engine.defaults import AWAY_SIT_OUT, AWAY_STAND_UP, AWAY_STAY
from games.models import Hand, HandAction
from games.presence import presence_absent
from games.services.change import TableChange
from games.services.settlement import seat_remove
from games.services.store import (
    hand_active_locked,
    seats_locked_with_money,
    table_lock,
    table_save,
    table_seats_changed,
    table_touch,
)
from tables.models import Seat, Table

log = logging.getLogger(__name__)

#: The reason an away seat is stood up with: its notice, and its cash-out's memo in the statement.
AWAY_REASON = "away"
#: The statuses of a seat sitting out, voluntarily or away.
OUT = (Seat.Status.SITTING_OUT, Seat.Status.AWAY)

SeatMoney = tuple[Seat, int]


def connected_needed(low: int) -> int:
    """How many connected players a deal needs: two, or one where a game's fewest players is one
    (a player against the house)."""
    return min(2, low)


def _gone(table: Table, user_ids: list[int]) -> set[int]:
    """The players among ``user_ids`` gone from the table now (one presence read)."""
    seats = [(table.pk, user_id) for user_id in user_ids]
    return {u for _t, u in presence_absent(seats, time.time(), settings.GAMES_PRESENCE_TIMEOUT)}


def _auto_played(hand: Hand, user_ids: set[int]) -> set[int]:
    """Which of these players the server played in the hand (moves logged without a user)."""
    seats = {i for i, p in enumerate(hand.players) if p["user"] in user_ids}
    played = HandAction.objects.filter(hand=hand, auto=True, user__isnull=True, seat__in=seats)
    return {hand.players[seat]["user"] for seat in played.values_list("seat", flat=True).distinct()}


def _apply(change: TableChange, seat: Seat, money: int, outcome: str) -> bool:
    """Sit the seat out as away, or stand it up; whether it changed."""
    if outcome == AWAY_SIT_OUT:
        Seat.objects.filter(pk=seat.pk).update(status=Seat.Status.AWAY, sat_out_at=timezone.now())
        seat.status = Seat.Status.AWAY
        return True
    if outcome == AWAY_STAND_UP:
        seat_remove(change=change, seat=seat, reason=AWAY_REASON, money=money)
        return True
    return False


def _stood_up(change: TableChange) -> None:
    """Seats left the (locked) table: the carry-over as the game keeps it after a removal."""
    table = change.table
    if table.carry:
        kept = carry_after_removal(table.stake_level.game, table.carry)
        if kept != table.carry:
            table.carry = kept
            table_save(change, ("carry",))


def seats_away_after_hand(*, change: TableChange, hand: Hand) -> int:
    """After the hand settled (table and hand locked): each seat of it whose player is gone and
    was played by the server sits out, stands up or stays, as the game says; how many changed.
    Nothing is read from the database unless a player of the hand is gone."""
    if hand.status != Hand.Status.SETTLED:
        return 0  # a void is our own outage: nobody is counted away for it
    table = change.table
    gone = _gone(table, [p["user"] for p in hand.players])
    if not gone:
        return 0
    away = _auto_played(hand, gone)
    if not away:
        return 0
    game, changed, stood = table.stake_level.game, 0, False
    for seat, money in seats_locked_with_money(change):
        if seat.user_id in away and seat.status == Seat.Status.PLAYING:
            outcome = away_outcome(game, table.carry, seat.user_id)
            changed += _apply(change, seat, money, outcome)
            stood = stood or outcome == AWAY_STAND_UP
    if changed:
        if stood:
            _stood_up(change)
        table_seats_changed(change)
        log.info("table %s: %s away seat(s) out after hand %s", table.pk, changed, hand.pk)
    return changed


def seats_to_deal(change: TableChange, dealt: list[SeatMoney], low: int) -> tuple[list[SeatMoney], bool]:
    """The seats to deal the next hand to, of those that would be (table locked), and whether
    seats changed: a seat marked disconnected that is not bound to a running set sits out or
    stands up first, and when fewer than two of the rest (one where ``low``, the game's fewest
    players, is one: a player against the house) have a connected player, nobody is dealt in
    (an empty list) — unless every one of them is bound to a running set, which is finished."""
    table = change.table
    game, kept, changed, stood = change.level.game, [], False, False
    for seat, money in dealt:
        outcome = away_outcome(game, table.carry, seat.user_id) if seat.disconnected else None
        if outcome is not None and seat.status == Seat.Status.PLAYING and _apply(change, seat, money, outcome):
            changed, stood = True, stood or outcome == AWAY_STAND_UP
        else:
            kept.append((seat, money))
    if changed:
        if stood:
            _stood_up(change)
        table_seats_changed(change)
        table_touch(change)
    if kept and all(away_outcome(game, table.carry, s.user_id) == AWAY_STAY for s, _m in kept):
        return kept, changed  # a running set (the trio's) is finished as its rules say, here or not
    gone = _gone(table, [s.user_id for s, _m in kept])
    connected = [s for s, _m in kept if not s.disconnected and s.user_id not in gone]
    return (kept if len(connected) >= connected_needed(low) else []), changed


def seats_away_sweep(now: datetime) -> int:
    """The sweeper's step: stand up every seat sitting out for ``GAMES_AWAY_STAND_UP_AFTER``
    seconds (a seat sitting out with no time on record starts it now); how many stood up."""
    Seat.objects.filter(status__in=OUT, sat_out_at__isnull=True).update(sat_out_at=now)
    due = now - timedelta(seconds=settings.GAMES_AWAY_STAND_UP_AFTER)
    tables = Seat.objects.filter(status__in=OUT, sat_out_at__lte=due).values_list("table_id", flat=True)
    stood = 0
    for table_id in sorted(set(tables)):
        try:
            stood += seats_away_stand_up(table_id=table_id, due=due)
        except Exception:
            log.exception("could not stand up the away seats at table %s", table_id)
    return stood


@transaction.atomic
def seats_away_stand_up(*, table_id: int, due: datetime) -> int:
    """Stand up the table's seats sitting out since ``due`` or earlier and not dealt into the
    hand in play: table money back to the wallet (``seat_remove``, idempotent), each player told
    why. A seat dealt in stands up at the next sweep after its hand."""
    change = table_lock(table_id)
    hand = hand_active_locked(change)
    dealt = {p["user"] for p in hand.players} if hand is not None else set()
    stood = 0
    for seat, money in seats_locked_with_money(change):
        if seat.status in OUT and seat.sat_out_at is not None and seat.sat_out_at <= due and seat.user_id not in dealt:
            seat_remove(change=change, seat=seat, reason=AWAY_REASON, money=money)
            stood += 1
    if stood:
        _stood_up(change)
        table_touch(change)
    return stood
