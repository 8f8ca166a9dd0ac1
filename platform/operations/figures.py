"""The house dashboard's figures of a span of days, counted from the ledger and the hands
(docs/OPERATIONS.md "House dashboard"): each is one aggregate query; nothing loops over hands
in Python.

- ``hands``: the hands settled at each stake level, whatever they paid (one per settlement).
- ``level_line``: those hands' house lines (``commission``, ``banker``, ``penalty``, any other
  house account a game's ``house_lines`` names), by stake level and house account.
- ``house_kind``: every entry of a house account outside the hands' settlements (grants,
  adjustments and compensations from ``issuance``, charges outside a hand, reversals, any kind
  the wallet adds), by house account and transaction kind, in the day of its transaction.

A hand counts in the day of its settlement (``finished_at``) in the site's time zone. Both
sides are read within the ledger transaction ids of the span (found on the transactions'
``created_at`` index), so a day costs what its own hands cost, however long the ledger is.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.db import connection
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from games.models import Hand
from tables.models import Table
from wallet.models import Entry, LedgerTransaction, TransactionKind

HANDS, LEVEL_LINE, HOUSE_KIND = "hands", "level_line", "house_kind"
#: How much earlier than its hand's ``finished_at`` a settlement's transaction may have been
#: made (both are written in one database transaction, which takes seconds at most).
SLACK = dt.timedelta(hours=1)


@dataclass(frozen=True)
class Figure:
    day: dt.date
    figure: str
    level: int  # stake level id (hands, level_line); 0 otherwise
    house: str
    kind: str
    value: int


def _transaction_at(moment: dt.datetime) -> int | None:
    """The id of the first ledger transaction made at or after ``moment`` (ids grow with time)."""
    return (LedgerTransaction.objects.filter(created_at__gte=moment).order_by("created_at", "id")
            .values_list("id", flat=True).first())


Span = tuple[int, int | None]  # the ledger transaction ids [low, high) a span of time may hold


def _span(since: dt.datetime, until: dt.datetime | None) -> Span | None:
    """The ledger transaction ids that may belong to ``[since, until)``; None when there are none."""
    low = _transaction_at(since - SLACK)
    if low is None:
        return None
    return low, None if until is None else _transaction_at(until + SLACK)


def _ids(field: str, span: Span) -> Q:
    low, high = span
    cond = Q(**{f"{field}__gte": low})
    return cond & Q(**{f"{field}__lt": high}) if high is not None else cond


def _window(field: str, since: dt.datetime, until: dt.datetime | None) -> Q:
    cond = Q(**{f"{field}__gte": since})
    return cond & Q(**{f"{field}__lt": until}) if until is not None else cond


def figures_between(*, since: dt.datetime, until: dt.datetime | None, tz: ZoneInfo) -> list[Figure]:
    """Every figure of the hands and house entries in ``[since, until)`` (``until`` None: up
    to now), by day in ``tz``."""
    span = _span(since, until)
    if span is None:
        return []
    return [*_hands(span, since, until, tz), *_level_lines(span, since, until, tz),
            *_house_kinds(span, since, until, tz)]


def _hands(span: Span, since: dt.datetime, until: dt.datetime | None, tz: ZoneInfo) -> list[Figure]:
    rows = (
        Hand.objects.filter(_ids("ledger_transaction_id", span), _window("finished_at", since, until))
        .annotate(day=TruncDate("finished_at", tzinfo=tz))
        .values("day", "table__stake_level_id").annotate(n=Count("id")).order_by()
        .values_list("day", "table__stake_level_id", "n")
    )
    return [Figure(day, HANDS, int(level), "", "", int(n)) for day, level, n in rows]


_LEVEL_LINES_SQL = """
SELECT per.day, tb.stake_level_id, per.house, sum(per.coins)
FROM (
  SELECT {day} AS day, h.table_id, e.house, sum(e.amount) AS coins
  FROM {hand} h
  JOIN {entry} e ON e.transaction_id = h.ledger_transaction_id
  WHERE h.ledger_transaction_id >= %s AND e.transaction_id >= %s {below}
    AND h.finished_at >= %s AND h.finished_at < %s AND e.house <> ''
  GROUP BY 1, 2, 3
) per
JOIN {table} tb ON tb.id = per.table_id
GROUP BY 1, 2, 3
"""


def _level_lines(span: Span, since: dt.datetime, until: dt.datetime | None, tz: ZoneInfo) -> list[Figure]:
    """The house lines of the hands settled in the span: the hands' index (by transaction id)
    joined to the entries' (by transaction id), both within the span's ids. Written as SQL, since
    no relation leads from an entry to its hand; the day as each database writes it."""
    low, high = span
    day_sql, day_params = connection.ops.datetime_cast_date_sql("h.finished_at", (), tz.key)
    below = "" if high is None else "AND h.ledger_transaction_id < %s AND e.transaction_id < %s"
    sql = _LEVEL_LINES_SQL.format(day=day_sql, hand=Hand._meta.db_table, entry=Entry._meta.db_table,
                                  table=Table._meta.db_table, below=below)
    end = until or timezone.now() + SLACK
    params = [*day_params, low, low, *([] if high is None else [high, high]), since, end]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [Figure(_date(day), LEVEL_LINE, int(level), house, "", int(coins)) for day, level, house, coins in rows]


def _date(value: dt.date | str) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(value)


def _house_kinds(span: Span, since: dt.datetime, until: dt.datetime | None, tz: ZoneInfo) -> list[Figure]:
    """Every house entry of the span's transactions but the hands' settlements (a settlement is
    always a hand's: ``games.services.settlement`` posts them, one per hand)."""
    rows = (
        Entry.objects.filter(_ids("transaction_id", span), _window("transaction__created_at", since, until))
        .exclude(house="").exclude(transaction__kind=TransactionKind.SETTLEMENT)
        .annotate(day=TruncDate("transaction__created_at", tzinfo=tz))
        .values("day", "house", "transaction__kind").annotate(coins=Sum("amount")).order_by()
        .values_list("day", "house", "transaction__kind", "coins")
    )
    return [Figure(day, HOUSE_KIND, 0, house, kind, int(coins)) for day, house, kind, coins in rows]
