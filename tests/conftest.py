"""Shared fixtures."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    from accounts.models import User

    def make(username: str = "player", password: str = "s3cret-pass-word", **extra: Any) -> User:
        user = User.objects.create_user(username=username, password=password, **extra)
        return user

    return make


@pytest.fixture(autouse=True)
def fresh_limits(settings: Any) -> None:
    """Each test counts its own leases and limits (kernel.leases, games.services.limits): none left
    by another test, or by an earlier run in the same Redis, can fill a budget; no address told
    of its limit and no public frame kept by another test."""
    from games.public_frames import public_frames_forget
    from games.services.limits import refusals_forget

    settings.GAMES_LIMITS_PREFIX = f"test:{uuid.uuid4().hex}"
    refusals_forget()
    public_frames_forget()


@pytest.fixture(scope="session", autouse=True)
def flush_by_delete() -> Iterator[None]:
    """Empty PostgreSQL's tables after a transactional test with DELETE, not TRUNCATE.

    Django empties every table after each test that commits (``transactional_db``, the browser
    tests' server) with one TRUNCATE of all of them; TRUNCATE gives each table and index new
    files and unlinks the old at commit, 0.4–1.4 s on this suite's 54 tables, where a test
    leaves a few rows in a few tables that DELETE removes in milliseconds. The append-only
    triggers (the ledger, the hand record, the staff trail) refuse DELETE, and foreign keys
    would order it: ``session_replication_role = replica`` skips both for this one transaction.
    It needs a superuser (the test databases' owner here); any other role keeps TRUNCATE."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self: Any, style: Any, tables: Any, *, reset_sequences: bool = False, allow_cascade: bool = False) -> list[str]:
        if not tables or reset_sequences or not _superuser(self.connection):
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET LOCAL session_replication_role = replica", *(f"DELETE FROM {self.quote_name(t)}" for t in tables)]  # noqa: S608 - Django's table names, quoted

    with mock.patch.object(DatabaseOperations, "sql_flush", sql_flush):
        yield


def _superuser(connection: Any) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        return bool(cursor.fetchone()[0])
