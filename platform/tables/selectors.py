"""Lobby reads: stake levels and tables with their free seats and players."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from tables.models import Seat, StakeLevel, Table


def stake_level_list(*, game: str | None = None) -> QuerySet[StakeLevel]:
    levels = StakeLevel.objects.filter(active=True)
    return levels.filter(game=game) if game else levels


def table_list_open(*, game: str | None = None, mode: str | None = None) -> QuerySet[Table]:
    tables = Table.objects.filter(status=Table.Status.OPEN, stake_level__active=True).select_related("stake_level")
    if game:
        tables = tables.filter(stake_level__game=game)
    if mode is not None:
        tables = tables.filter(stake_level__mode=mode)
    seats = Seat.objects.select_related("user").order_by("index")
    return tables.prefetch_related(Prefetch("seat_set", queryset=seats))


def table_summary(table: Table) -> dict[str, Any]:
    level = table.stake_level
    seats = list(table.seat_set.all())
    taken = {s.index for s in seats}
    return {
        "id": table.pk,
        "name": table.name,
        "game": level.game,
        "mode": level.mode,
        "stake_level": level.pk,
        "stake_name": level.name,
        "unit": level.unit,
        "commission_percent": level.commission_percent,
        "min_buy_in": level.min_buy_in,
        "seats": level.seats,
        "free_seats": [i for i in range(level.seats) if i not in taken],
        "players": [{"seat": s.index, "name": s.user.shown_name, "status": s.status} for s in seats],
        "hands_played": table.hands_played,
    }
