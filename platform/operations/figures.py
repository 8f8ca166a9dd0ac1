"""The house dashboard's figures of a span of days, counted from the ledger and the hands
(docs/OPERATIONS.md "House dashboard"): each is one aggregate query; nothing loops over hands
in Python.

- ``hands``: the hands settled at each stake level, whatever they paid (one per settlement).
- ``level_line``: those hands' house lines (``commission``, ``banker``, ``penalty``, any other
  house account a game's ``house_lines`` names), by stake level and house account.
- ``house_kind``: every other entry of a house account (grants, adjustments and compensations
  from ``issuance``, charges outside a hand, reversals, any kind the wallet adds), by house
  account and transaction kind, in the day of its transaction.

A hand counts in the day of its settlement (``finished_at``) in the site's time zone. Both
sides are read within the ledger transaction ids of the span (found on the transactions'
``created_at`` index), so a day costs what its own hands cost, however long the ledger is.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.db.models import Count, Exists, OuterRef, Q, Subquery, Sum
from django.db.models.functions import TruncDate

from games.models import Hand
from wallet.models import Entry, LedgerTransaction

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


def _level_lines(span: Span, since: dt.datetime, until: dt.datetime | None, tz: ZoneInfo) -> list[Figure]:
    hand = Hand.objects.filter(ledger_transaction_id=OuterRef("transaction_id")).order_by()
    rows = (
        Entry.objects.filter(_ids("transaction_id", span)).exclude(house="")
        .annotate(finished=Subquery(hand.values("finished_at")[:1]),
                  level=Subquery(hand.values("table__stake_level_id")[:1]))
        .filter(_window("finished", since, until))
        .annotate(day=TruncDate("finished", tzinfo=tz))
        .values("day", "level", "house").annotate(coins=Sum("amount")).order_by()
        .values_list("day", "level", "house", "coins")
    )
    return [Figure(day, LEVEL_LINE, int(level), house, "", int(coins)) for day, level, house, coins in rows]


def _house_kinds(span: Span, since: dt.datetime, until: dt.datetime | None, tz: ZoneInfo) -> list[Figure]:
    of_a_hand = Hand.objects.filter(ledger_transaction_id=OuterRef("transaction_id")).order_by()
    rows = (
        Entry.objects.filter(_ids("transaction_id", span), _window("transaction__created_at", since, until))
        .exclude(house="").exclude(Exists(of_a_hand))
        .annotate(day=TruncDate("transaction__created_at", tzinfo=tz))
        .values("day", "house", "transaction__kind").annotate(coins=Sum("amount")).order_by()
        .values_list("day", "house", "transaction__kind", "coins")
    )
    return [Figure(day, HOUSE_KIND, 0, house, kind, int(coins)) for day, house, kind, coins in rows]
