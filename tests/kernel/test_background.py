"""Work that may wait (platform/kernel/background.py): it runs at a lower CPU priority than its
caller, in a thread of its own, and hands back its result or its exception."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from accounts.models import User
from kernel.background import BACKGROUND_NICE, at_low_priority


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own niceness is Linux's")
def test_the_work_runs_below_its_callers_priority_and_the_caller_keeps_its_own() -> None:
    caller = _niceness()
    seen = at_low_priority(lambda: (_niceness(), threading.get_native_id()))
    assert seen[0] == min(19, caller + BACKGROUND_NICE)
    assert seen[1] != threading.get_native_id()
    assert _niceness() == caller


def test_the_work_hands_back_its_exception() -> None:
    def fails() -> None:
        raise LookupError("no such record")

    with pytest.raises(LookupError, match="no such record"):
        at_low_priority(fails)


@pytest.mark.django_db(transaction=True)
def test_the_work_reads_the_database_from_its_own_thread() -> None:
    User.objects.create_user(username="bg", password=None)
    assert at_low_priority(lambda: User.objects.filter(username="bg").count()) == 1
