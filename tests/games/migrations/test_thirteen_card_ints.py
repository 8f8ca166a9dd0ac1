"""Stored 十三张 states from before card ints are converted by the data migration, and the
converted hand plays on: the engine scores it and the frames show it."""

from __future__ import annotations

import importlib
import time

import pytest
from django.apps import apps

from games.engine import thirteen
from games.engine.cards import card_str, cards_str
from games.frames import frame_for
from games.models import Hand
from tests.factories import funded_user, table_at

migration = importlib.import_module("games.migrations.0002_thirteen_state_card_ints")


def _as_strings(state: dict) -> dict:
    """The state as stored before: every seat's cards and submitted rows as strings."""
    for seat in state["seats"]:
        seat["cards"] = cards_str(seat["cards"])
        for row in ("front", "middle", "back"):
            if (seat.get("submission") or {}).get(row):
                seat["submission"][row] = cards_str(seat["submission"][row])
    return state


def _hand(players: list, submitted: bool) -> Hand:
    table = table_at("thirteen")
    seats = [{"player": str(p.pk), "stack": 10_000} for p in players]
    state = thirteen.plugin.new_hand(rules={}, seats=seats, carry=None, server_seed="ab" * 32, now=time.time())
    if submitted:
        state, _ = thirteen.plugin.apply(state, 0, thirteen.plugin.auto_action(state, 0), now=time.time())
    hand = Hand.objects.create(
        table=table, number=1, game="thirteen", state=_as_strings(state), phase_seq=state["phase_seq"],
        players=[{"user": p.pk, "seat": i, "name": p.username} for i, p in enumerate(players)],
        server_seed="ab" * 32, commitment="c" * 64, rules={},
    )
    table.current_hand = hand  # as the deal points the table at its hand
    table.save(update_fields=["current_hand"])
    return hand


@pytest.mark.django_db
def test_it_turns_string_cards_into_ints_and_the_hand_plays_on() -> None:
    players = [funded_user(f"m{i}", 100_000) for i in range(2)]
    hand = _hand(players, submitted=True)
    before = [list(s["cards"]) for s in hand.state["seats"]]

    migration.forwards(apps, None)

    hand.refresh_from_db()
    seats = hand.state["seats"]
    assert [[card_str(c) for c in s["cards"]] for s in seats] == before
    assert all(isinstance(c, int) for row in ("front", "middle", "back") for c in seats[0]["submission"][row])
    state, _ = thirteen.plugin.apply(hand.state, 1, thirteen.plugin.auto_action(hand.state, 1), now=time.time())
    assert thirteen.plugin.result(state) is not None
    frame = frame_for(hand.table_id, players[0].pk)
    assert frame["hand"]["view"]["seats"][0]["cards"] == before[0]


@pytest.mark.django_db
def test_it_reverses_to_strings() -> None:
    hand = _hand([funded_user(f"r{i}", 100_000) for i in range(2)], submitted=False)
    migration.forwards(apps, None)
    migration.backwards(apps, None)
    hand.refresh_from_db()
    assert all(isinstance(c, str) for s in hand.state["seats"] for c in s["cards"])
