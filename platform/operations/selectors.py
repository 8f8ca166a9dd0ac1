"""The house dashboard's figures (docs/OPERATIONS.md "Dashboard"). Each is one aggregate query
over the ledger (or the live tables); nothing loops over hands in Python."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.db.models.functions import TruncDate, TruncHour
from django.utils import timezone

from disputes.models import Dispute
from games.models import Hand
from operations.models import StaffAction
from tables.models import Seat, StakeLevel, Table
from tables.rooms import rooms_open_count
from wallet.models import Account, AccountKind, Entry, LedgerTransaction, TransactionKind

PERIODS = (7, 30, 90)
AGE_BUCKETS = ((0, 1), (1, 3), (3, 7), (7, None))  # days


@dataclass
class Dashboard:
    days: int
    since: dt.datetime
    commission_by_day: list[tuple[dt.date, int]] = field(default_factory=list)
    commission_by_level: list[tuple[str, str, int, int]] = field(default_factory=list)  # game, level, hands, coins
    hands_per_hour: list[tuple[dt.datetime, int]] = field(default_factory=list)
    tables_live: int = 0
    rooms_open: int = 0  # private rooms open (docs/RULES.md "Private rooms")
    players_seated: int = 0
    in_wallets: int = 0
    in_escrow: int = 0
    paid: dict[str, int] = field(default_factory=dict)
    disputes_by_age: list[tuple[str, int]] = field(default_factory=list)


def _day_start(now: dt.datetime, days: int) -> dt.datetime:
    today = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    return today - dt.timedelta(days=days - 1)


_COMMISSION_SQL = """
WITH per AS (
  SELECT (h.finished_at AT TIME ZONE %(tz)s)::date AS day, h.table_id, count(*) AS hands, sum(e.amount) AS coins
  FROM wallet_entry e
  JOIN games_hand h ON h.ledger_transaction_id = e.transaction_id
  WHERE e.house = 'commission' AND h.finished_at >= %(since)s
  GROUP BY 1, 2
)
SELECT per.day, sl.game, sl.name, sl.id, sum(per.hands), sum(per.coins)
FROM per
JOIN tables_table tb ON tb.id = per.table_id
JOIN tables_stakelevel sl ON sl.id = tb.stake_level_id
GROUP BY 1, 2, 3, 4
ORDER BY 1, 2, 3
"""


def commission_rows(*, since: dt.datetime) -> list[tuple[dt.date, str, str, int, int]]:
    """(day, game, stake level, hands, commission) since ``since``: the house's commission lines
    of the hands settled since then, by the day of their settlement. On PostgreSQL both sides are
    read from index-only scans merged on the transaction id (wallet_entry_commission,
    hand_ledger_transaction); elsewhere (the embedded mode's SQLite) the ORM's portable query."""
    if connection.vendor != "postgresql":
        return _commission_rows_portable(since)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL jit = off")  # compiling costs more than it saves on this query
        cursor.execute(_COMMISSION_SQL, {"tz": timezone.get_current_timezone_name(), "since": since})
        return [(day, game, name, int(hands), int(coins)) for day, game, name, _id, hands, coins in cursor.fetchall()]


_HOURLY_SQL = """
SELECT date_trunc('hour', created_at) AS hour, count(*)
FROM wallet_ledgertransaction
WHERE kind = 'settlement' AND created_at >= %(since)s
GROUP BY 1 ORDER BY 1
"""


def _commission_rows_portable(since: dt.datetime) -> list[tuple[dt.date, str, str, int, int]]:
    hand = Hand.objects.filter(ledger_transaction_id=OuterRef("transaction_id"))
    per_level = (
        Entry.objects.filter(house="commission")
        .annotate(finished=Subquery(hand.values("finished_at")[:1]),
                  level=Subquery(hand.values("table__stake_level_id")[:1]))
        .filter(finished__gte=since)
        .annotate(day=TruncDate("finished", tzinfo=timezone.get_current_timezone()))
        .values("day", "level").annotate(hands=Count("id"), coins=Sum("amount")).order_by()
    )
    rows = list(per_level)
    levels = {pk: (game, name) for pk, game, name in
              StakeLevel.objects.filter(pk__in={r["level"] for r in rows}).values_list("pk", "game", "name")}
    return sorted((r["day"], *levels[r["level"]], int(r["hands"]), int(r["coins"])) for r in rows)


def hands_per_hour(*, since: dt.datetime) -> list[tuple[dt.datetime, int]]:
    """Hands settled per hour (one settlement transaction per settled hand), the hours in UTC."""
    if connection.vendor != "postgresql":
        hours = (
            LedgerTransaction.objects.filter(kind=TransactionKind.SETTLEMENT, created_at__gte=since)
            .annotate(hour=TruncHour("created_at", tzinfo=dt.UTC)).values("hour")
            .annotate(n=Count("id")).order_by("hour").values_list("hour", "n")
        )
        return [(hour, int(n)) for hour, n in hours]
    with connection.cursor() as cursor:
        cursor.execute(_HOURLY_SQL, {"since": since})
        return [(hour, int(n)) for hour, n in cursor.fetchall()]


def paid_out(*, since: dt.datetime) -> dict[str, int]:
    """Coins the bank paid into wallets since ``since``, by transaction kind (grants,
    adjustments, dispute compensations): minus the issuance entries of those transactions."""
    kinds = (TransactionKind.GRANT, TransactionKind.ADJUSTMENT, TransactionKind.DISPUTE_COMPENSATION)
    sums = dict(
        Entry.objects.filter(house="issuance", transaction__kind__in=kinds, transaction__created_at__gte=since)
        .values("transaction__kind").annotate(paid=-Sum("amount")).order_by().values_list("transaction__kind", "paid")
    )
    return {str(k): int(sums.get(str(k)) or 0) for k in kinds}


def disputes_by_age(*, now: dt.datetime) -> list[tuple[str, int]]:
    """Disputes not yet resolved (open or under review), counted by age in days."""
    aggregates = {}
    for low, high in AGE_BUCKETS:
        cond = Q(opened_at__lte=now - dt.timedelta(days=low))
        if high is not None:
            cond &= Q(opened_at__gt=now - dt.timedelta(days=high))
        aggregates[f"{low}-{high or ''}"] = Count("id", filter=cond)
    counts = Dispute.objects.filter(
        status__in=(Dispute.Status.OPEN, Dispute.Status.UNDER_REVIEW)
    ).aggregate(**aggregates)
    return [(label, int(n)) for label, n in counts.items()]


def dashboard(*, days: int = 7, now: dt.datetime | None = None) -> Dashboard:
    now = now or timezone.now()
    days = days if days in PERIODS else PERIODS[0]
    since = _day_start(now, days)
    board = Dashboard(days=days, since=since)
    rows = commission_rows(since=since)
    by_day: dict[dt.date, int] = {since.date() + dt.timedelta(days=i): 0 for i in range(days)}
    by_level: dict[tuple[str, str], list[int]] = {}
    for day, game, level, hands, coins in rows:
        by_day[day] = by_day.get(day, 0) + coins
        totals = by_level.setdefault((game, level), [0, 0])
        totals[0] += hands
        totals[1] += coins
    board.commission_by_day = sorted(by_day.items())
    board.commission_by_level = [(g, lv, h, c) for (g, lv), (h, c) in sorted(by_level.items())]
    board.hands_per_hour = hands_per_hour(since=now - dt.timedelta(hours=24))
    live = Seat.objects.filter(table__status=Table.Status.OPEN).aggregate(
        players=Count("user", distinct=True), tables=Count("table", distinct=True)
    )
    board.tables_live, board.players_seated = int(live["tables"]), int(live["players"])
    board.rooms_open = rooms_open_count()
    balances = dict(Account.objects.values_list("kind").annotate(total=Sum("balance")).order_by())
    board.in_wallets = int(balances.get(AccountKind.WALLET) or 0)
    board.in_escrow = int(balances.get(AccountKind.TABLE) or 0)
    board.paid = paid_out(since=since)
    board.disputes_by_age = disputes_by_age(now=now)
    return board


def staff_action_by_key(*, kind: str, request_key: str) -> StaffAction | None:
    """The staff action already taken with this request key, if any (``operations.services``)."""
    return StaffAction.objects.filter(request_key=f"{kind}:{request_key}").first()
