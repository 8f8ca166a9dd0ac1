"""Retry a whole service call on a transient database failure (deadlock, serialization
failure, lock timeout, SQLite busy). Each attempt is a fresh transaction; the table lock and
the idempotency keys make a retried call safe."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, transaction

from wallet.posting import BACKOFF_SECONDS, MAX_ATTEMPTS, _transient

P = ParamSpec("P")
R = TypeVar("R")


def with_retries(fn: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        attempt = 1
        while True:
            try:
                return fn(*args, **kwargs)
            except OperationalError as exc:
                if transaction.get_connection().in_atomic_block or not _transient(exc) or attempt >= MAX_ATTEMPTS:
                    raise
                time.sleep(random.uniform(0, BACKOFF_SECONDS * 2**attempt))  # noqa: S311 - jitter, not secrets
                attempt += 1

    return call
