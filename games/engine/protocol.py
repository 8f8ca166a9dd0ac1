"""The contract every game plug-in follows (docs/ARCHITECTURE.md "Engines").

A game is a package (``games.engine.thirteen``, ``games.engine.thirteen_trio``,
``games.engine.samgong``) whose ``plugin`` is an instance of a subclass of
:class:`GameEngine`: the state machine, and the hooks the platform asks a game about
(labels, stake rules, who may be dealt in, the house's lines, carry-overs, the bot's move, how
a hand record is kept, checked and shown). The class gives every hook most games share a
default (games/engine/defaults.py holds their rules), so a game states only what differs:
a game without sets, presence rules or outage voids writes none of those members.
:mod:`games.engine.registry` is the only place that names the games.

State is a plain ``dict`` of JSON-serialisable values (str, int, bool, None, list, dict —
never float for money, never tuples or sets), so the live-play service can store it in a
JSON column and reload it after a restart. Cards in state are ``int`` (``games.engine.cards``);
views, actions, events, results and records carry card strings (``"As"``). Functions never
mutate their input: ``apply`` returns a new state. Time is passed in (``now``, seconds since
the epoch as ``float``); engines never read clocks. Randomness comes only from the server
seed (``games.engine.deck``) or, for bots, the ``rng`` they are given.

Seats are hand-local indices ``0..n-1`` running clockwise (docs/RULES.md intro).
Money is ``int`` minor units (coins with 2 decimals: 0.50 is 50).

Common state keys: ``game``, ``phase`` (str), ``phase_seq`` (int, +1 at every phase change;
timers carry it so a late timer does nothing), ``deadline`` (float or None), ``seats``.
A hand over is in the phase ``settled`` (or ``void``); every other phase it enters has a
label in :attr:`GameEngine.phases`.

Labels (:attr:`GameEngine.label`, :attr:`GameEngine.modes`, :attr:`GameEngine.phases`, the
seat roles of a record) are English message ids marked with
:func:`games.engine.labels.gettext_noop`; the platform translates them when it shows them.

>>> class Minimal(GameEngine):  # what a game must state; everything else has a default
...     pass
>>> sorted(Minimal.__abstractmethods__)[:4]
['apply', 'auto_action', 'awaiting', 'bot_move']
>>> REQUIRED_DATA
('name', 'label', 'page', 'glyph', 'blurb', 'stake_word', 'hidden_cards', 'text_fields')
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypedDict, runtime_checkable

from games.engine import defaults, flows
from games.engine.labels import gettext_noop

if TYPE_CHECKING:
    from games.engine.showdown import Comparison

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
Record = Mapping[str, Any]

#: The data members a game must state: the rest of :class:`GameEngine` has defaults.
REQUIRED_DATA: tuple[str, ...] = (
    "name", "label", "page", "glyph", "blurb", "stake_word", "hidden_cards", "text_fields",
)


class StakeTerms(TypedDict):
    """A stake level's fields as plain data (docs/RULES.md "Stake levels"): ``unit`` is the coin
    value of one unit, one 墩 or one base, in minor units; ``rules`` its own rule overrides."""

    unit: int
    commission_percent: int
    min_buy_in: int
    min_table_money: int
    mode: str
    seats: int
    rules: dict[str, Any]


class GameEngine(ABC):
    """One game's plug-in. Subclasses set the data of :data:`REQUIRED_DATA` as class attributes
    and write the abstract methods (the state machine, the stake rules, the record); the other
    members are the defaults most games share, overridden where a game's rules differ. A
    member a game takes from one of its modules is bound as ``new_hand =
    staticmethod(machine.new_hand)``: mypy then checks it against the signature here."""

    # -- identity and labels ---------------------------------------------------------------
    #: The game's code, as stored on stake levels and in hand records (``"thirteen"``).
    name: ClassVar[str]
    #: English message id of the game's name (``"Thirteen (十三张)"``).
    label: ClassVar[str]
    #: The table page family: the page is ``tables/table_<page>.html``.
    page: ClassVar[str]
    #: The short mark the lobby shows beside the game's name (``"13"``).
    glyph: ClassVar[str]
    #: English message id of the lobby's one-line description of the game.
    blurb: ClassVar[str]
    #: What a stake level's unit is called on the pages: ``"unit"`` or ``"base"`` (a page string key).
    stake_word: ClassVar[str]
    #: Mode code → English message id, in display order; ``{"": "standard"}`` without modes.
    modes: ClassVar[Mapping[str, str]] = MappingProxyType({"": gettext_noop("standard")})
    #: Phase code → English message id of what the table page says while a hand is in it
    #: (``settled`` and ``void`` are the platform's own).
    phases: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: Whether the rules depend on who is connected (the trio's leaver penalty): the engine is
    #: then told of disconnections and returns, and a leaver mid-set counts as away.
    presence_matters: ClassVar[bool] = False
    #: Whether a hand our own outage interrupted is voided (:class:`Voidable`, stakes returned)
    #: rather than given its lost time back.
    void_on_outage: ClassVar[bool] = False

    # -- the state machine -----------------------------------------------------------------
    @abstractmethod
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

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Action templates this seat may send now (empty when it has nothing to do)."""

    @abstractmethod
    def awaiting(self, state: State) -> list[int]:
        """Seats the current phase still waits on, in seat order: each either acts or is played
        by ``on_deadline`` (a disconnected seat included, which ``legal_actions`` may leave out);
        empty when the phase waits on nobody (a pause, or the hand is over)."""

    @abstractmethod
    def apply(self, state: State, seat: int, action: Action, *, now: float) -> tuple[State, list[Event]]:
        """Apply one action; raises ``IllegalAction`` (state untouched) with a readable reason."""

    @abstractmethod
    def deadline(self, state: State) -> float | None:
        """When the current phase times out (epoch seconds), or None."""

    @abstractmethod
    def on_deadline(self, state: State, *, now: float) -> tuple[State, list[Event]]:
        """The phase timed out: extend it (the trio's automatic +30 s) or play ``auto_action``
        for every seat still to act, events marking those actions ``"auto": True``."""

    @abstractmethod
    def auto_action(self, state: State, seat: int) -> Action:
        """What a timed-out or disconnected seat plays (never a foul)."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). Never another seat's hidden cards
        before they are revealed at showdown."""

    @abstractmethod
    def result(self, state: State) -> dict[str, Any] | None:
        """Once settled: ``{"units": [...], "coins": [net per seat], "commission": int,
        "house": int, ...}`` with ``sum(coins) + house == 0`` exactly (house = commission +
        penalty cuts + house-banked results). None before settlement."""

    @abstractmethod
    def carry_over(self, state: State) -> dict[str, Any]:
        """What the next hand at this table needs from this one."""

    def suggestions(self, state: State, seat: int, k: int = 3) -> list[Action]:
        """The hint button: up to ``k`` actions the seat might send now, best first (empty when
        it has nothing to do). By default the game offers none."""
        return []

    @abstractmethod
    def bot_move(self, view: dict[str, Any], rng: random.Random) -> Action | None:
        """A bot's move, decided from its own ``view`` only (what a person sees), or None when
        it has nothing to do."""

    # -- stake level and table ---------------------------------------------------------------
    def stake_rules(self, terms: StakeTerms) -> dict[str, Any]:
        """The engine rule overrides of a stake level (its own ``rules`` win): by default the
        unit and the commission."""
        return defaults.unit_and_commission(terms)

    @abstractmethod
    def player_limits(self, rules: dict[str, Any], seats: int) -> tuple[int, int]:
        """How many players a hand needs (at least, at most) at a table of ``seats`` seats
        whose stake level gives the rule overrides ``rules``."""

    def start_problems(
        self, rules: dict[str, Any], stacks: Sequence[int], carry: dict[str, Any] | None, min_table_money: int
    ) -> list[dict[str, Any]]:
        """Seats (indices into ``stacks``) that may not be dealt the next hand, and why:
        ``{"seat", "reason", "stack", "minimum"}`` each. By default those below the stake
        level's minimum table money."""
        return defaults.below_table_minimum(stacks, min_table_money)

    @abstractmethod
    def rule_sheet(self, rules: dict[str, Any], seats: int) -> dict[str, Any]:
        """The rules panel of a table whose stake level gives the rule overrides ``rules``
        (:mod:`games.engine.sheet`): ``players`` (at least, at most), ``lines`` (message ids
        with their values) and the game's own data the table page reads (a house table's
        ``payouts``)."""

    def house_lines(self, result: Mapping[str, Any]) -> dict[str, int]:
        """The house's side of a settlement: commission, and the rest as its own line (by
        default ``banker``, a house-banked table's result; the trio's ``penalty``), so
        ``sum(coins) + sum(lines) == 0``; zero lines are left out."""
        return defaults.house_lines_split(result, rest="banker")

    # -- the integrity signals (docs/INTEGRITY.md) ---------------------------------------------
    def pair_flows(self, rec: Record, coins: Sequence[int]) -> list[tuple[int, int, int]]:
        """``(payer seat, receiver seat, coins)`` that moved between seats of the recorded hand
        had its seats' coins been ``coins`` (the result's, or a re-score's): by default the
        seats' coins netted (:func:`games.engine.flows.netted_flows`)."""
        return flows.netted_flows(coins)

    def seat_worth(self, rec: Record, seat: int) -> list[int] | None:
        """Every seat's coins had ``seat`` played the solver's best arrangement of its own cards,
        the others as they played: what its own cards were worth, against which its result
        shows play above or below them. None where a game has no such choice to value, or the
        record cannot be re-scored (a penalty, a void)."""
        return None

    def bet_lean(self, rec: Record, seat: int) -> int | None:
        """How ``seat``'s bet leaned against the cards it saw when betting, in minor units: below 0
        when a large bet rode on weak cards or a small one on strong cards. None where the game
        has no bet placed on cards already seen (the default)."""
        return None

    # -- sets and presence: games that bind players beyond one hand (the trio) ---------------
    def carry_for(self, saved: Mapping[str, Any] | None, players: Sequence[int]) -> dict[str, Any] | None:
        """The carry-over for the next hand from what the table saved after the last one
        (``{"engine": ..., "players": [user ids]}``), or None for a fresh start. By default
        the saved carry-over, whoever plays next."""
        return defaults.carry_kept(saved, players)

    def set_running(self, saved: Mapping[str, Any] | None, user_id: int) -> bool:
        """Whether ``user_id`` is bound to a set still running at this table (leaving then
        counts as disconnecting, auto-played to the end of the set). By default never."""
        return False

    def away_outcome(self, saved: Mapping[str, Any] | None, user_id: int) -> str:
        """What becomes of ``user_id``'s seat when the player was away at the end of a hand
        (auto-played, not connected): ``"stay"`` (bound to a running set), ``"sit_out"`` or
        ``"stand_up"`` (:data:`games.engine.defaults.AWAY_OUTCOMES`); ``saved`` is the carry-over
        the table saved after that hand. By default the seat sits out from the next deal
        (docs/RULES.md "Away players")."""
        return defaults.AWAY_SIT_OUT

    def carry_after_removal(self, saved: dict[str, Any]) -> dict[str, Any]:
        """What the table keeps after seats were removed for lack of table money. By default
        all of it."""
        return saved

    def set_progress(
        self, rules: dict[str, Any], saved: Mapping[str, Any] | None, state: Mapping[str, Any] | None
    ) -> dict[str, Any] | None:
        """Where the table is in its set (the trio's 6 games): ``{"game", "size", "in_play"}``
        — the game in play, or between games the next one — or None (the default) for games
        without sets. ``saved`` is the table's saved carry-over, ``state`` the current or last
        hand's state."""
        return None

    def leave_terms(
        self, rules: dict[str, Any], saved: Mapping[str, Any] | None, state: Mapping[str, Any] | None,
        user_id: int,
    ) -> dict[str, Any] | None:
        """What leaving now means for ``user_id`` when it binds the player beyond the hand in
        play (the trio's set): ``{"games_left", "game", "size", "penalty"}`` (penalty in minor
        units), else None (the default)."""
        return None

    # -- the hand record (docs/HAND_HISTORY.md) ------------------------------------------------
    @abstractmethod
    def record_part(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """The game's fields of a settled hand's record (the score request's seats and money)."""

    @abstractmethod
    def redact(self, body: dict[str, Any], seat: int) -> list[str]:
        """Hide in ``body`` (a copy, changed in place) what the player at ``seat`` may not see;
        the names of the hidden fields."""

    @abstractmethod
    def check_deal(self, rec: dict[str, Any]) -> list[tuple[str, str]]:
        """``(field, problem)`` for every way the record's cards differ from the seed's deal."""

    @abstractmethod
    def check_score(self, rec: dict[str, Any]) -> list[tuple[str, str]]:
        """``(field, problem)`` for every way the record's result differs from a re-score."""

    # -- showing a record: the replay page and the text export -----------------------------------
    #: How many cards a seat holds: a hidden hand is written as that many ``??``.
    hidden_cards: ClassVar[int]
    #: The record's top-level fields the text export repeats as ``_field`` lines, in order.
    text_fields: ClassVar[tuple[str, ...]]
    #: English message ids of the codes a record's moves carry (三公's bet spots), for the replay.
    move_terms: ClassVar[Mapping[str, str]] = MappingProxyType({})

    @abstractmethod
    def text_variant(self, rec: Record) -> str:
        """The record's variant code in the text export (``"CT"``, ``"SG-BB"``...)."""

    def deal_lines(self, rec: Record) -> list[str]:
        """Text-export action lines dealt before the seats' hands (the trio's jackpot card);
        none by default."""
        return []

    def table_lines(self, rec: Record) -> list[str]:
        """Text-export action lines dealt after the players acted (三公's house table hands);
        none by default."""
        return []

    def seat_commissions(self, rec: Record) -> list[int]:
        """The commission each seat paid in the recorded hand, in minor units (the CSV summary's
        ``commission`` column); they add up to ``result.commission``. By default as the result
        reports them per seat (``commissions``)."""
        return defaults.seat_commissions_reported(rec)

    def seat_roles(self, rec: Record, seat: int) -> list[str]:
        """English message ids of ``seat``'s roles in the hand (dealer, table head, banker);
        none by default."""
        return []

    @abstractmethod
    def showdown(self, rec: Record) -> list[Comparison]:
        """The replay's comparisons of a record (complete or a player's copy), in order: each
        row of the row games, 三公's hands; what each seat showed, its category, who won
        (:mod:`games.engine.showdown`)."""


@runtime_checkable
class Voidable(Protocol):
    """An engine whose hands can be voided (``void_on_outage``): interrupted by our own servers,
    every stake returned. An optional capability: a game with ``void_on_outage`` writes ``void``."""

    def void(self, state: State) -> tuple[State, list[Event]]:
        """End a hand in progress with all coins 0; ``IllegalAction`` once it is over."""
        ...
