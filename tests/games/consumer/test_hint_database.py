"""A hint reads the hand in a server's database threads, which hand their connection back to the
pool after each call, and runs its read again on a connection the server ended: a hint is still
answered after PostgreSQL ended every session, as a restart does."""

from __future__ import annotations

import pytest
from django.db import connection

from games.services import hints
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from tests.games.live.helpers import db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _end_every_session() -> int:
    """``pg_terminate_backend`` for every other session of the test database (this one is spared);
    returns how many were ended."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def _checked_out() -> int:
    """Connections out of the pool, in every thread."""
    stats = connection.pool.get_stats()
    return int(stats["pool_size"]) - int(stats["pool_available"])


async def test_a_hint_is_answered_after_the_database_ended_every_session(funded, table_for):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")
    users = [await db(funded)() for _ in range(2)]
    table = await db(table_for)("thirteen")
    for i, user in enumerate(users):
        await db(seat_join)(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"j{i}")
    await db(hand_start_if_ready)(table_id=table.pk)

    out = await db(_checked_out)()
    first = await hints.hint_for(table_id=table.pk, user=users[0])
    assert first
    assert await db(_checked_out)() == out  # the hint's connection went back
    assert await db(_end_every_session)() > 0
    assert await hints.hint_for(table_id=table.pk, user=users[0]) == first
