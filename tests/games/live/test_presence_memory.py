"""A frame's "connected" flags come from ``presence_online``, which asks Redis only about seats
this process does not already know to be inside the window (games/presence.py): the answer is
the one a fresh read gives, and a table whose players all beat lately needs no read at all."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import presence
from games.presence import presence_beat, presence_online, presence_read, presence_reset, presence_start

WINDOW = 20.0
TABLE = 900_001  # far from any table a test creates: the records are shared with other tests


@pytest.fixture(autouse=True)
def _fresh_records() -> Iterator[None]:
    presence_reset()
    yield
    presence_reset()


def _heard_elsewhere(user_id: int, at: float) -> None:
    """A heartbeat that another server process put on record: this process's memory is not told."""
    presence._store().start({presence.presence_key(TABLE, user_id): at})


def test_a_seat_heard_from_lately_needs_no_read() -> None:
    presence_beat(TABLE, 1)
    presence._store().reset()  # the records are gone: only a read would notice
    assert presence_read([(TABLE, 1)]) == {}
    presence_beat(TABLE, 1)
    presence._store().reset()
    assert presence_online([(TABLE, 1)], time.time(), WINDOW) == {(TABLE, 1)}


def test_seats_unknown_here_or_outside_the_window_are_read() -> None:
    now = time.time()
    _heard_elsewhere(1, now - 1)  # never seen by this process
    presence_start([(TABLE, 2)], now - 60)  # known here, but long ago ...
    _heard_elsewhere(2, now - 2)  # ... and heard from since, by another process
    presence_start([(TABLE, 3)], now - 60)  # silent for a minute
    seats = [(TABLE, 1), (TABLE, 2), (TABLE, 3), (TABLE, 4)]  # 4: no record at all
    assert presence_online(seats, now, WINDOW) == {(TABLE, 1), (TABLE, 2)}
    presence._store().reset()
    assert presence_online(seats, now + 1, WINDOW) == {(TABLE, 1), (TABLE, 2)}  # both now known here


# One step: (seat, seconds later, who heard it: "here" or "elsewhere"), or (None, seconds later,
# "ask"): a frame is built. Heartbeat times only move forward, as a clock does.
steps = st.lists(
    st.one_of(
        st.tuples(st.integers(1, 4), st.floats(0, 15), st.sampled_from(["here", "elsewhere"])),
        st.tuples(st.none(), st.floats(0, 15), st.just("ask")),
    ),
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(steps)
def test_the_answer_is_always_a_fresh_reads(plan: list[tuple[int | None, float, str]]) -> None:
    presence_reset()
    now = time.time()
    seats = [(TABLE, u) for u in range(1, 5)]
    for user_id, later, who in plan:
        now += later
        if who == "here":
            presence.presence_start([(TABLE, user_id)], now)  # type: ignore[list-item]
        elif who == "elsewhere":
            _heard_elsewhere(user_id, now)  # type: ignore[arg-type]
        else:
            fresh = {seat for seat, last in presence_read(seats).items() if now - last <= WINDOW}
            assert presence_online(seats, now, WINDOW) == fresh
