"""The signals' batch as the beat sends it (platform/integrity/tasks.py): it waits while the
machine is busy, runs once a record has waited too long, and opens the welcome-coin cases either
way (docs/INTEGRITY.md "Stored as hands settle")."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from integrity.models import Case, GrantFlowFlag, PairSignal
from integrity.tasks import update_signals
from tests.integrity.services.test_signals import _seated
from tests.integrity.test_selectors import _play


@pytest.fixture
def load(settings: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """The machine's 1-minute load average, as the test sets it (``load["now"]``)."""
    settings.INTEGRITY_SIGNALS_BUSY_LOAD = 1.0
    settings.INTEGRITY_SIGNALS_MAX_WAIT = 600
    state = {"now": 0.0}
    monkeypatch.setattr(os, "getloadavg", lambda: (state["now"], state["now"], state["now"]))
    return state


def _busy(load: dict[str, float]) -> None:
    load["now"] = 1.0 * len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 64.0


def _two_hands_then_busy(load: dict[str, float]) -> None:
    """Two hands played and recorded, then the machine busy."""
    table, users = _seated(["ann", "bob"])
    _play(table, users, 2)
    _busy(load)


def _batch_after(seconds: int) -> int:
    """The pair's hands taken in once a batch was sent ``seconds`` from now (0: no pair yet)."""
    with time_machine.travel(timezone.now() + timedelta(seconds=seconds)):
        update_signals.apply()
    pair = PairSignal.objects.first()
    return 0 if pair is None else pair.hands


@pytest.mark.django_db(transaction=True)
def test_a_batch_waits_while_the_machine_is_busy_and_runs_once_it_is_not(load: dict[str, float]) -> None:
    _two_hands_then_busy(load)
    assert _batch_after(60) == 0
    load["now"] = 0.5  # half of one CPU: not busy
    assert _batch_after(60) == 2


@pytest.mark.django_db(transaction=True)
def test_a_record_that_waited_too_long_is_taken_in_however_busy_the_machine(load: dict[str, float]) -> None:
    _two_hands_then_busy(load)
    assert _batch_after(599) == 0
    assert _batch_after(601) == 2


@pytest.mark.django_db(transaction=True)
def test_a_waiting_batch_still_opens_the_welcome_coins_case(load: dict[str, float]) -> None:
    table, users = _seated(["ann", "bob"])
    now = timezone.now()
    GrantFlowFlag.objects.create(receiver=users[0], flagged_at=now, flagged_hand_id=1, updated_at=now, hands=15,
                                 payers=3, received=60_000, paid=0)
    _busy(load)
    update_signals.apply()
    [case] = Case.objects.all()
    assert case.signal == Case.Signal.WELCOME and list(case.accounts.all()) == [users[0]]
