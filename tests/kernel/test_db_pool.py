"""The pool's check (kernel/db_pool.py): an empty query only for a connection that was idle, or
that the server has written to while it sat in the pool; a real PostgreSQL connection each time."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from kernel import db_pool

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def conn() -> Iterator[psycopg.Connection[Any]]:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")
    params = connection.get_connection_params()
    params.pop("prepare_threshold", None)
    params.pop("cursor_factory", None)
    opened = psycopg.connect(**params, autocommit=True)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every empty query the check sends (psycopg_pool's own check, counted and then run)."""
    sent: list[Any] = []
    real = ConnectionPool.check_connection

    def counted(conn: Any) -> None:
        sent.append(conn)
        real(conn)

    monkeypatch.setattr(db_pool.ConnectionPool, "check_connection", staticmethod(counted))
    return sent


def test_a_connection_back_from_use_moments_ago_leaves_unchecked(conn, checks) -> None:
    db_pool.check_if_idle(conn)  # first time out of the pool: checked
    db_pool.check_if_idle(conn)
    db_pool.check_if_idle(conn)
    assert checks == [conn]


def test_a_connection_idle_for_a_while_is_checked(conn, checks, monkeypatch: pytest.MonkeyPatch) -> None:
    db_pool.check_if_idle(conn)
    monkeypatch.setattr(db_pool, "CHECK_IDLE_AFTER", 0.0)
    db_pool.check_if_idle(conn)
    assert checks == [conn, conn]


def test_a_connection_whose_backend_was_ended_fails_its_check_at_once(conn, checks) -> None:
    db_pool.check_if_idle(conn)
    pid = conn.info.backend_pid
    with connection.cursor() as cursor:  # what a restart, or an administrator, does to it
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 10
    while not db_pool._server_wrote(conn) and time.monotonic() < deadline:  # the backend ends, and says so
        time.sleep(0.01)
    with pytest.raises(psycopg.OperationalError):
        db_pool.check_if_idle(conn)  # the pool then discards it and opens another
    assert len(checks) == 2


@pytest.mark.django_db(transaction=True)
def test_the_servers_pool_checks_a_connection_in_steady_use_once(checks) -> None:
    if connection.vendor != "postgresql" or not connection.pool:
        pytest.skip("needs PostgreSQL with the pool")
    # The pool hands its idle connections out in turn, and earlier tests may have grown it up to
    # its maximum: twice that many requests, one after the other, reuse every connection.
    requests = 2 * connection.pool.max_size + 1
    used = set()
    for _ in range(requests):  # each request takes a connection and gives it back
        connection.close()
        connection.ensure_connection()
        used.add(connection.connection)
    connection.close()
    assert len(used) < requests  # connections were reused...
    assert len({id(c) for c in checks}) == len(checks) <= len(used)  # ...and each checked once, when first handed out
