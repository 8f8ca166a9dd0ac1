"""A change at a table (games/services/store.py, games/services/change.py): locked once, its
version bumped once however often it is touched, and only its last touch broadcast, with the
seats as the change left them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.services import seating, store
from games.services.settlement import seat_remove
from games.services.sql import FRAME_SEAT_FIELDS
from tables.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def _seated(table: Table, funded: Callable[..., User], n: int) -> list[User]:
    users = [funded() for _ in range(n)]
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"j{i}")
    return users


def test_a_change_locked_by_its_bump_is_touched_without_another_statement(funded, table_for):
    table = table_for("thirteen")
    before = Table.objects.get(pk=table.pk).version
    with transaction.atomic():
        change = store.table_lock(table.pk, bump=True)
        with CaptureQueriesContext(connection) as first:
            version = store.table_touch(change)
        again = store.table_touch(change)
    assert len(first) == 0 and version == before + 1
    assert again == before + 2 == Table.objects.get(pk=table.pk).version


def test_only_the_last_touch_of_a_change_is_broadcast_with_the_seats_it_left(funded, table_for, monkeypatch):
    table = table_for("thirteen")
    stays, goes = _seated(table, funded, 2)
    sent: list[tuple[int, Any]] = []
    monkeypatch.setattr(store, "broadcast_table", lambda table_id, held, rows: sent.append((held.version, rows)))
    with transaction.atomic():
        change = store.table_lock(table.pk, bump=True)
        store.table_touch(change)
        seat, money = store.seat_of_locked_with_money(change, goes)
        seat_remove(change=change, seat=seat, reason="left", money=money)
        last = store.table_touch(change)
    assert [version for version, _rows in sent] == [last]
    rows = sent[0][1]
    if connection.vendor == "postgresql":  # read with the lock, then the leaver's seat taken out
        user = FRAME_SEAT_FIELDS.index("user_id")
        assert [row[user] for row in rows] == [stays.pk]
    else:  # read after commit by the frames
        assert rows is None


def test_a_change_that_moves_seats_has_its_frames_read_them_again(funded, table_for):
    table = table_for("thirteen")
    _seated(table, funded, 2)
    with transaction.atomic():
        change = store.table_lock(table.pk, bump=True)
        store.table_seats_changed(change)
        assert change.seat_rows is None
        store.table_seats_read(change, store.seats_locked_with_money(change))
    assert change.seat_rows is not None and len(change.seat_rows) == 2
