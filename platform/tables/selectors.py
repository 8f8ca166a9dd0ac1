"""Lobby reads: stake levels and tables with their free seats and players."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db.models import Prefetch, QuerySet

from tables.models import WALLET_REF_PREFIX, Seat, StakeLevel, Table
from wallet.audit import escrow_opened


def stake_level_list(*, game: str | None = None) -> QuerySet[StakeLevel]:
    levels = StakeLevel.objects.filter(active=True)
    return levels.filter(game=game) if game else levels


def table_list_open(*, game: str | None = None, mode: str | None = None) -> QuerySet[Table]:
    """The open public tables (private rooms are listed nowhere: docs/RULES.md "Private rooms")."""
    tables = Table.objects.filter(
        status=Table.Status.OPEN, stake_level__active=True, room_code__isnull=True,
    ).select_related("stake_level")
    if game:
        tables = tables.filter(stake_level__game=game)
    if mode is not None:
        tables = tables.filter(stake_level__mode=mode)
    return _with_seats(tables)


def table_list_by_ids(table_ids: Collection[int]) -> QuerySet[Table]:
    """These tables, open or closed, ready for :func:`table_summary`, by id; private rooms left
    out (the lobby lists none)."""
    tables = Table.objects.filter(pk__in=table_ids, room_code__isnull=True)
    return _with_seats(tables.select_related("stake_level").order_by("pk"))


def _with_seats(tables: QuerySet[Table]) -> QuerySet[Table]:
    """The tables with their seats and players, two queries however many (for table_summary)."""
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
        "closed": table.status != Table.Status.OPEN,
    }


def seat_holders(table_refs: Collection[str]) -> dict[str, set[int]]:
    """For the ledger audit: the users seated at each of these tables (by ``wallet_ref``);
    a ref whose table does not exist is left out."""
    suffixes = (ref.removeprefix(WALLET_REF_PREFIX) for ref in table_refs if ref.startswith(WALLET_REF_PREFIX))
    ids = {int(suffix) for suffix in suffixes if suffix.isdigit()}
    holders: dict[str, set[int]] = {
        f"{WALLET_REF_PREFIX}{pk}": set() for pk in Table.objects.filter(pk__in=ids).values_list("pk", flat=True)
    }
    for table_id, user_id in Seat.objects.filter(table_id__in=ids).values_list("table_id", "user_id"):
        holders[f"{WALLET_REF_PREFIX}{table_id}"].add(user_id)
    return holders


def table_deletable(*, table: Table) -> bool:
    """Only a table that never had a seat or a hand may be deleted; any other is closed
    (``games.services.seating.table_close``), so no table money is ever stranded."""
    if table.hands_played or table.seat_set.exists():
        return False
    return not escrow_opened(table_ref=table.wallet_ref)
