"""Retry a whole service call on a transient database failure, each attempt a fresh transaction;
the table lock and the idempotency keys make a retried call safe.

- A deadlock, serialization failure, lock timeout or SQLite busy: by the wallet's rule.
- A lost connection to PostgreSQL (a restart, a failover, a connection the pool handed out
  that the server had already closed): the dead connection is dropped and the call runs again
  on a new one, with a capped backoff, for a few seconds. Whether the lost attempt committed
  does not matter: a repeat finds its effect (the client's id, the ledger's idempotency key,
  the phase sequence of a timer) and changes nothing.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection

from wallet.posting import may_retry

P = ParamSpec("P")
R = TypeVar("R")

#: Tries on a lost connection, and the backoff between them: 0.1 s doubling up to 1 s, with
#: jitter: about 5 s in all, the length of a PostgreSQL restart.
CONNECTION_ATTEMPTS = 8
CONNECTION_BACKOFF, CONNECTION_BACKOFF_CAP = 0.1, 1.0
#: SQLSTATEs of a connection the server ended or refused: connection exceptions (class 08),
#: admin / crash shutdown, and "the database system is starting up".
LOST_SQLSTATE_PREFIXES = ("08", "57P01", "57P02", "57P03")


def connection_lost(exc: OperationalError) -> bool:
    """Whether ``exc`` is PostgreSQL's connection going away (not a statement failing, and not
    the pool's own timeout: it has waited long enough already)."""
    cause = exc.__cause__
    module = type(cause).__module__ if cause is not None else ""
    if not module.startswith("psycopg") or module.startswith("psycopg_pool"):
        return False
    sqlstate = getattr(cause, "sqlstate", None)
    return sqlstate is None or sqlstate.startswith(LOST_SQLSTATE_PREFIXES)


def with_retries(fn: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        attempt = 1
        while True:
            try:
                return fn(*args, **kwargs)
            except OperationalError as exc:
                if connection_lost(exc) and not connection.in_atomic_block and attempt < CONNECTION_ATTEMPTS:
                    connection.close()  # the pool discards a broken connection
                    delay = min(CONNECTION_BACKOFF_CAP, CONNECTION_BACKOFF * 2 ** (attempt - 1))
                    time.sleep(delay * random.uniform(0.5, 1.0))  # noqa: S311 - jitter, not secrets
                elif not may_retry(exc, attempt):
                    raise
                attempt += 1

    return call
