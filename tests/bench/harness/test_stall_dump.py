"""The stall hunt's dump (bench/harness/stall_dump.py) of a table built through the services: it
reads the table, its hand, the hand's actions, the seats and the watchdog's repairs with the
harness's own SQL, and names what it could not reach (no server, no broker) instead of failing."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from typing import Any

import pytest

from bench.harness.stall_dump import Stall, dump
from games.engine.registry import engine_for
from games.models import Hand, Repair
from games.services.hands import hand_act, hand_start_if_ready
from games.services.seating import seat_join
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class _NoProcesses:
    """What the dump asks of the run's processes: none started, no server listening."""

    ports: tuple[int, ...] = field(default_factory=lambda: (_closed_port(),))

    def processes(self) -> list[Any]:
        return []


def _table_in_play() -> tuple[Any, list[Any], Hand]:
    table = table_at("thirteen")
    users = [funded_user(f"d{i}", 10_000_000) for i in range(2)]
    for i, user in enumerate(users):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"d-join-{i}")
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    seat = hand.seat_of(users[0].pk)
    hand_act(table_id=table.pk, user=users[0], action=engine_for("thirteen").auto_action(hand.state, seat),
             client_id="d-act-0")
    hand.refresh_from_db()
    return table, users, hand


def test_the_dump_shows_the_table_its_hand_the_last_action_and_every_seat() -> None:
    table, users, hand = _table_in_play()
    Repair.objects.create(kind=Repair.Kind.LOST_TIMER, cause="due 3 s ago", table=table, hand=hand)

    text = dump(Stall("deadline", table.pk, "hand overdue"), _NoProcesses(), [])  # type: ignore[arg-type]

    assert text.startswith(f"STALL (deadline) at table {table.pk}: hand overdue")
    assert f'"id": {table.pk}, "game": "thirteen"' in text
    assert f"id {hand.pk} #{hand.number} status active version {hand.version}" in text
    assert "1 at " in text and f"user {users[0].pk} auto False" in text  # the one action, seq 1
    for user in users:
        assert f"user {user.pk} playing joined " in text
    assert f"lost_timer hand {hand.pk}: due 3 s ago" in text
    assert "/healthz unreadable" in text


def test_the_dump_of_a_table_that_does_not_exist_says_so() -> None:
    assert dump(Stall("timeout", 987654, "run timed out"), _NoProcesses(), []).endswith(  # type: ignore[arg-type]
        "no such table")
