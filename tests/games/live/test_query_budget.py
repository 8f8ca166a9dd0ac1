"""What one request costs in SQL, counted by Django (docs/SCALING.md "The action path").

A count of statements is deterministic, so it is asserted here, not benchmarked: a player's
action takes at most 4 statements with its broadcast on PostgreSQL (lock the table by bumping
its version; read its stake level, hand and seats with their table money, the seats for the
frames; save the hand and log the action; spend the request id), 6 elsewhere (the action logged
on its own, the seats read after commit), however many seats; settling a hand and dealing one take a number that does not grow
with the seats. Transaction control (BEGIN, COMMIT, savepoints) is not counted: it carries no
work. The frames sent are the ones a fresh read of the database gives.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import broadcast
from games.adapters import engine, player_limits
from games.frames import frame_for
from games.models import Hand
from games.protocol import Message
from games.services import commands
from games.services import hands as hands_service
from games.services.hands import hand_start_if_ready
from tables import rooms
from tables.models import Seat, Table
from tests.games.live.helpers import sent_frames

pytestmark = pytest.mark.django_db(transaction=True)


def _on_postgres() -> bool:
    return connection.vendor == "postgresql"


def action_budget() -> int:
    return 4 if _on_postgres() else 6


def settle_budget() -> int:
    """The settling action, whatever the game: the ledger posting (wallet.posting) and the hand's
    record (history.services) take two statements each on PostgreSQL (were 3 and 6), the hand is
    saved with its last action, the frames show the seats as the action read them, their
    table money moved by the settlement, and one statement asks which players are grant-funded
    for the welcome-coins signal (integrity.services): 10 (house tables 9) in all."""
    return 10 if _on_postgres() else 19  # SQLite: the ledger and the record by the ORM


def deal_budget() -> int:
    """Lock, the seats locked with their table money (which the frames show), the hand, the
    table's hand count and version in one statement (the trio: one more, its presence)."""
    return 5 if _on_postgres() else 6


CONTROL = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\b", re.I)
GAMES = [("thirteen", ""), ("thirteen_trio", ""), ("samgong", "all_compare"), ("samgong", "banker_bid"),
         ("samgong", "house")]
_ids = itertools.count()


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same deals every run: a hand whose every seat nets nothing posts no ledger entries
    (one statement fewer), so random deals made the settlement's count vary from run to run."""
    seeds = itertools.count(1)
    monkeypatch.setattr(hands_service, "new_server_seed", lambda: f"{next(seeds):064x}")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every channel-layer message sent, in order (the layer itself is not needed here)."""
    messages: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(broadcast, "group_send", lambda *pairs, **_kw: messages.extend(pairs))
    return messages


def _counted(run: Any) -> tuple[Any, list[str]]:
    with CaptureQueriesContext(connection) as ctx:
        result = run()
    return result, [q["sql"] for q in ctx.captured_queries if not CONTROL.match(q["sql"])]


def _request(table: Table, user: Any, type: str, **data: Any) -> tuple[dict[str, Any], list[str]]:
    message = Message(type=type, id=f"q{next(_ids)}", data=data)
    return _counted(lambda: commands.dispatch(table.pk, user, message))


def _seated(table: Table, users: list) -> None:
    for user in users:
        reply, _sql = _request(table, user, "join", buy_in=table.stake_level.min_buy_in * 3)
        assert "seat" in reply


def _frames_fresh(table: Table, sent: list[tuple[str, dict[str, Any]]]) -> None:
    """Each frame sent is what a snapshot read from the database now would say."""
    frames = sent_frames(sent)
    assert frames
    for user, frame in frames:
        assert frame == frame_for(table.pk, user), user
    sent.clear()


def _play(table: Table, users: list, sent: list) -> tuple[list[list[str]], list[str]]:
    """Play a hand out by requests; the statements of each mid-hand action, and of the one
    that settled it."""
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    sent.clear()
    return _play_out(table, hand, users, sent)


def _play_out(table: Table, hand: Hand, users: list, sent: list) -> tuple[list[list[str]], list[str]]:
    by_id = {u.pk: u for u in users}
    eng, actions = engine(hand.game), []
    for _ in range(40):
        seat = next(s for s in range(len(hand.players)) if eng.legal_actions(hand.state, s))
        user = by_id[hand.players[seat]["user"]]
        reply, sql = _request(table, user, "action", action=dict(eng.auto_action(hand.state, seat)))
        assert reply["status"] == "applied", reply
        _frames_fresh(table, sent)
        hand = Hand.objects.get(pk=hand.pk)
        if hand.status != Hand.Status.ACTIVE:
            return actions, sql
        actions.append(sql)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize(("game", "mode"), GAMES, ids=[f"{g}-{m or 'standard'}" for g, m in GAMES])
def test_an_action_costs_at_most_four_statements_with_its_broadcast(funded, table_for, sent, game, mode):
    table = table_for(game, mode)
    users = [funded() for _ in range(player_limits(table.stake_level)[1])]
    _seated(table, users)
    actions, _settling = _play(table, users, sent)
    assert actions, "no action before the settling one"
    for sql in actions:
        assert len(sql) <= action_budget(), "\n".join(sql)
    print(f"actions {game} {mode}: {sorted({len(sql) for sql in actions})} statements")


@pytest.mark.parametrize(("game", "mode"), GAMES, ids=[f"{g}-{m or 'standard'}" for g, m in GAMES])
def test_settling_a_hand_costs_the_same_whatever_the_number_of_seats(funded, table_for, sent, game, mode):
    counts = []
    low, high = player_limits(table_for(game, mode).stake_level)
    for n in sorted({max(low, 2), high}):
        table = table_for(game, mode)
        users = [funded() for _ in range(n)]
        _seated(table, users)
        _actions, settling = _play(table, users, sent)
        counts.append(len(settling))
    assert len(set(counts)) == 1, counts
    assert counts[0] <= settle_budget(), counts
    print(f"settling {game} {mode}: {counts[0]} statements")


def test_joining_and_leaving_cost_a_bounded_number_of_statements(funded, table_for, sent):
    table = table_for("thirteen")
    users = [funded() for _ in range(4)]
    joins = []
    for user in users:
        reply, sql = _request(table, user, "join", buy_in=table.stake_level.min_buy_in * 3)
        assert "seat" in reply
        joins.append(len(sql))
        _frames_fresh(table, sent)
    leaves = []
    for user in users[1:]:
        reply, sql = _request(table, user, "leave")
        assert reply == {"left": True}
        leaves.append(len(sql))
        _frames_fresh(table, sent)
    # the same for every seat, but the first: alone at the table, no deal is tried after it (the
    # last hand's showdown pause is not read)
    assert joins[0] == joins[1] - 1 and len(set(joins[1:])) == 1 and len(set(leaves)) == 1, (joins, leaves)
    # a join also reads whether the account is banned (fresh: a socket's user is the account as
    # it was when the socket opened), locks the player's responsible-play limits and sums the
    # losses they bound (docs/RESPONSIBLE_PLAY.md); the buy-in's posting takes two statements,
    # and the table money is read again only when the wallet replayed an earlier buy-in: 11;
    # a leave locks the table by bumping its version, reads the seats its frames show with the
    # lock, cashes out the table money its seat was read with, and its frames show those seats
    # less its own: 7 (9 before) (SQLite: the postings by the ORM, 15 and 10)
    join_budget, leave_budget = (11, 7) if _on_postgres() else (15, 10)
    assert max(joins) <= join_budget and max(leaves) <= leave_budget, (joins, leaves)
    print(f"join {joins[0]}, leave {leaves[0]} statements")


@pytest.mark.parametrize(("game", "mode"), GAMES, ids=[f"{g}-{m or 'standard'}" for g, m in GAMES])
def test_dealing_costs_the_same_whatever_the_number_of_seats(funded, table_for, sent, game, mode):
    counts = []
    low, high = player_limits(table_for(game, mode).stake_level)
    for n in sorted({max(low, 2), high}):
        table = table_for(game, mode)
        _seated(table, [funded() for _ in range(n)])
        sent.clear()
        hand, sql = _counted(lambda t=table: hand_start_if_ready(table_id=t.pk))
        assert hand is not None and len(hand.players) == n
        _frames_fresh(table, sent)
        counts.append(len(sql))
    assert len(set(counts)) == 1, counts  # the table money of every seat in one query
    assert counts[0] <= deal_budget(), counts
    print(f"deal {game} {mode}: {counts[0]} statements")


@pytest.mark.parametrize(("game", "mode"), [("thirteen", ""), ("thirteen_trio", "")])
def test_leaving_in_a_hand_shows_the_seat_leaving_and_then_gone_in_the_frames(funded, table_for, sent, game, mode):
    """A leave while dealt in marks the seat leaving (its table money stays until the hand
    ends); the frames of that change and of the settlement that cashes it out are what the
    database says, and the leave costs no more than one between hands."""
    table = table_for(game, mode)
    users = [funded() for _ in range(player_limits(table.stake_level)[1])]
    _seated(table, users)
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    sent.clear()
    reply, sql = _request(table, users[0], "leave")
    assert reply == {"left": False}
    assert len(sql) <= (8 if _on_postgres() else 10), "\n".join(sql)
    frames = sent_frames(sent)
    _frames_fresh(table, sent)
    mine = next(s for s in frames[0][1]["seats"] if s["user"] == users[0].pk)
    assert mine["status"] == "leaving"
    _play_out(table, Hand.objects.get(pk=hand.pk), users, sent)  # every frame checked fresh, the last too
    still = Seat.objects.filter(table=table, user=users[0]).first()
    if game == "thirteen_trio":  # bound to its set until the set ends (docs/RULES.md), auto-played
        assert still is not None and still.status == Seat.Status.LEAVING
    else:  # cashed out by the settlement
        assert still is None


def test_a_seat_is_freed_by_one_delete_because_nothing_refers_to_it_and_no_signal_listens():
    """``seat_remove`` deletes a seat's row itself, without ``Model.delete``'s collector: true only
    while no model refers to a seat and no receiver listens for its deletion."""
    from django.db.models import signals

    assert not Seat._meta.related_objects
    for signal in (signals.pre_delete, signals.post_delete):
        assert not signal.has_listeners(Seat)



def _costs(table: Table, users: list, sent: list, *, start: bool) -> tuple[list[int], int, int]:
    """Each player's join, then a hand played out: the joins' statements, the dearest mid-hand
    action's and the settling one's."""
    joins = []
    for user in users:
        reply, sql = _request(table, user, "join", buy_in=table.stake_level.min_buy_in * 3)
        assert "seat" in reply
        joins.append(len(sql))
    if start:  # a room deals once its owner starts it
        assert _request(table, users[0], "room_start")[0] == {"started": True}
    hand = Hand.objects.filter(table=table, status=Hand.Status.ACTIVE).first() or hand_start_if_ready(
        table_id=table.pk)
    assert hand is not None
    sent.clear()
    actions, settling = _play_out(table, hand, users, sent)
    return joins, max(len(sql) for sql in actions), len(settling)


def test_joining_and_acting_in_a_room_cost_what_they_cost_at_a_public_table(funded, table_for, sent):
    """A private room is a table (docs/ARCHITECTURE.md "Private rooms and watchers"): what it adds
    is read off the table row the lock holds, so its players' joins, actions and settlement run
    no statement more than at a public table."""
    public = table_for("thirteen")
    players = [funded() for _ in range(4)]
    room = rooms.room_open(owner=players[0], level_id=public.stake_level_id)
    for guest in players[1:]:
        rooms.room_enter(code=str(room.room_code), user=guest)
    at_public = _costs(public, [funded() for _ in range(4)], sent, start=False)
    in_room = _costs(room, players, sent, start=True)
    print(f"public: joins {at_public[0]}, action {at_public[1]}, settling {at_public[2]}; "
          f"room: joins {in_room[0]}, action {in_room[1]}, settling {in_room[2]}")
    assert in_room[0] == at_public[0]
    assert in_room[1] <= at_public[1] and in_room[2] <= at_public[2]
