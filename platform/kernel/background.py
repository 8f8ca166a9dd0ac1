"""Work that may wait: run at a lower CPU priority than live play.

Some periodic work shares the cores with the servers and the timers but no player waits for it
(the integrity signals' batches: a solver call per seat of every hand). At a low priority it
takes the cores' idle time first and yields them to live play when they are full; it then falls
behind and catches up when the load drops. Two levels, because Linux schedules in groups:

* **The process** (:func:`lower_this_process`). A niceness ranks threads only inside their
  scheduling group, and each service a supervisor starts is a group of its own (its cgroup under
  systemd, its session's autogroup elsewhere): a thread at ``nice`` +10 in a worker of its own
  still gets a full group's share against every server. So the worker that serves the
  background queue (``BACKGROUND_QUEUE``, README.md "Production processes") lowers itself as it
  starts: its niceness and, when it leads its own session, its session's autogroup. Under
  systemd with the cpu controller, the unit's ``CPUWeight=`` is what ranks it (README.md).
* **The thread** (:func:`at_low_priority`). Inside its group, the thread that runs the work
  takes Linux's ``SCHED_IDLE`` policy, for that thread only: a weight of 3 against a ``nice`` 0
  thread's 1,024, where ``nice`` +10 (weight 110) would still take about a tenth of a core from
  each thread of live play it meets. Only in a process that lowered itself, whose other threads
  wait for the work anyway: elsewhere (the embedded worker of ``make run``, which also runs the
  timers) a thread that holds Python's GIL and is not given the CPU while the machine is busy
  would stall every thread of its process, so there the work runs at the caller's priority.

Elsewhere than on Linux, where a niceness is the whole process's, the work runs as it is.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import connections

R = TypeVar("R")

#: How much lower than the process's the background thread's priority is.
BACKGROUND_NICE = 10
#: Where Linux states and sets the niceness of the calling process's session (its autogroup).
AUTOGROUP = "/proc/self/autogroup"
#: The largest niceness Linux accepts.
NICE_MAX = 19
#: Where Linux counts the time every CPU spent in each state since boot.
PROC_STAT = "/proc/stat"


#: Whether this process lowered itself (:func:`lower_this_process`): only then does the work's
#: thread take ``SCHED_IDLE``.
_process_lowered: list[bool] = []


def lower_this_process() -> None:
    """Lower the calling process (its thread, and the threads and children it starts after) by
    ``BACKGROUND_NICE``, and its session's autogroup as much when the process leads its session
    (it then holds the session alone: a supervisor's ``setsid``). A process in a shell's session
    leaves the autogroup alone: that group holds the shell's other processes too."""
    if sys.platform != "linux":
        return
    os.setpriority(os.PRIO_PROCESS, 0, min(NICE_MAX, os.getpriority(os.PRIO_PROCESS, 0) + BACKGROUND_NICE))
    _process_lowered[:] = [True]
    if os.getsid(0) != os.getpid():
        return
    try:
        with open(AUTOGROUP) as f:  # "/autogroup-85 nice 0"
            nice = int(f.read().split()[-1])
        with open(AUTOGROUP, "w") as f:
            f.write(str(min(NICE_MAX, nice + BACKGROUND_NICE)))
    except (OSError, ValueError, IndexError):
        pass  # no autogroups in this kernel, or not allowed: the process's niceness stands


def cpu_ticks(text: str) -> tuple[int, int, int]:
    """(busy ticks, all ticks, CPUs) from the text of Linux's ``/proc/stat``, every CPU's since
    boot: busy is user + nice + system + irq + softirq + steal (guest time is inside user and
    nice); idle and iowait are not busy."""
    total: list[int] = []
    cpus = 0
    for line in text.splitlines():
        name, *values = line.split()
        if name == "cpu":
            total = [int(v) for v in values] + [0] * 8
        elif name.startswith("cpu"):
            cpus += 1
    user, nice, system, idle, iowait, irq, softirq, steal = total[:8]
    busy = user + nice + system + irq + softirq + steal
    return busy, busy + idle + iowait, cpus


def _cpu_seconds() -> tuple[float, float] | None:
    """The machine's CPU seconds since boot: those other processes kept busy (less this
    process's own: its threads' and its waited-for children's), and all of them; None where
    Linux's ``/proc/stat`` is not."""
    try:
        with open(PROC_STAT) as f:
            busy, every, _ = cpu_ticks(f.read())
    except (OSError, ValueError):
        return None
    hz = os.sysconf("SC_CLK_TCK")
    own = sum(os.times()[:4])  # user, system, children's user, children's system
    return busy / hz - own, every / hz


#: This process's last reading of :func:`_cpu_seconds`: the next call measures from it.
_last_reading: list[tuple[float, float]] = []


def busy_share(before: tuple[float, float], after: tuple[float, float]) -> float:
    """The share (0 to 1) of the machine's CPU time that other processes kept busy between two
    readings of :func:`_cpu_seconds`."""
    elapsed = after[1] - before[1]
    return 0.0 if elapsed <= 0 else min(1.0, max(0.0, (after[0] - before[0]) / elapsed))


def machine_busy(share: float, first_sample: float = 1.0) -> bool:
    """Whether other processes kept at least ``share`` (0 to 1) of the machine's CPU time busy
    since this process last asked, or, the first time, over the next ``first_sample`` seconds.
    Never when ``share`` is 0, nor where Linux's counts are not.

    CPU time, not the load average: a 1-minute load average stays under one per CPU while live
    play keeps the cores half busy in bursts, and lags a minute behind a load that starts. This
    process's own CPU time is left out, so a batch it ran is not taken for others' load."""
    if share <= 0:
        return False
    now = _cpu_seconds()
    if now is None:
        return False
    if not _last_reading:
        time.sleep(first_sample)
        _last_reading.append(now)
        now = _cpu_seconds() or now
    before, _last_reading[:] = _last_reading[0], [now]
    return busy_share(before, now) >= share


def at_low_priority(work: Callable[[], R]) -> R:
    """``work()``'s result (or its exception), computed in a thread at a lower CPU priority in a
    process that lowered itself, and as it is elsewhere; the thread's database connections are
    closed as it ends."""
    if not _process_lowered:
        return work()
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            # Only Linux lowers a process (lower_this_process), so this is Linux.
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0)
                           + BACKGROUND_NICE)
            try:
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # 0: this thread
            except OSError:  # a sandbox that forbids the policy: the niceness stands
                pass
            outcome["result"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            outcome["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name="background")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["result"]  # type: ignore[return-value]
