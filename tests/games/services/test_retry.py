"""Retrying a service call (games/services/retry.py): a transient failure runs the whole call
again in a fresh transaction, a failure that is not transient is raised at once, and only
PostgreSQL's connection going away counts as a lost connection."""

from __future__ import annotations

import pytest
from django.db import OperationalError, transaction

from games.services.retry import connection_lost, with_retries

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_call_that_fails_with_sqlite_busy_runs_again_and_returns_its_result():
    attempts: list[int] = []

    @with_retries
    def flaky() -> str:
        attempts.append(1)
        if len(attempts) < 2:
            raise OperationalError("database is locked")
        return "done"

    assert flaky() == "done" and len(attempts) == 2


def test_a_failure_that_is_not_transient_is_raised_after_one_attempt():
    attempts: list[int] = []

    @with_retries
    def broken() -> None:
        attempts.append(1)
        raise OperationalError("no such column: nowhere")

    with pytest.raises(OperationalError):
        broken()
    assert len(attempts) == 1


def test_inside_a_callers_transaction_a_transient_failure_is_raised_not_retried():
    attempts: list[int] = []

    @with_retries
    def busy() -> None:
        attempts.append(1)
        raise OperationalError("database is locked")

    with pytest.raises(OperationalError), transaction.atomic():
        busy()
    assert len(attempts) == 1


def test_an_error_without_a_psycopg_cause_is_not_a_lost_connection():
    assert not connection_lost(OperationalError("server closed the connection unexpectedly"))
