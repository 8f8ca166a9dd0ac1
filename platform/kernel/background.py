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
  (in the background worker, or in a process it shares with live play: the embedded worker of
  ``make run``, several services started from one shell) takes Linux's ``SCHED_IDLE`` policy,
  for that thread only: a weight of 3 against a ``nice`` 0 thread's 1,024, where ``nice`` +10
  (weight 110) would still take about a tenth of a core from each thread of live play it meets.

Elsewhere than on Linux, where a niceness is the whole process's, the work runs as it is.
"""

from __future__ import annotations

import os
import sys
import threading
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


def lower_this_process() -> None:
    """Lower the calling process (its thread, and the threads and children it starts after) by
    ``BACKGROUND_NICE``, and its session's autogroup as much when the process leads its session
    (it then holds the session alone: a supervisor's ``setsid``). A process in a shell's session
    leaves the autogroup alone: that group holds the shell's other processes too."""
    if sys.platform != "linux":
        return
    os.setpriority(os.PRIO_PROCESS, 0, min(NICE_MAX, os.getpriority(os.PRIO_PROCESS, 0) + BACKGROUND_NICE))
    if os.getsid(0) != os.getpid():
        return
    try:
        with open(AUTOGROUP) as f:  # "/autogroup-85 nice 0"
            nice = int(f.read().split()[-1])
        with open(AUTOGROUP, "w") as f:
            f.write(str(min(NICE_MAX, nice + BACKGROUND_NICE)))
    except (OSError, ValueError, IndexError):
        pass  # no autogroups in this kernel, or not allowed: the process's niceness stands


def machine_busy(load_per_cpu: float) -> bool:
    """Whether the machine's 1-minute load average is at least ``load_per_cpu`` for each CPU this
    process may run on (never when ``load_per_cpu`` is 0, nor where no load average is kept)."""
    if load_per_cpu <= 0:
        return False
    try:
        load = os.getloadavg()[0]
    except OSError:
        return False
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return load >= load_per_cpu * cpus


def at_low_priority(work: Callable[[], R]) -> R:
    """``work()``'s result (or its exception), computed in a thread at a lower CPU priority;
    the thread's database connections are closed as it ends."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            if sys.platform == "linux":
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
