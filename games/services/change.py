"""One change at a table: what the transaction holding the table's lock knows of it, passed
down the services explicitly (docs/ARCHITECTURE.md "Data flow").

``store.table_lock`` makes it; the actions above hand it to whatever they call, and the
broadcast after commit builds the state frames from it. Nothing of it outlives the transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.models import Hand
from tables.models import StakeLevel, Table

#: A seat as the state frames show it (``games.services.sql.FRAME_SEAT_FIELDS``, in order).
FrameSeatRow = tuple[Any, ...]


@dataclass(eq=False, slots=True)
class TableChange:
    """The locked table (its stake level and current hand read with it) and what the change
    has done to it so far.

    - ``seat_rows``: the table's seats with their table money as the state frames show them,
      read under the lock and kept up to date by the change; None when the frames read them
      after commit (the change moved seats in a way not tracked here).
    - ``version_bumped``: the table's version is bumped already for the next ``table_touch``.
    - ``broadcast_version``: the version of the change's last ``table_touch``: the one state
      frame the change sends after commit, built from the table and seats as it leaves them.
    - ``notices``: what each player is told after commit (user id, notice), in order, before
      the state frame.
    - ``send_queued``: the change's frames are queued to go out once the transaction commits
      (``store.change_send_after_commit``); a rolled-back change sends nothing.
    - ``actions_unsaved``: per hand id, the action log's rows that the hand's next save writes
      in the same statement (PostgreSQL).
    """

    table: Table
    seat_rows: list[FrameSeatRow] | None = None
    version_bumped: bool = False
    broadcast_version: int | None = None
    notices: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    send_queued: bool = False
    actions_unsaved: dict[int, list[list[Any]]] = field(default_factory=dict)

    @property
    def level(self) -> StakeLevel:
        return self.table.stake_level

    @property
    def hand(self) -> Hand | None:
        """The table's current hand, as the change leaves it."""
        return self.table.current_hand
