"""Retry a whole service call on a transient database failure (deadlock, serialization
failure, lock timeout, SQLite busy), by the wallet's rule. Each attempt is a fresh
transaction; the table lock and the idempotency keys make a retried call safe."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError

from wallet.posting import may_retry

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
                if not may_retry(exc, attempt):
                    raise
                attempt += 1

    return call
