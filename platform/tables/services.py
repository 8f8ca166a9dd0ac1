"""Table writes: find the table "Play" seats a player at, or open one."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Q

from tables.models import Seat, StakeLevel, Table


@transaction.atomic
def table_find_or_create_free(*, level: StakeLevel) -> Table:
    """The open table at ``level`` with the most players present that still has a free seat
    (the most seats taken, then the oldest, on a tie), or a new table named "<level> · <n>" when
    every one is full or holds only absent players. A player is present who plays and is not
    marked disconnected; a newcomer is never sent to a table of players sitting out or gone
    (docs/RULES.md "Away players"), where no hand would be dealt.

    The choice is one query whatever the number of tables: seats are counted in SQL and
    compared with the level's seats per table.

    Concurrency: the stake level row is locked (``select_for_update``) until the transaction
    ends, so two "Play" requests at the same level run one after the other and the second
    sees the table the first one opened instead of opening another. Requests at different
    levels do not wait for each other."""
    locked = StakeLevel.objects.select_for_update().get(pk=level.pk)
    table = (
        Table.objects.filter(stake_level=locked, status=Table.Status.OPEN, stake_level__active=True,
                             room_code__isnull=True)  # never a private room
        .annotate(
            players=Count("seat_set"),
            present=Count("seat_set", filter=Q(
                seat_set__status=Seat.Status.PLAYING, seat_set__disconnected=False,
            )),
        )
        .filter(Q(players=0) | Q(present__gt=0), players__lt=locked.seats)
        .order_by("-present", "-players", "id")
        .first()
    )
    if table is not None:
        return table
    number = Table.objects.filter(stake_level=locked).count() + 1
    return Table.objects.create(stake_level=locked, name=f"{locked.name} · {number}")
