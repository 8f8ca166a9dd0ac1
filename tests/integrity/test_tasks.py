"""The signals' batch as the beat sends it (platform/integrity/tasks.py): it waits while the
machine is busy, runs once a record has waited too long, and opens the welcome-coin cases either
way (docs/INTEGRITY.md "Stored as hands settle")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from integrity.models import Case, GrantFlowFlag, PairSignal
from integrity.tasks import update_signals
from kernel import background
from tests.integrity.services.test_signals import _seated
from tests.integrity.test_selectors import _play


@pytest.fixture
def load(settings: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """The share of the machine's CPU time that other processes keep busy, as the test sets it
    (``load["now"]``): each look at the machine's counts finds 10 more seconds gone by."""
    settings.INTEGRITY_SIGNALS_BUSY_CPU = 0.3
    settings.INTEGRITY_SIGNALS_MAX_WAIT = 600
    state, counts = {"now": 0.0}, {"busy": 0.0, "all": 0.0}

    def reading() -> tuple[float, float]:
        counts["busy"] += 10 * state["now"]
        counts["all"] += 10
        return counts["busy"], counts["all"]

    monkeypatch.setattr(background, "_cpu_seconds", reading)
    monkeypatch.setattr(background, "_last_reading", [reading()])
    return state


def _busy(load: dict[str, float]) -> None:
    load["now"] = 0.6


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
    load["now"] = 0.2  # a fifth of the machine: not busy
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
