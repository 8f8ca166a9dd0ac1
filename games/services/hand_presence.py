"""A dealt-in player's presence during a hand: gone (disconnected, or leaving the table) or back.
The engine is told where presence matters (docs/RULES.md: the trio); elsewhere the timers
auto-play an absent seat (docs/ARCHITECTURE.md "Timers, presence and the watchdog")."""

from __future__ import annotations

import time
from typing import Any

from accounts.models import User
from games.adapters import engine, presence_matters
from games.engine.errors import EngineError
from games.models import Hand
from games.services.change import TableChange
from games.services.hands import hand_advance, hand_leavers_check
from games.services.store import action_log, hand_active_locked, hand_save


def hand_player_left(*, change: TableChange, user: User, leaving: bool = False) -> None:
    """A dealt-in player disconnected or (``leaving``) left the table (the ``change`` holding
    its lock, ``store.table_lock``): the engine is told where presence matters, and a phase
    left waiting only on players who have left ends at once."""
    hand = hand_active_locked(change)
    if hand is None or hand.seat_of(user.pk) is None:
        return
    if leaving and user.pk not in hand.leavers:
        hand.leavers = [*hand.leavers, user.pk]
    action: dict[str, Any] = {"type": "disconnect", "leave": True} if leaving else {"type": "disconnect"}
    if _engine_presence(change, hand, user, action):
        return  # the engine's advance has ended such a phase, and saved the hand
    if not hand_leavers_check(change, hand) and leaving:
        hand_save(change, hand, ("leavers",))


def hand_player_back(*, change: TableChange, user: User) -> None:
    hand = hand_active_locked(change)
    if hand is not None:
        _engine_presence(change, hand, user, {"type": "reconnect"})


def _engine_presence(change: TableChange, hand: Hand, user: User, action: dict[str, Any]) -> bool:
    """Tell the engine (where presence matters); whether it took the news."""
    if not presence_matters(change.level.game):
        return False  # the rules do not depend on disconnections: the timer auto-plays
    seat = hand.seat_of(user.pk)
    if seat is None:
        return False
    try:
        state, _events = engine(hand.game).apply(hand.state, seat, action, now=time.time())
    except EngineError:
        return False  # nothing to record in this phase (e.g. already disconnected, or the game is over)
    action_log(change, hand, seat=seat, user=user, action=action, client_id=None, auto=True)
    hand_advance(change, hand, state)
    return True
