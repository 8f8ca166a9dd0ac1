"""Phase timers on the real broker (Redis): a phase is armed once however many actions happen in
it, a timer for a deadline that changed does not re-arm, and a worker that dies holding a
phase's timer leaves nothing stuck: the watchdog ends the phase at its first sweep after the
deadline."""

from __future__ import annotations

import base64
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from accounts.models import User
from config.celery_app import app
from games.adapters import engine
from games.models import Clock, Hand, Repair
from games.services.hands import hand_act, hand_expire, hand_start_if_ready
from games.services.seating import seat_join
from games.services.store import SWEEPER_CLOCK
from games.services.sweeper import hands_sweep
from games.timers import EXPIRE_PHASE, START_HAND
from tables.models import Table
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.skipif(
    not django_settings.REDIS_URL or connection.vendor != "postgresql",
    reason="the broker and a worker process need Redis and PostgreSQL",
)

ROOT = Path(__file__).resolve().parents[3]
QUEUE = "celery"  # kombu's Redis list of the default queue
_names = itertools.count(1)


def _redis() -> Any:
    import redis

    return redis.Redis.from_url(django_settings.REDIS_URL)


def _queued() -> list[tuple[str, list[Any]]]:
    """(task name, args) of every message waiting in the queue, oldest first."""
    found = []
    for raw in reversed(_redis().lrange(QUEUE, 0, -1)):  # LPUSH: newest first
        message = json.loads(raw)
        args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        found.append((message["headers"]["task"], args))
    return found


@pytest.fixture
def timers_on(settings: Any) -> Iterator[None]:
    settings.GAMES_TIMERS = True
    _redis().delete(QUEUE)
    cache.clear()
    yield
    _redis().delete(QUEUE)


def _seated(n: int) -> tuple[Table, list[User]]:
    table = table_at("thirteen", name="timers")
    users = []
    for _ in range(n):
        user = funded_user(f"timed{next(_names)}", 1_000_000)
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="join")
        users.append(user)
    return table, users


@pytest.mark.django_db
def test_a_join_sets_a_start_timer_only_once_a_hand_could_be_dealt(timers_on: None,
                                                                  django_capture_on_commit_callbacks: Any) -> None:
    """Alone at the table, a join tries no deal; the second player's sets the timer, carrying the
    table's hand count as the join's transaction left it (the timer is stale once a hand is dealt)."""
    table = table_at("thirteen", name="timers")
    for n in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            seat_join(table_id=table.pk, user=funded_user(f"timed{next(_names)}", 1_000_000),
                      buy_in=table.stake_level.min_buy_in, request_id="join")
        queued = _queued()
        if n == 0:
            assert queued == []
    assert [(name, args[:2]) for name, args in queued] == [(START_HAND, [table.pk, 0])]


@pytest.mark.django_db
def test_a_phase_is_armed_once_however_many_actions_happen_in_it(timers_on: None,
                                                                 django_capture_on_commit_callbacks: Any) -> None:
    table, users = _seated(4)
    _redis().delete(QUEUE)  # the joins' start timers
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    armed = [(EXPIRE_PHASE, [hand.pk, hand.phase_seq, hand.deadline.timestamp()])]
    assert _queued() == armed
    eng = engine("thirteen")
    for seat in range(3):  # three of four arrange: the same phase, the same deadline
        with django_capture_on_commit_callbacks(execute=True):
            hand_act(table_id=table.pk, user=users[seat], action=dict(eng.auto_action(hand.state, seat)))
    assert _queued() == armed
    with django_capture_on_commit_callbacks(execute=True):
        hand_act(table_id=table.pk, user=users[3], action=dict(eng.auto_action(hand.state, 3)))
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    queued = _queued()
    assert queued[:1] == armed and [name for name, _args in queued[1:]] == [START_HAND]
    assert queued[1][1][:2] == [table.pk, 1]  # stale once a hand is dealt meanwhile


@pytest.mark.django_db
def test_a_timer_that_fires_early_re_arms_only_for_the_deadline_it_was_set_for(
        timers_on: None, django_capture_on_commit_callbacks: Any) -> None:
    table, _users = _seated(2)
    hand = hand_start_if_ready(table_id=table.pk)
    Clock.objects.update_or_create(name=SWEEPER_CLOCK, defaults={"last_tick": timezone.now()})
    _redis().delete(QUEUE)
    stale = hand.deadline.timestamp() - 10  # a deadline this phase no longer has
    with django_capture_on_commit_callbacks(execute=True):
        assert not hand_expire(hand_id=hand.pk, phase_seq=hand.phase_seq, deadline=stale)
    assert _queued() == []
    with django_capture_on_commit_callbacks(execute=True):  # its own deadline, fired early (clock skew)
        assert not hand_expire(hand_id=hand.pk, phase_seq=hand.phase_seq, deadline=hand.deadline.timestamp())
    assert _queued() == [(EXPIRE_PHASE, [hand.pk, hand.phase_seq, hand.deadline.timestamp()])]


def _worker(database: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DATABASE_URL": f"postgres://{connection.settings_dict['USER']}@"
           f"{connection.settings_dict['HOST']}:{connection.settings_dict['PORT'] or 5432}/{database}",
           "REDIS_URL": django_settings.REDIS_URL, "DJANGO_SETTINGS_MODULE": "config.settings.base",
           "LOG_LEVEL": "WARNING"}
    argv = [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker", "--pool", "solo",
            "--loglevel", "WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    return subprocess.Popen(argv, cwd=ROOT / "platform", env=env, start_new_session=True,  # noqa: S603
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _held_by_worker(hand_id: int, timeout: float = 30) -> bool:
    """Whether a worker has taken the hand's timer task (an ETA task waits in the worker)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        scheduled = app.control.inspect(timeout=1).scheduled() or {}
        for tasks in scheduled.values():
            if any(t["request"]["name"] == EXPIRE_PHASE and t["request"]["args"][0] == hand_id for t in tasks):
                return True
        time.sleep(0.3)
    return False


@pytest.mark.django_db(transaction=True)
def test_a_worker_dying_with_a_phase_timer_leaves_the_watchdog_to_end_the_phase(timers_on: None,
                                                                                settings: Any) -> None:
    table, _users = _seated(2)
    worker = _worker(connection.settings_dict["NAME"])
    try:
        hand = hand_start_if_ready(table_id=table.pk)  # commits: the timer goes to the broker
        assert hand is not None and hand.deadline is not None
        assert _held_by_worker(hand.pk), "the worker never took the timer"
    finally:
        os.killpg(worker.pid, signal.SIGKILL)  # kill -9, timer and all
        worker.wait()
    assert Hand.objects.get(pk=hand.pk).status == Hand.Status.ACTIVE
    # the deadline passes with nobody to fire its timer; the first sweep after its grace ends the phase
    with time_machine.travel(hand.deadline + timedelta(seconds=settings.GAMES_SWEEP_GRACE + 0.5), tick=False):
        Clock.objects.update_or_create(name=SWEEPER_CLOCK, defaults={"last_tick": timezone.now() - timedelta(seconds=1)})
        assert hands_sweep()["expired"] == 1
    assert Hand.objects.get(pk=hand.pk).status == Hand.Status.SETTLED
    assert Repair.objects.filter(kind=Repair.Kind.LOST_TIMER, hand_id=hand.pk).count() == 1
