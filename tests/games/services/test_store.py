"""Concurrent requests at one table are serialised on the table row (games/services/store.py):
nothing is lost or applied twice."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import close_old_connections

from games.engine.cards import cards_str
from games.engine.thirteen.arrange import arrange
from games.models import Hand, HandAction
from games.protocol import Message
from games.services import seating
from games.services.commands import dispatch
from games.services.errors import PlayError
from games.services.hands import hand_act, hand_start_if_ready

pytestmark = pytest.mark.django_db(transaction=True)


def _race(*calls: Callable[[], Any]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        barrier.wait()
        try:
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test checks
            results[i] = exc
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def _rows(hand: Hand, seat: int) -> dict[str, Any]:
    best = arrange(hand.state["seats"][seat]["cards"])
    return {"type": "declare" if best["declare"] else "arrange", **{r: cards_str(best[r]) for r in ("front", "middle", "back")}}


def _dealt_table(funded: Callable[..., Any], table_for: Callable[..., Any], n: int = 3) -> tuple[Any, list[Any], Hand]:
    table = table_for("thirteen")
    users = [funded() for _ in range(n)]
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"r{i}")
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    return table, users, hand


def test_two_players_acting_at_once_are_both_applied_in_turn(funded, table_for):
    table, users, hand = _dealt_table(funded, table_for)
    results = _race(
        lambda: hand_act(table_id=table.pk, user=users[0], action=_rows(hand, 0), client_id="a"),
        lambda: hand_act(table_id=table.pk, user=users[1], action=_rows(hand, 1), client_id="b"),
    )
    assert [r["status"] for r in results] == ["applied", "applied"]
    fresh = Hand.objects.get(pk=hand.pk)
    assert fresh.version == hand.version + 2
    assert sorted(HandAction.objects.filter(hand=hand).values_list("seq", flat=True)) == [1, 2]


def test_one_seat_submitting_twice_at_once_is_applied_once(funded, table_for):
    table, users, hand = _dealt_table(funded, table_for)
    action = _rows(hand, 0)
    results = _race(
        lambda: hand_act(table_id=table.pk, user=users[0], action=action, client_id="x1"),
        lambda: hand_act(table_id=table.pk, user=users[0], action=action, client_id="x2"),
    )
    applied = [r for r in results if isinstance(r, dict)]
    refused = [r for r in results if isinstance(r, PlayError)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].code == "illegal"
    assert HandAction.objects.filter(hand=hand).count() == 1


def test_the_same_request_id_racing_is_applied_once(funded, table_for):
    table, users, hand = _dealt_table(funded, table_for)
    action = _rows(hand, 0)
    message = Message(type="action", id="same", data={"action": action})
    results = _race(*[(lambda: dispatch(table.pk, users[0], message)) for _ in range(4)])
    statuses = sorted(r["status"] if isinstance(r, dict) else r.code for r in results)
    assert statuses.count("applied") == 1
    assert set(statuses) <= {"applied", "duplicate"}
    assert HandAction.objects.filter(hand=hand, client_id="same").count() == 1


def test_racing_joins_for_the_last_seat_seat_exactly_one(funded, table_for):
    table = table_for("thirteen")
    level = table.stake_level
    users = [funded() for _ in range(level.seats + 2)]
    results = _race(*[
        (lambda u=u: seating.seat_join(table_id=table.pk, user=u, buy_in=level.min_buy_in, request_id="j"))
        for u in users
    ])
    seated = [r for r in results if not isinstance(r, Exception)]
    assert len(seated) == level.seats
    assert all(isinstance(r, PlayError) and r.code == "table_full" for r in results if isinstance(r, Exception))
    assert sorted(s.index for s in seated) == list(range(level.seats))
