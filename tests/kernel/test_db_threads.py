"""Database work from an event loop (kernel/db_threads.py): the caller's language goes with the
call, the process's own threads run it, and a connection goes back to the pool after each call."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection
from django.utils import translation

from kernel.db_threads import _call, db_executor, in_db_thread, in_seat_thread


def _language_and_thread() -> tuple[str, str]:
    return translation.get_language(), threading.current_thread().name


def test_a_call_speaks_the_callers_language_in_a_database_thread() -> None:
    async def call() -> tuple[str, str]:
        with translation.override("zh-hant"):
            return await in_db_thread(_language_and_thread)

    language, thread = asyncio.run(call())
    assert language == "zh-hant"
    assert thread.startswith("db") and thread != threading.current_thread().name


def test_calls_run_on_as_many_threads_as_settings_say(settings) -> None:
    async def many() -> set[str]:
        names = await asyncio.gather(*(in_db_thread(_language_and_thread) for _ in range(40)))
        return {name for _language, name in names}

    assert len(asyncio.run(many())) <= settings.GAMES_DB_THREADS
    assert db_executor()._max_workers == settings.GAMES_DB_THREADS


def test_an_error_is_raised_to_the_caller() -> None:
    def fails() -> None:
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        asyncio.run(in_db_thread(fails))


@pytest.mark.django_db(transaction=True)
def test_a_calls_connection_goes_back_when_it_ends() -> None:
    def opened() -> bool:
        connection.ensure_connection()
        return connection.connection is not None

    assert _call(opened)  # what a database thread runs for each call
    if connection.vendor == "postgresql" and connection.pool:
        assert connection.connection is None  # handed back to the pool (CONN_MAX_AGE 0)


def test_seat_changes_have_a_lane_of_their_own(settings) -> None:
    async def both() -> tuple[str, str]:
        seat = await in_seat_thread(_language_and_thread)
        play = await in_db_thread(_language_and_thread)
        return seat[1], play[1]

    seat, play = asyncio.run(both())
    assert seat.startswith("seat") and play.startswith("db")
    assert db_executor("seat")._max_workers == settings.GAMES_DB_SEAT_THREADS
    assert db_executor("seat") is not db_executor()


def test_a_full_seat_lane_does_not_hold_up_database_work(settings) -> None:
    release = threading.Event()
    busy = [db_executor("seat").submit(release.wait, 30) for _ in range(settings.GAMES_DB_SEAT_THREADS)]
    try:
        async def both() -> tuple[str, bool]:
            waiting = asyncio.ensure_future(in_seat_thread(_language_and_thread))
            _language, thread = await asyncio.wait_for(in_db_thread(_language_and_thread), timeout=5)
            return thread, waiting.done()

        thread, seat_done = asyncio.run(both())
        assert thread.startswith("db") and not seat_done
    finally:
        release.set()
    assert all(done.result(timeout=5) for done in busy)
