"""The contract every game engine module follows (ARCHITECTURE.md "Engines").

A game is a module (``games.engine.thirteen``, ``games.engine.thirteen_trio``,
``games.engine.samgong``) exposing the functions of :class:`GameEngine`. State is a plain
``dict`` of JSON-serialisable values (str, int, bool, None, list, dict — never float for
money, never tuples or sets), so the live-play service can store it in a JSON column and
reload it after a restart. Functions never mutate their input: ``apply`` returns a new state.
Time is passed in (``now``, seconds since the epoch as ``float``); engines never read clocks.
Randomness comes only from the server seed (``games.engine.deck``).

Seats are hand-local indices ``0..n-1`` running clockwise (RULES.md intro).
Money is ``int`` minor units (coins with 2 decimals: 0.50 is 50).

Common state keys: ``game``, ``phase`` (str), ``phase_seq`` (int, +1 at every phase change;
timers carry it so a late timer does nothing), ``deadline`` (float or None), ``seats``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


class GameEngine(Protocol):
    def new_hand(
        self,
        *,
        rules: dict[str, Any],
        seats: Sequence[dict[str, Any]],
        carry: dict[str, Any] | None,
        server_seed: str,
        client_seeds: Sequence[str] = (),
        now: float,
    ) -> State:
        """Start a hand. ``seats[i]`` has at least ``{"player": str, "stack": int}`` (table
        money in minor units). ``carry`` is what ``carry_over`` returned for the previous hand
        at this table (dealer button, table head, set counter, banker...), ``None`` for the
        first hand. ``rules`` overrides the game's default rule set (stake unit/base,
        commission, timers, multipliers...)."""
        ...

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Action templates this seat may send now (empty when it has nothing to do)."""
        ...

    def apply(self, state: State, seat: int, action: Action, *, now: float) -> tuple[State, list[Event]]:
        """Apply one action; raises ``IllegalAction`` (state untouched) with a readable reason."""
        ...

    def deadline(self, state: State) -> float | None:
        """When the current phase times out (epoch seconds), or None."""
        ...

    def on_deadline(self, state: State, *, now: float) -> tuple[State, list[Event]]:
        """The phase timed out: extend it (the trio's automatic +30 s) or play ``auto_action``
        for every seat still to act, events marking those actions ``"auto": True``."""
        ...

    def auto_action(self, state: State, seat: int) -> Action:
        """What a timed-out or disconnected seat plays (never a foul)."""
        ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). Never another seat's hidden cards
        before they are revealed at showdown."""
        ...

    def result(self, state: State) -> dict[str, Any] | None:
        """Once settled: ``{"units": [...], "coins": [net per seat], "commission": int,
        "house": int, ...}`` with ``sum(coins) + house == 0`` exactly (house = commission +
        penalty cuts + house-banked results). None before settlement."""
        ...

    def carry_over(self, state: State) -> dict[str, Any]:
        """What the next hand at this table needs from this one."""
        ...
