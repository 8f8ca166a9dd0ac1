"""Hands: deal, apply one action, time out, advance to settlement (docs/ARCHITECTURE.md "Data flow").

Every function here locks the table row, then the hand row, runs one engine step and stores
what the engine returns through the store; a finished hand goes to the settlement and the
next deal is scheduled. The engine decides everything about the game.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import timers
from games.adapters import (
    carry_after_removal,
    carry_for,
    engine,
    engine_rules,
    player_limits,
    presence_matters,
    set_running,
    start_problems,
)
from games.engine.deck import commitment, new_server_seed
from games.engine.errors import EngineError
from games.engine.protocol import Voidable
from games.models import Hand
from games.services.away import seats_away_after_hand, seats_to_deal
from games.services.change import TableChange
from games.services.errors import NoActiveHand, NotSeated, PlayError
from games.services.settlement import hand_settle, hand_void_settle, seat_remove, seats_barred_remove
from games.services.store import (
    action_log,
    epoch_to_dt,
    hand_active_locked,
    hand_insert,
    hand_locked_with_table,
    hand_phase_current,
    hand_save,
    hand_state_set,
    hand_state_store,
    hand_timer_arm,
    outage_suspected,
    seats_locked_with_money,
    table_lock,
    table_save,
    table_seats_read,
    table_touch,
)
from kernel import metrics
from tables.models import Seat, Table

log = logging.getLogger(__name__)


# --- dealing ---------------------------------------------------------------------------------

def hand_start_after_commit(table_id: int, delay: float | None = None, *, pause: bool = True,
                            hands_played: int | None = None) -> None:
    """Once the current transaction commits, try to deal at this table: at once when ``delay``
    (default GAMES_START_DELAY) is 0 or less, else through a start timer; never before the
    showdown pause is over (``pause=False``: a deal that has waited it out already retries).
    ``hands_played``: the table's hand count as the caller's transaction (which locked the
    table) leaves it, for the timer; read after the commit when not given."""
    transaction.on_commit(lambda: hand_start_soon(table_id, delay, pause=pause, hands_played=hands_played),
                          robust=True)


def hand_next_after_commit(table: Table) -> None:
    """Once the hand that just ended at the (locked) table commits, set the timer of the next
    deal, the whole showdown pause from now. Nothing is read for it: the pause is all left,
    and the timer carries the table's hand count as this transaction leaves it."""
    table_id, hands_played = table.pk, table.hands_played
    delay = settings.GAMES_NEXT_HAND_DELAY
    if delay <= 0:
        hand_start_after_commit(table_id, 0, pause=False)
        return
    transaction.on_commit(lambda: timers.schedule_start(table_id, delay, hands_played), robust=True)


def showdown_pause_left(table_id: int) -> float | None:
    """Seconds left of the pause after the table's last hand (GAMES_NEXT_HAND_DELAY from its
    reveal), 0 when over or never dealt; None while a hand is in play (its settlement
    schedules the next deal)."""
    last = Hand.objects.filter(table_id=table_id).order_by("-number").values_list("status", "finished_at").first()
    if last is None:
        return 0.0
    status, finished_at = last
    if status == Hand.Status.ACTIVE:
        return None
    if finished_at is None:
        return 0.0
    return max(0.0, settings.GAMES_NEXT_HAND_DELAY - (timezone.now() - finished_at).total_seconds())


def hand_start_soon(table_id: int, delay: float | None = None, *, pause: bool = True,
                    hands_played: int | None = None) -> None:
    """Try to deal at this table now (``delay`` 0 or less) or after ``delay`` seconds.

    A join, a top-up or a return from sitting out asks for a deal after the short start delay;
    the pause after a showdown is a minimum from the reveal all the same: while a hand is in
    play nothing is scheduled (its settlement does it), and after one the deal waits for what
    is left of the pause. A timer set earlier could otherwise deal the next hand seconds after
    the reveal (its hand count is still the table's)."""
    delay = settings.GAMES_START_DELAY if delay is None else delay
    if pause:
        left = showdown_pause_left(table_id)
        if left is None:
            return
        delay = max(delay, left)
    if delay > 0:
        timers.schedule_start(table_id, delay, hands_played)
        return
    try:
        hand_start_if_ready(table_id=table_id)
    except Exception:  # the sweeper retries; the caller's change is already committed
        log.exception("could not deal at table %s", table_id)


@transaction.atomic
def hand_start_if_ready(*, table_id: int, hands_played: int | None = None) -> Hand | None:
    """Deal the next hand when enough seated players may be dealt in.

    1. Lock the table and seats; do nothing while a hand is in play, or when a timer that
       expected ``hands_played`` hands finds another hand was dealt since it was set.
    2. Remove the seats of players who may not play now (banned, self-excluded, cooling off),
       seats that are leaving, and seats below the minimum table money (told why); away seats
       sit out, and no hand is dealt without two connected players (``away``).
    3. With enough players, ask the engine for a new hand from a fresh server seed.
    """
    change = table_lock(table_id)
    table = change.table
    if hands_played is not None and table.hands_played != hands_played:
        return None
    if table.status != Table.Status.OPEN or hand_active_locked(change) is not None:  # the latest hand is current
        return None
    if table.is_room and table.room_started_at is None:  # a room deals once its owner starts it
        return None
    level = table.stake_level
    locked = seats_locked_with_money(change)
    if seats_barred_remove(change, locked):  # banned, self-excluded or cooling off: never dealt in
        table_touch(change)
        hand_start_after_commit(table.pk, 0, pause=False)  # the players left may still be enough
        return None
    low, high = player_limits(level)
    dealt, moved = seats_to_deal(change, [(s, money) for s, money in locked if _dealt_in(table, s)], low)
    if len(dealt) < low:
        return None
    seats, stacks = [s for s, _money in dealt[:high]], [money for _s, money in dealt[:high]]
    carry = carry_for(level.game, table.carry, [s.user_id for s in seats])
    problems = start_problems(level, stacks, carry)
    if problems:
        _remove_short_seats(change, seats, stacks, problems)
        table_touch(change)
        hand_start_after_commit(table.pk, 0, pause=False)  # the players left may still be enough
        return None
    if not moved:
        table_seats_read(change, locked)  # a deal moves no table money: the frames show these
    return _deal(change, seats, stacks, carry)


def _dealt_in(table: Table, seat: Seat) -> bool:
    """Playing seats, and a leaver whose set is still running (auto-played to its end)."""
    if seat.status == Seat.Status.PLAYING:
        return True
    return seat.status == Seat.Status.LEAVING and set_running(table.stake_level.game, table.carry, seat.user_id)


def _remove_short_seats(
    change: TableChange, seats: list[Seat], stacks: list[int], problems: list[dict[str, Any]]
) -> None:
    table = change.table
    for problem in problems:
        seat = seats[problem["seat"]]
        seat_remove(change=change, seat=seat, reason=problem["reason"], money=stacks[problem["seat"]])
    if table.carry:
        kept = carry_after_removal(table.stake_level.game, table.carry)
        if kept != table.carry:
            table.carry = kept
            table_save(change, ("carry",))


def _deal(change: TableChange, seats: list[Seat], stacks: list[int], carry: dict[str, Any] | None) -> Hand:
    table, level = change.table, change.level
    seed = new_server_seed()
    rules = engine_rules(level)
    state = engine(level.game).new_hand(
        rules=rules,
        seats=[{"player": str(s.user_id), "stack": stack} for s, stack in zip(seats, stacks, strict=True)],
        carry=carry,
        server_seed=seed,
        now=time.time(),
    )
    number = table.hands_played + 1
    hand = hand_insert(Hand(
        table=table, number=number, game=level.game, state=state, phase_seq=state["phase_seq"],
        deadline=epoch_to_dt(engine(level.game).deadline(state)),
        players=[{"user": s.user_id, "seat": s.index, "name": s.user.shown_name} for s in seats],
        leavers=[s.user_id for s in seats if s.status == Seat.Status.LEAVING],
        server_seed=seed, commitment=commitment(seed), rules=rules,
    ))
    table.hands_played, table.current_hand = number, hand
    table_save(change, ("hands_played", "current_hand"), touch=True)
    if presence_matters(level.game):
        _sync_presence(change, hand, seats)
    hand_leavers_check(change, hand)  # a set's leavers are dealt in too: nobody may be left to wait for
    table_touch(change)
    hand_timer_arm(hand)
    transaction.on_commit(lambda: metrics.hand_dealt(level.game), robust=True)
    return hand


def _sync_presence(change: TableChange, hand: Hand, seats: list[Seat]) -> None:
    """An engine whose rules depend on presence carries who is away from game to game; align
    it with the seats' heartbeats (a player may have come back, or dropped, between games)."""
    for index, seat in enumerate(seats):
        away = not hand.state["seats"][index].get("connected", True)
        if away != seat.disconnected:
            action: dict[str, Any] = {"type": "disconnect" if seat.disconnected else "reconnect"}
            if seat.disconnected and seat.status == Seat.Status.LEAVING:
                action["leave"] = True  # left between two games of the set: charged in this one
            hand.state, _events = engine(hand.game).apply(hand.state, index, action, now=time.time())
            action_log(change, hand, seat=index, user=seat.user, action=action, client_id=None, auto=True)
    hand_save(change, hand, ("state", "action_count"))


# --- acting ----------------------------------------------------------------------------------

#: Engine actions only the platform may send (presence is measured, not declared).
SERVER_ONLY_ACTIONS = frozenset({"disconnect", "reconnect"})

@transaction.atomic(savepoint=False)  # a refusal rolls back the caller's transaction whole
def hand_act(*, table_id: int, user: User, action: dict[str, Any], client_id: str | None = None) -> dict[str, Any]:
    """Apply one player action, logged with the request's ``client_id``. The same id twice is
    applied once: ``commands.dispatch`` spends the id in the same transaction.

    Returns ``{"status": "applied", "version": table version}``.
    """
    clock = metrics.ActionClock(auto=False)
    change = table_lock(table_id, bump=True)  # an action applied always changes the table
    hand = hand_active_locked(change)
    if hand is None:
        raise NoActiveHand(_("No hand is in play at this table."))
    seat = hand.seat_of(user.pk)
    if seat is None:
        raise NotSeated(_("You are not dealt into this hand."))
    if action.get("type") in SERVER_ONLY_ACTIONS:
        raise PlayError(_("That action is sent by the server only."), code="illegal")
    try:
        state, events = engine(hand.game).apply(hand.state, seat, action, now=time.time())
    except EngineError as exc:  # the engine's reason is English, for the log; the player reads their language
        log.debug("hand %s seat %s: %s refused: %s", hand.pk, seat, action.get("type"), exc)
        raise PlayError(_("That move is not allowed now."), code="illegal") from exc
    action_log(change, hand, seat=seat, user=user, action=action, client_id=client_id, auto=False)
    version = hand_advance(change, hand, state)
    clock.applied(hand.game)
    return {"status": "applied", "version": version}


def hand_advance(change: TableChange, hand: Hand, state: dict[str, Any]) -> int:
    """Move a hand (table and hand rows locked) to the engine's new ``state``; returns the
    table's new version.

    While the hand goes on, the state is stored and its phase timer re-armed after commit.
    When the engine returns a result, the settlement posts the coins, writes the record and
    cashes out leavers, and the next deal is scheduled after the showdown pause.
    """
    game_engine = engine(hand.game)
    if game_engine.result(state) is None:
        state = _leavers_played(change, hand, state)
    result = game_engine.result(state)
    if result is None:
        hand_state_store(change, hand, state)
        return table_touch(change)
    hand_state_set(hand, state)
    hand_settle(change=change, hand=hand, result=result)
    seats_away_after_hand(change=change, hand=hand)
    version = table_touch(change)  # queued first: the settled hand goes out before the next deal's
    hand_next_after_commit(change.table)
    return version


#: Deadlines one advance may bring forward: each ends or extends a phase (the trio extends once).
LEAVERS_STEPS = 8


def _leavers_played(change: TableChange, hand: Hand, state: dict[str, Any]) -> dict[str, Any]:
    """A phase that waits only on seats whose players have left the table ends at once: the
    engine plays them as at their deadline, rather than everyone else (or, when all have left,
    the table) waiting out the clock for nobody. A seat merely disconnected may come back, so
    its time runs as usual (docs/RULES.md "Disconnected players")."""
    game_engine = engine(hand.game)
    leaving = set(hand.leavers)
    for _step in range(LEAVERS_STEPS):
        if not leaving:
            break
        awaited = game_engine.awaiting(state)
        if not awaited or game_engine.deadline(state) is None or game_engine.result(state) is not None:
            break
        if not all(hand.players[seat]["user"] in leaving for seat in awaited):
            break
        # Every engine keeps its phase deadline in state["deadline"] (games/engine/protocol.py).
        now = time.time()
        state, events = game_engine.on_deadline({**state, "deadline": now}, now=now)
        _autos_logged(change, hand, events)
    return state


def hand_leavers_check(change: TableChange, hand: Hand) -> bool:
    """End the hand's phase if it waits only on leavers; whether it did (and saved the hand)."""
    state = _leavers_played(change, hand, hand.state)
    if state is hand.state:
        return False
    hand_advance(change, hand, state)
    return True


def _autos_logged(change: TableChange, hand: Hand, events: list[dict[str, Any]]) -> int:
    """Log the moves the engine played for seats (events marked ``auto``); how many."""
    autos = [event for event in events if event.get("auto")]
    for event in autos:
        action_log(change, hand, seat=event.get("seat"), user=None, action=event, client_id=None, auto=True)
    return len(autos)


# --- timers ----------------------------------------------------------------------------------

def hand_expire(*, hand_id: int, phase_seq: int, deadline: float | None = None) -> bool:
    """The phase deadline passed: let the engine extend it or auto-play (idempotent).

    Does nothing if the hand moved on (another phase), is over, is not yet due, or the
    platform itself was down (the sweeper extends such deadlines first). ``deadline`` is the
    one the timer was set for: a timer that fired early re-arms only if that is still the
    hand's deadline (a changed deadline armed its own timer).

    Most timers find their phase long over (the players acted in time): one read without a
    lock or a transaction tells them so; the locked transaction checks again.
    """
    if not hand_phase_current(hand_id, phase_seq):
        return False
    return _hand_expire(hand_id=hand_id, phase_seq=phase_seq, deadline=deadline)


@transaction.atomic
def _hand_expire(*, hand_id: int, phase_seq: int, deadline: float | None) -> bool:
    clock = metrics.ActionClock(auto=True)
    locked = hand_locked_with_table(hand_id)
    if locked is None:
        return False
    change, hand = locked
    if hand.status != Hand.Status.ACTIVE or hand.phase_seq != phase_seq:
        return False
    now = timezone.now()
    if hand.deadline is None or outage_suspected(now):
        return False  # after an outage the sweeper extends the deadline and re-arms the timer
    if hand.deadline > now:
        if deadline is None or abs(hand.deadline.timestamp() - deadline) < 0.001:
            hand_timer_arm(hand)  # fired early (clock skew between machines): re-arm
        return False
    state, events = engine(hand.game).on_deadline(hand.state, now=now.timestamp())
    autos = _autos_logged(change, hand, events)
    hand_advance(change, hand, state)
    clock.applied(hand.game, count=autos)
    return True


@transaction.atomic
def hand_void(*, hand_id: int, reason: str) -> bool:
    """End a hand that cannot advance: voided with every stake returned, and the next deal
    scheduled. An engine that voids its own hands (the trio: a voided game does not count in
    its set) does it; if it cannot, or for any other game, the platform voids the hand."""
    locked = hand_locked_with_table(hand_id)
    if locked is None:
        return False
    change, hand = locked
    if hand.status != Hand.Status.ACTIVE:
        return False
    game_engine = engine(hand.game)
    if isinstance(game_engine, Voidable):
        try:
            with transaction.atomic():
                state, _events = game_engine.void(hand.state)
                hand_advance(change, hand, state)
            return True
        except Exception:
            log.exception("the engine could not void hand %s; the platform voids it", hand_id)
            hand.refresh_from_db()
            change.table.refresh_from_db()
            change = TableChange(table=change.table)  # what the rolled-back attempt did is undone
    hand_void_settle(change=change, hand=hand, reason=reason)
    table_touch(change)  # queued first: the voided hand goes out before the next deal's
    hand_next_after_commit(change.table)
    return True
