"""Hands played through the live services (real wallet buy-ins, hand_act, hand_expire for
auto-play, the trio's disconnects), and the users who look at their records."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.roles import roles_sync
from games.adapters import engine
from games.engine.cards import cards_str
from games.models import Hand
from games.services import hands as hands_service
from games.services.hand_presence import hand_player_back, hand_player_left
from games.services.hands import hand_act, hand_expire, hand_start_if_ready
from games.services.seating import seat_join
from games.services.store import table_lock
from history.models import HandRecord
from tables.models import Table
from tests.factories import funded_user, table_at

_names = itertools.count(1)
START_COINS = 50_000_000

#: Every game and mode with a player count: (game, mode, players).
CASES = [
    ("thirteen", "", 4),
    ("thirteen", "", 2),
    ("thirteen_trio", "", 3),
    ("samgong", "all_compare", 5),
    ("samgong", "banker_bid", 4),
    ("samgong", "banker_rotate", 4),
    ("samgong", "pairwise", 6),
    ("samgong", "house", 3),
]


def new_player(name: str | None = None, coins: int = START_COINS) -> User:
    name = name or f"p{next(_names)}"
    return funded_user(name, coins, display_name=name.title())


def _random_rows(cards: list[str], rng: random.Random) -> dict[str, list[str]]:
    picked = rng.sample(cards, 13)
    return {"front": picked[:3], "middle": picked[3:8], "back": picked[8:13]}


def choose_move(hand: Hand, seat: int, rng: random.Random) -> dict[str, Any]:
    """What a player sends: the server's own suggestion, or a random legal move (fouls too)."""
    eng = engine(hand.game)
    if rng.random() < 0.5:
        return dict(eng.auto_action(hand.state, seat))
    cards = hand.state["seats"][seat].get("cards")
    if hand.game in ("thirteen", "thirteen_trio"):
        return {"type": "arrange", **_random_rows(cards_str(cards), rng)}
    move = dict(rng.choice(eng.legal_actions(hand.state, seat)))
    if move["type"] == "bet" and "bets" in move:
        return {"type": "bet", "bets": {rng.choice(["player", "banker", "tie", "sangong", "side"]): 2 * rng.randint(1, 50)}}
    return {k: v for k, v in move.items() if k in ("type", "multiplier")}


@dataclass
class Live:
    """A table with funded, seated players, and a driver that plays its hands to the end."""

    table: Table
    users: list[User]
    rng: random.Random
    clock: Any
    disconnects: float = 0.08  # the trio: chance per step that a seat drops or comes back

    def by_id(self, user_id: int) -> User:
        return next(u for u in self.users if u.pk == user_id)

    def play_hand(self, *, auto_rate: float = 0.2) -> Hand | None:
        hand = hand_start_if_ready(table_id=self.table.pk)
        if hand is None:
            return None
        while hand.status == Hand.Status.ACTIVE:
            self._step(hand, auto_rate)
            hand.refresh_from_db()
        return hand

    def _step(self, hand: Hand, auto_rate: float) -> None:
        eng = engine(hand.game)
        seats = [s for s in range(len(hand.players)) if eng.legal_actions(hand.state, s)]
        if hand.game == "thirteen_trio" and self.rng.random() < self.disconnects:
            seat = self.rng.randrange(3)
            user = self.by_id(hand.players[seat]["user"])
            with transaction.atomic():  # as presence calls them: the table locked
                change = table_lock(self.table.pk)
                if hand.state["seats"][seat]["connected"]:
                    hand_player_left(change=change, user=user)
                else:
                    hand_player_back(change=change, user=user)
        elif seats and self.rng.random() >= auto_rate:
            seat = self.rng.choice(seats)
            hand_act(table_id=self.table.pk, user=self.by_id(hand.players[seat]["user"]),
                     action=choose_move(hand, seat, self.rng), client_id=uuid.uuid4().hex)
        else:  # let the phase time out: the engine auto-plays (or the trio extends once)
            self.clock.move_to(max(hand.deadline, timezone.now()) + dt.timedelta(seconds=1), tick=False)
            hand_expire(hand_id=hand.pk, phase_seq=hand.phase_seq)

    def play(self, hands: int) -> list[Hand]:
        played = []
        for _ in range(hands):
            hand = self.play_hand()
            if hand is None:
                break
            played.append(hand)
        return played


@pytest.fixture(autouse=True)
def _postgres_only(request: pytest.FixtureRequest) -> None:
    """Tests marked ``postgres`` (its triggers refuse DELETE too) skip on SQLite."""
    from django.conf import settings

    on_postgres = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    if request.node.get_closest_marker("postgres") and not on_postgres:
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")


@pytest.fixture
def live(db: Any, time_machine: Any, monkeypatch: pytest.MonkeyPatch, settings: Any) -> Callable[..., Live]:
    time_machine.move_to(timezone.now(), tick=False)
    # The players sit at the table throughout: the clock jumps past deadlines, their heartbeats
    # are not sent, and nobody should count as away (docs/RULES.md "Away players").
    settings.GAMES_PRESENCE_TIMEOUT = 10**9
    # The deals too are the same every run (the moves come from each table's seeded rng): a
    # random deal could leave a player netting nothing, with no wallet line for the hand.
    deals = itertools.count(1)
    monkeypatch.setattr(hands_service, "new_server_seed", lambda: f"{next(deals):064x}")

    def make(game: str, mode: str = "", players: int = 3, *, seed: int = 1) -> Live:
        table = table_at(game, mode, name=f"{game} {mode} {next(_names)}")
        level = table.stake_level
        users = [new_player() for _ in range(players)]
        for user in users:
            seat_join(table_id=table.pk, user=user, buy_in=max(level.min_buy_in, 40 * level.unit),
                      request_id=f"join-{user.pk}")
        return Live(table=table, users=users, rng=random.Random(seed), clock=time_machine)

    return make


@pytest.fixture
def people(db: Any) -> dict[str, User]:
    """An auditor (staff in the auditors group), a reviewing staff member and a stranger."""
    auditor = User.objects.create_user(username="audrey", password="x" * 12, is_staff=True)
    auditor.groups.add(roles_sync())
    staff = User.objects.create_user(username="stan", password="x" * 12, is_staff=True, is_superuser=True)
    stranger = new_player("stranger")
    return {"auditor": User.objects.get(pk=auditor.pk), "staff": staff, "stranger": stranger}


def records_of(table: Table) -> list[HandRecord]:
    return list(HandRecord.objects.filter(table=table).order_by("chain_seq"))
