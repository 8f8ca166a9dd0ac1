"""Work that may wait: run at a lower CPU priority than live play.

Some periodic work shares the cores with the servers and the timers but no player waits for it
(the integrity signals' batches: a solver call per seat of every hand). Run in a thread of its
own whose scheduling priority is lowered (``nice`` + ``BACKGROUND_NICE`` for that thread only,
as Linux allows per thread), it takes the cores' idle time first and yields them to live play
when they are full; it then falls behind and catches up when the load drops. Elsewhere than on
Linux, where a niceness is the whole process's, the work runs as it is.
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


def at_low_priority(work: Callable[[], R]) -> R:
    """``work()``'s result (or its exception), computed in a thread at a lower CPU priority;
    the thread's database connections are closed as it ends."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            if sys.platform == "linux":
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0)
                               + BACKGROUND_NICE)
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
