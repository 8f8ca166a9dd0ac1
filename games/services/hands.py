"""Hands: deal, apply one action, time out, settle (ARCHITECTURE.md "Data flow").

Every function here locks the table row, then the hand row, runs one engine step, saves the
state with a new version and broadcasts after commit. The engine decides everything about
the game; this module only stores, times and settles what it returns.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import timers
from games.adapters import engine, engine_rules, player_limits, start_problems
from games.engine.deck import commitment, new_server_seed
from games.engine.errors import EngineError
from games.models import Hand, HandAction
from games.services.errors import NoActiveHand, NotSeated, PlayError
from games.services.tables import seats_locked, table_lock, table_touch
from tables.models import Seat, Table
from wallet import selectors as wallet_selectors

log = logging.getLogger(__name__)


def _epoch_to_dt(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, tz=UTC)


def _active_hand_locked(table: Table) -> Hand | None:
    return Hand.objects.select_for_update().filter(table=table, status=Hand.Status.ACTIVE).first()


# --- dealing ---------------------------------------------------------------------------------

def schedule_start(table_id: int, delay: float | None = None) -> None:
    """Try to deal at this table now, or after ``delay`` seconds through a timer."""
    timers.schedule_start(table_id, delay)


@transaction.atomic
def hand_start_if_ready(*, table_id: int, hands_played: int | None = None) -> Hand | None:
    """Deal the next hand when enough seated players may be dealt in.

    1. Lock the table and seats; do nothing while a hand is in play, or when a timer that
       expected ``hands_played`` hands finds another hand was dealt since it was set.
    2. Remove seats that are leaving, and seats below the minimum table money (told why).
    3. With enough players, ask the engine for a new hand from a fresh server seed.
    """
    table = table_lock(table_id)
    if hands_played is not None and table.hands_played != hands_played:
        return None
    if table.status != Table.Status.OPEN or Hand.objects.filter(table=table, status=Hand.Status.ACTIVE).exists():
        return None
    level = table.stake_level
    seats = [s for s in seats_locked(table) if _dealt_in(table, s)]
    low, high = player_limits(level)
    if len(seats) < low:
        return None
    seats = seats[:high]
    stacks = [wallet_selectors.table_money(user=s.user, table_ref=table.wallet_ref) for s in seats]
    carry = _engine_carry(table, seats)
    problems = start_problems(level, stacks, carry)
    if problems:
        _remove_short_seats(table, seats, problems)
        table_touch(table)
        return None
    return _deal(table, seats, stacks, carry)


def _dealt_in(table: Table, seat: Seat) -> bool:
    """Playing seats, and in the trio a leaver whose set is still running (auto-played)."""
    if seat.status == Seat.Status.PLAYING:
        return True
    from games.services.seating import trio_set_running

    return seat.status == Seat.Status.LEAVING and trio_set_running(table, seat.user_id)


def _engine_carry(table: Table, seats: list[Seat]) -> dict[str, Any] | None:
    """The engine's carry-over, or None when the players changed in the trio (a new set)."""
    saved = table.carry or {}
    if not saved.get("engine"):
        return None
    if table.stake_level.game == "thirteen_trio" and saved.get("players") != [s.user_id for s in seats]:
        return None
    return dict(saved["engine"])


def _remove_short_seats(table: Table, seats: list[Seat], problems: list[dict[str, Any]]) -> None:
    from games.services.seating import seat_remove

    for problem in problems:
        seat = seats[problem["seat"]]
        seat_remove(table=table, seat=seat, reason=problem["reason"])
    if table.stake_level.game == "thirteen_trio" and table.carry:
        table.carry = {}  # the set ends there, without a leaver penalty
        table.save(update_fields=["carry"])


def _deal(table: Table, seats: list[Seat], stacks: list[int], carry: dict[str, Any] | None) -> Hand:
    level = table.stake_level
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
    hand = Hand.objects.create(
        table=table, number=number, game=level.game, state=state, phase_seq=state["phase_seq"],
        deadline=_epoch_to_dt(engine(level.game).deadline(state)),
        players=[{"user": s.user_id, "seat": s.index, "name": s.user.shown_name} for s in seats],
        server_seed=seed, commitment=commitment(seed), rules=rules,
    )
    table.hands_played = number
    table.save(update_fields=["hands_played"])
    if level.game == "thirteen_trio":
        _sync_presence(hand, seats)
    table_touch(table)
    _after_commit_timer(hand)
    return hand


def _sync_presence(hand: Hand, seats: list[Seat]) -> None:
    """The trio's engine carries who is away from game to game; align it with the seats'
    heartbeats (a player may have come back, or dropped, between games)."""
    for index, seat in enumerate(seats):
        away = not hand.state["seats"][index].get("connected", True)
        if away != seat.disconnected:
            action = {"type": "disconnect" if seat.disconnected else "reconnect"}
            hand.state, _events = engine(hand.game).apply(hand.state, index, action, now=time.time())
            _log_action(hand, seat=index, user=seat.user, action=action, client_id=None, auto=True)
    hand.save(update_fields=["state"])


def _after_commit_timer(hand: Hand) -> None:
    if hand.status == Hand.Status.ACTIVE and hand.deadline is not None:
        hand_id, seq, when = hand.pk, hand.phase_seq, hand.deadline
        transaction.on_commit(lambda: timers.schedule_expire(hand_id, seq, when))


# --- acting ----------------------------------------------------------------------------------

#: Engine actions only the platform may send (presence is measured, not declared).
SERVER_ONLY_ACTIONS = frozenset({"disconnect", "reconnect"})

@transaction.atomic
def hand_act(*, table_id: int, user: User, action: dict[str, Any], client_id: str | None = None) -> dict[str, Any]:
    """Apply one player action. The same ``client_id`` twice is applied once.

    Returns ``{"status": "applied" | "duplicate", "version": table version}``.
    """
    table = table_lock(table_id)
    hand = _active_hand_locked(table)
    if hand is None:
        raise NoActiveHand(_("No hand is in play at this table."))
    seat = hand.seat_of(user.pk)
    if seat is None:
        raise NotSeated(_("You are not dealt into this hand."))
    if client_id and HandAction.objects.filter(hand=hand, user=user, client_id=client_id).exists():
        return {"status": "duplicate", "version": table.version}
    if action.get("type") in SERVER_ONLY_ACTIONS:
        raise PlayError(_("That action is sent by the server only."), code="illegal")
    try:
        state, events = engine(hand.game).apply(hand.state, seat, action, now=time.time())
    except EngineError as exc:
        raise PlayError(str(exc), code="illegal") from exc
    _log_action(hand, seat=seat, user=user, action=action, client_id=client_id, auto=False)
    version = hand_state_save(table, hand, state)
    return {"status": "applied", "version": version}


def _log_action(
    hand: Hand, *, seat: int | None, user: User | None, action: dict[str, Any], client_id: str | None, auto: bool
) -> None:
    seq = HandAction.objects.filter(hand=hand).count() + 1
    HandAction.objects.create(
        hand=hand, seq=seq, seat=seat, user=user, action=action, client_id=client_id, auto=auto,
        version=hand.version + 1,
    )


def hand_state_save(table: Table, hand: Hand, state: dict[str, Any]) -> int:
    """Store a new engine state (table and hand locked): a new version, the engine's phase
    sequence and deadline, the timer re-armed; settle when the engine says the hand is over."""
    eng = engine(hand.game)
    hand.state = state
    hand.version += 1
    hand.phase_seq = int(state.get("phase_seq", hand.phase_seq))
    hand.deadline = _epoch_to_dt(eng.deadline(state))
    result = eng.result(state)
    if result is not None:
        from games.services.settlement import hand_settle

        hand_settle(table=table, hand=hand, result=result)
    else:
        hand.save(update_fields=["state", "version", "phase_seq", "deadline"])
        _after_commit_timer(hand)
    return table_touch(table)


# --- timers ----------------------------------------------------------------------------------

@transaction.atomic
def hand_expire(*, hand_id: int, phase_seq: int) -> bool:
    """The phase deadline passed: let the engine extend it or auto-play (idempotent).

    Does nothing if the hand moved on (another phase), is over, is not yet due, or the
    platform itself was down (the sweeper extends such deadlines first).
    """
    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    table = table_lock(table_id)
    hand = Hand.objects.select_for_update().get(pk=hand_id)
    if hand.status != Hand.Status.ACTIVE or hand.phase_seq != phase_seq:
        return False
    from games.services.sweeper import outage_suspected

    now = timezone.now()
    if hand.deadline is None or outage_suspected(now):
        return False  # after an outage the sweeper extends the deadline and re-arms the timer
    if hand.deadline > now:
        _after_commit_timer(hand)  # fired early (clock skew between machines): re-arm
        return False
    state, events = engine(hand.game).on_deadline(hand.state, now=now.timestamp())
    for event in events:
        if event.get("auto"):
            _log_action(hand, seat=event.get("seat"), user=None, action=event, client_id=None, auto=True)
    hand_state_save(table, hand, state)
    return True


# --- presence --------------------------------------------------------------------------------

def hand_player_left(*, table: Table, user: User) -> None:
    """Tell the engine a dealt-in player left or disconnected (the trio's penalty rule)."""
    _engine_presence(table, user, {"type": "disconnect"})


def hand_player_back(*, table: Table, user: User) -> None:
    _engine_presence(table, user, {"type": "reconnect"})


def _engine_presence(table: Table, user: User, action: dict[str, Any]) -> None:
    if table.stake_level.game != "thirteen_trio":
        return  # only the trio's rules depend on disconnections; elsewhere the timer auto-plays
    hand = _active_hand_locked(table)
    seat = hand.seat_of(user.pk) if hand else None
    if hand is None or seat is None:
        return
    try:
        state, _events = engine(hand.game).apply(hand.state, seat, action, now=time.time())
    except EngineError:
        return  # nothing to record in this phase (e.g. the game is already over)
    _log_action(hand, seat=seat, user=user, action=action, client_id=None, auto=True)
    hand_state_save(table, hand, state)


def hand_hints(*, table_id: int, user: User) -> list[dict[str, Any]]:
    """Suggested actions for the player's seat (the arrangement the server would play)."""
    hand = Hand.objects.filter(table_id=table_id, status=Hand.Status.ACTIVE).first()
    seat = hand.seat_of(user.pk) if hand else None
    if hand is None or seat is None:
        raise NoActiveHand(_("No hand is in play for you at this table."))
    eng = engine(hand.game)
    if not eng.legal_actions(hand.state, seat):
        return []
    suggest = getattr(eng, "suggestions", None)
    if suggest is not None:
        return list(suggest(hand.state, seat))
    return [eng.auto_action(hand.state, seat)]
