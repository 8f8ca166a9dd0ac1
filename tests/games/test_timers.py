"""Timers (games/timers.py) go out through the platform's Celery app, sent by name."""

from __future__ import annotations

from typing import Any

import pytest
from celery import Celery

from config.celery_app import app
from games.timers import START_HAND, schedule_start


@pytest.fixture
def another_app_made_in_this_thread() -> Any:
    """A Celery app made here, as a benchmark or a test's broker client makes one: the calling
    thread's ``current_app`` from then on."""
    other = Celery("another", set_as_current=True)
    try:
        yield other
    finally:
        app.set_current()


def test_a_start_timer_goes_through_the_platforms_app_though_another_app_was_made_in_the_thread(
    settings: Any, monkeypatch: Any, another_app_made_in_this_thread: Any
) -> None:
    settings.GAMES_TIMERS = True
    sent: list[tuple[str, list[Any]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args, **options: sent.append((name, args[:2])))
    schedule_start(7, 3.0, hands_played=2)
    assert sent == [(START_HAND, [7, 2])]
