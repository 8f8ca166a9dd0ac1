"""Table-level helpers shared by the seating and hand services."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from games.broadcast import broadcast_table
from tables.models import Seat, Table


def table_lock(table_id: int) -> Table:
    """Lock the table row: every change at a table is serialised on it."""
    return Table.objects.select_for_update().select_related("stake_level").get(pk=table_id)


def table_touch(table: Table) -> int:
    """Bump the table's version and broadcast the new state after commit."""
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.refresh_from_db(fields=["version"])
    table_id = table.pk
    transaction.on_commit(lambda: broadcast_table(table_id))
    return table.version


def seats_locked(table: Table) -> list[Seat]:
    return list(Seat.objects.select_for_update().filter(table=table).select_related("user").order_by("index"))
