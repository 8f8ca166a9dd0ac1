"""The garbage collector tuned for a long-running server or worker process.

Python's cyclic collector walks every tracked object of a generation it collects. A Django
process holds a few hundred thousand such objects from its start (modules, classes, URL
patterns, the ORM's models) that never become garbage, yet every full collection walks them
again; and the default threshold (a young collection every 700 allocations) runs the young
collections often under load. Timed by ``gc.callbacks`` in the servers of a bench/live_load.sh
run, the default collector takes 2.6 % of a server's CPU, this tuning about 1 %. So, once the
process has started: everything alive is moved out of the collector's reach (``gc.freeze``)
and young collections run every ``GC_GEN0_THRESHOLD`` allocations.
Reference counting still frees almost everything at once; only cycles wait a little longer.
"""

from __future__ import annotations

import gc

from django.conf import settings


def gc_tune() -> None:
    """Freeze what the process holds now and raise the young generation's threshold
    (``GC_FREEZE=0`` leaves the collector as Python sets it)."""
    if not settings.GC_FREEZE:
        return
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(settings.GC_GEN0_THRESHOLD, middle, old)
