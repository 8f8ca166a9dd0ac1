"""The live path's statements (kernel/rows.py): one cursor kept per database session, and every
statement still counted while queries are logged."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from kernel.rows import _cursor, fetch_all, fetch_one

pytestmark = pytest.mark.django_db(transaction=True)


def test_statements_of_a_session_share_one_cursor() -> None:
    with _cursor() as first, _cursor() as second:
        assert first is second
    assert fetch_one("SELECT 1", []) == (1,)
    with _cursor() as third:
        assert third is first


def test_a_kept_cursor_is_always_one_of_the_current_session() -> None:
    for _ in range(4):
        connection.close()  # back to the pool, or closed: the next statement takes a session
        assert fetch_all("SELECT 2", []) == [(2,)]
        with _cursor() as cursor:
            assert cursor.cursor.connection is connection.connection


def test_statements_are_counted_while_queries_are_logged() -> None:
    with CaptureQueriesContext(connection) as ctx:
        fetch_one("SELECT 3", [])
        fetch_one("SELECT 4", [])
    assert [q["sql"] for q in ctx.captured_queries] == ["SELECT 3", "SELECT 4"]
