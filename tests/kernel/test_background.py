"""Work that may wait (platform/kernel/background.py): it runs at a lower CPU priority than its
caller, in a thread of its own, and hands back its result or its exception."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from accounts.models import User
from kernel import background
from kernel.background import BACKGROUND_NICE, at_low_priority, busy_share, cpu_ticks, machine_busy


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.fixture
def lowered(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process counts as one that lowered itself (the background worker), without lowering it."""
    monkeypatch.setattr(background, "_process_lowered", [True])


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own niceness is Linux's")
def test_the_work_runs_below_its_callers_priority_and_the_caller_keeps_its_own(lowered: None) -> None:
    caller = _niceness()
    policy = os.sched_getscheduler(0)
    seen = at_low_priority(lambda: (_niceness(), threading.get_native_id(), os.sched_getscheduler(0)))
    assert seen[0] == min(19, caller + BACKGROUND_NICE)
    assert seen[1] != threading.get_native_id()
    assert seen[2] == os.SCHED_IDLE != policy
    assert _niceness() == caller and os.sched_getscheduler(0) == policy


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own policy is Linux's")
def test_in_a_process_that_did_not_lower_itself_the_work_runs_as_it_is() -> None:
    """The embedded worker shares its process with the timers: an idle-priority thread holding
    the GIL would stall them while the machine is busy."""
    assert background._process_lowered == []
    seen = at_low_priority(lambda: (_niceness(), threading.get_native_id(), os.sched_getscheduler(0)))
    assert seen == (_niceness(), threading.get_native_id(), os.sched_getscheduler(0))


def test_the_work_hands_back_its_exception(lowered: None) -> None:
    def fails() -> None:
        raise LookupError("no such record")

    with pytest.raises(LookupError, match="no such record"):
        at_low_priority(fails)


@pytest.mark.django_db(transaction=True)
def test_the_work_reads_the_database_from_its_own_thread(lowered: None) -> None:
    User.objects.create_user(username="bg", password=None)
    assert at_low_priority(lambda: User.objects.filter(username="bg").count()) == 1


_LOWER = ("import os, sys; sys.path.insert(0, 'platform'); from kernel.background import lower_this_process; "
          "lower_this_process(); print(os.getpriority(os.PRIO_PROCESS, 0)); print(open('/proc/self/autogroup').read())")


def _group_nice(text: str) -> int | None:
    """The niceness in a reading of ``/proc/<pid>/autogroup`` ("/autogroup-85 nice 0"); None for
    the empty reading of a process in no autogroup of its own (the init session's, or a cgroup's)."""
    return int(text.split()[-1]) if text.split() else None


def _lowered(new_session: bool) -> tuple[int, int | None]:
    """The niceness and the autogroup's niceness of a process that lowered itself."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", _LOWER], cwd=root, capture_output=True, text=True, check=True,
                         timeout=30, start_new_session=new_session).stdout.split("\n")
    return int(out[0]), _group_nice(out[1])


def _autogroup_nice() -> int | None:
    with open("/proc/self/autogroup") as f:
        return _group_nice(f.read())


@pytest.mark.skipif(not os.path.exists("/proc/self/autogroup"), reason="Linux's autogroups")
def test_a_process_leading_its_session_lowers_itself_and_its_autogroup() -> None:
    nice, group = _lowered(new_session=True)
    assert nice == min(19, os.getpriority(os.PRIO_PROCESS, 0) + BACKGROUND_NICE)
    if group is None:
        pytest.skip("this machine puts a new session in no autogroup (autogroups off, or a cgroup of its own)")
    assert group == min(19, BACKGROUND_NICE)  # a new session's autogroup starts at 0


@pytest.mark.skipif(not os.path.exists("/proc/self/autogroup"), reason="Linux's autogroups")
def test_a_process_in_its_callers_session_leaves_the_shared_autogroup_alone() -> None:
    before = _autogroup_nice()
    nice, group = _lowered(new_session=False)
    assert nice == min(19, os.getpriority(os.PRIO_PROCESS, 0) + BACKGROUND_NICE)
    assert group == before == _autogroup_nice()


def test_the_busy_share_is_the_others_busy_time_over_all_the_time_between_two_readings() -> None:
    assert busy_share((10.0, 100.0), (13.0, 110.0)) == pytest.approx(0.3)
    assert busy_share((10.0, 100.0), (10.0, 100.0)) == 0.0  # no time between them
    assert busy_share((10.0, 100.0), (9.0, 110.0)) == 0.0  # this process's own time outgrew the machine's count


_SPIN = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass"


def _spinners(seconds: float) -> list[subprocess.Popen[bytes]]:
    """One busy process per CPU this process may run on, spinning for ``seconds`` (new
    interpreters: a fork of a process with threads may hang on a lock another thread held)."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return [subprocess.Popen([sys.executable, "-c", _SPIN.format(seconds=seconds)]) for _ in range(cpus)]


@pytest.mark.skipif(not os.path.exists(background.PROC_STAT), reason="Linux's CPU counts")
def test_other_processes_keeping_the_cores_busy_make_the_machine_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "_last_reading", [])
    procs = _spinners(2.0)
    try:
        time.sleep(0.2)
        assert machine_busy(0.3, first_sample=1.0)
    finally:
        for proc in procs:
            proc.wait(timeout=30)
    assert not machine_busy(0)  # a share of 0: never busy


@pytest.mark.skipif(not os.path.exists(background.PROC_STAT), reason="Linux's CPU counts")
def test_this_processs_own_cpu_time_is_not_counted_as_the_others() -> None:
    before = background._cpu_seconds()
    for proc in _spinners(1.0):  # children waited for: their time is this process's (os.times)
        proc.wait(timeout=30)
    after = background._cpu_seconds()
    assert before is not None and after is not None
    assert busy_share(before, after) < 0.9  # every CPU was busy, with this process's own work


def test_the_machine_busy_time_leaves_out_idle_and_iowait() -> None:
    text = ("cpu  100 5 40 800 20 3 2 1 7 0\n"
            "cpu0 50 5 20 400 10 3 2 1 7 0\ncpu1 50 0 20 400 10 0 0 0 0 0\n"
            "intr 12345 0 0\nctxt 999\nbtime 1700000000\n")
    busy, total, cpus = cpu_ticks(text)
    assert busy == 100 + 5 + 40 + 3 + 2 + 1  # guest (7) is inside user already
    assert total == busy + 800 + 20
    assert cpus == 2
