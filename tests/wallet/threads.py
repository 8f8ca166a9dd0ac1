"""Run a function in many threads at once, each on its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def run_concurrently(work: Callable[[int], Any], workers: int) -> list[Any]:
    """Start ``workers`` threads together (a barrier); return each result or raised exception."""
    barrier = threading.Barrier(workers)
    results: list[Any] = [None] * workers

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a worker hung"
    return results
