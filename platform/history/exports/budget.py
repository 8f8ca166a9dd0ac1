"""The exports' budget (docs/HAND_HISTORY.md "Export budget"): what a streamed export may hold,
so that however many are open, and however slowly their clients read, live play never waits.

1. **Its own connections.** An export reads through the database alias ``EXPORTS_DATABASE``,
   whose pool (``EXPORTS_DB_CONNECTIONS`` per process) is not the one live play draws from, and
   it hands the request's own connection back before its first line. It reads in chunks, each
   one query whose connection goes back at once (``history.exports.stream``): while a client
   reads, or stalls, the export holds no connection at all.
2. **A place among the running exports.** At most ``EXPORTS_PER_USER`` exports of one account and
   ``EXPORTS_RUNNING_MAX`` in all run at once, counted by leases (``kernel.leases``) that expire
   on their own a minute after the time limit, should the process die. An export past the
   budget is refused before it starts: 429 with a message in the person's language.
3. **A time limit.** An export still running ``EXPORTS_TIME_LIMIT`` seconds after it started
   stops there: the download ends unfinished (no closing chunk), which every client reports as
   an error, never as a complete file.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext as _

from kernel.errors import AppError
from kernel.leases import lease_drop, lease_take

HTTP_TOO_MANY_REQUESTS = 429
ALL = "exports"


class ExportRefused(AppError):
    """An export past the budget; nothing was started."""

    code = "export_busy"
    status_code = HTTP_TOO_MANY_REQUESTS
    retry_after = 60


class ExportTimeLimit(Exception):
    """An export ran past ``EXPORTS_TIME_LIMIT``: its download ends unfinished."""


def export_alias() -> str:
    """The database an export reads: the exports' alias, or — inside a transaction of the default
    database, which must see its own writes — that transaction's connection."""
    return DEFAULT_DB_ALIAS if connections[DEFAULT_DB_ALIAS].in_atomic_block else settings.EXPORTS_DATABASE


def export_connection_done(alias: str) -> None:
    """Hand ``alias``'s connection of this thread back (to its pool), unless it is a transaction's."""
    conn = connections[alias]
    if not conn.in_atomic_block:
        conn.close()


def export_start(*, user_id: int) -> str:
    """Take a place for one export of the user (module docstring, step 2); the export's lease
    name. Raises :class:`ExportRefused` past the budget."""
    member = f"{user_id}:{secrets.token_hex(8)}"
    full = lease_take(
        counts=[(f"{ALL}:user:{user_id}", settings.EXPORTS_PER_USER), (ALL, settings.EXPORTS_RUNNING_MAX)],
        member=member, ttl=settings.EXPORTS_TIME_LIMIT + 60,
    )
    if full == ALL:
        raise ExportRefused(_("Too many exports are running right now: try again in a minute."))
    if full is not None:
        raise ExportRefused(_("Your previous export is still running: wait for it to finish, then try again."))
    return member


def export_end(*, member: str) -> None:
    user_id = member.split(":", 1)[0]
    lease_drop(names=[f"{ALL}:user:{user_id}", ALL], member=member)


class BudgetedExport:
    """An export's lines within the time limit, its lease given back however it ends: at its
    last line, when it fails or is cut off, or when the response is closed without being read
    (``close``, which the response calls at the request's end)."""

    def __init__(self, lines: Iterator[str], *, member: str) -> None:
        self.lines, self.member, self.done = lines, member, False

    def __iter__(self) -> Iterator[str]:
        deadline = time.time() + settings.EXPORTS_TIME_LIMIT
        try:
            export_connection_done(DEFAULT_DB_ALIAS)  # the request's own: back to live play's pool
            for line in self.lines:
                if time.time() > deadline:
                    raise ExportTimeLimit(f"export cut off after {settings.EXPORTS_TIME_LIMIT} s")
                yield line
        finally:
            self.close()

    def close(self) -> None:
        if not self.done:
            self.done = True
            export_end(member=self.member)
