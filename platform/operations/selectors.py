"""The house dashboard (docs/OPERATIONS.md "House dashboard"): every coin the house took or
paid and the hands of every game, mode and stake level, read from the figures stored for the
days that are over (:mod:`operations.closing`) and counted from the ledger for the days still
open (:mod:`operations.figures`); the live tables, the balances and the open disputes. Each is
one aggregate query; nothing loops over hands in Python."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncHour
from django.utils import timezone

from disputes.models import Dispute
from games.engine.errors import EngineError
from games.engine.registry import engine_for, game_codes
from operations.closing import day_bounds
from operations.figures import HANDS, HOUSE_KIND, LEVEL_LINE, Figure, figures_between
from operations.models import DayClosed, DayFigure
from tables.models import Seat, StakeLevel, Table
from tables.rooms import rooms_open_count
from wallet.models import Account, AccountKind, House, LedgerTransaction, TransactionKind

PERIODS = (7, 30, 90)
AGE_BUCKETS = ((0, 1), (1, 3), (3, 7), (7, None))  # days


@dataclass(frozen=True)
class LevelRow:
    level_id: int
    game: str
    mode: str
    name: str
    unit: int
    hands: int
    lines: dict[str, int]  # house account -> coins the house took from these hands (negative: paid)


@dataclass(frozen=True)
class DayRow:
    day: dt.date
    hands: int
    lines: dict[str, int]


@dataclass
class Dashboard:
    days: int
    since: dt.datetime
    houses: list[str] = field(default_factory=list)  # the house lines of hands in the window, in order
    by_day: list[DayRow] = field(default_factory=list)  # every day of the window, the empty ones too
    by_level: list[LevelRow] = field(default_factory=list)
    house_money: list[tuple[str, str, int]] = field(default_factory=list)  # house, kind, coins (+ took, - paid)
    hands_per_hour: list[tuple[dt.datetime, int]] = field(default_factory=list)  # the last 24 hours, each
    stored_days: int = 0  # days of the window read from stored figures
    tables_live: int = 0
    rooms_open: int = 0  # private rooms open (docs/RULES.md "Private rooms")
    players_seated: int = 0
    in_wallets: int = 0
    in_escrow: int = 0
    disputes_by_age: list[tuple[str, int]] = field(default_factory=list)

    @property
    def hands(self) -> int:
        return sum(row.hands for row in self.by_day)

    @property
    def house_net(self) -> int:
        """What the house took in the window, less what it paid: minus what the players' accounts gained."""
        return sum(coins for _house, _kind, coins in self.house_money)


def _day_start(now: dt.datetime, days: int) -> dt.datetime:
    today = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    return today - dt.timedelta(days=days - 1)


def window_figures(*, days: list[dt.date], tz: ZoneInfo) -> tuple[list[Figure], int]:
    """Every figure of ``days`` (consecutive, oldest first): the stored ones of the closed days
    and, from the ledger, those of the days after the first that is not closed; and how many
    days were stored."""
    closed = set(DayClosed.objects.filter(time_zone=tz.key, day__in=days).values_list("day", flat=True))
    stored = [Figure(day, figure, level, house, kind, value) for day, figure, level, house, kind, value in
              DayFigure.objects.filter(time_zone=tz.key, day__in=closed)
              .values_list("day", "figure", "level", "house", "kind", "value")]
    still_open = [day for day in days if day not in closed]
    if not still_open:
        return stored, len(closed)
    since, _end = day_bounds(day=still_open[0], tz=tz)
    _start, until = day_bounds(day=days[-1], tz=tz)
    wanted = set(still_open)
    counted = [f for f in figures_between(since=since, until=until, tz=tz) if f.day in wanted]
    return stored + counted, len(closed)


def _level_order(level: StakeLevel) -> tuple[int, int, int, str]:
    games = list(game_codes())
    try:
        modes = list(engine_for(level.game).modes)
    except EngineError:
        modes = []
    return (games.index(level.game) if level.game in games else len(games),
            modes.index(level.mode) if level.mode in modes else len(modes), level.unit, level.name)


def _house_order(houses: set[str]) -> list[str]:
    known = [h for h in House.values if h in houses]
    return known + sorted(houses - set(known))


def _tally(board: Dashboard, figures: list[Figure], days: list[dt.date]) -> None:
    day_hands: dict[dt.date, int] = defaultdict(int)
    day_lines: dict[dt.date, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    level_hands: dict[int, int] = defaultdict(int)
    level_lines: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    money: dict[tuple[str, str], int] = defaultdict(int)
    for f in figures:
        if f.figure == HANDS:
            day_hands[f.day] += f.value
            level_hands[f.level] += f.value
        elif f.figure == LEVEL_LINE:
            day_lines[f.day][f.house] += f.value
            level_lines[f.level][f.house] += f.value
            money[(f.house, TransactionKind.SETTLEMENT.value)] += f.value
        elif f.figure == HOUSE_KIND:
            money[(f.house, f.kind)] += f.value
    board.houses = _house_order({house for lines in level_lines.values() for house in lines})
    board.by_day = [DayRow(day, day_hands[day], dict(day_lines[day])) for day in days]
    levels = sorted(StakeLevel.objects.filter(pk__in=set(level_hands) | set(level_lines)), key=_level_order)
    board.by_level = [LevelRow(lv.pk, lv.game, lv.mode, lv.name, lv.unit, level_hands[lv.pk],
                               dict(level_lines[lv.pk])) for lv in levels]
    order = {house: i for i, house in enumerate(_house_order({house for house, _kind in money}))}
    board.house_money = sorted(((h, k, c) for (h, k), c in money.items() if c),
                               key=lambda row: (order[row[0]], row[1]))


def hands_per_hour(*, now: dt.datetime) -> list[tuple[dt.datetime, int]]:
    """Hands settled in each of the last 24 hours (one settlement transaction per settled hand),
    each hour in the site's time zone, those without a hand too; the last is the current hour."""
    tz = timezone.get_current_timezone()
    this_hour = timezone.localtime(now, tz).replace(minute=0, second=0, microsecond=0)
    hours = [this_hour - dt.timedelta(hours=n) for n in range(23, -1, -1)]
    counts = dict(
        LedgerTransaction.objects.filter(kind=TransactionKind.SETTLEMENT, created_at__gte=hours[0])
        .annotate(hour=TruncHour("created_at", tzinfo=tz)).values("hour")
        .annotate(n=Count("id")).order_by().values_list("hour", "n")
    )
    return [(hour, int(counts.get(hour, 0))) for hour in hours]


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
    tz = ZoneInfo(timezone.get_current_timezone_name())
    window = [since.date() + dt.timedelta(days=i) for i in range(days)]
    figures, board.stored_days = window_figures(days=window, tz=tz)
    _tally(board, figures, window)
    board.hands_per_hour = hands_per_hour(now=now)
    live = Seat.objects.filter(table__status=Table.Status.OPEN).aggregate(
        players=Count("user", distinct=True), tables=Count("table", distinct=True)
    )
    board.tables_live, board.players_seated = int(live["tables"]), int(live["players"])
    board.rooms_open = rooms_open_count()
    balances = dict(Account.objects.values_list("kind").annotate(total=Sum("balance")).order_by())
    board.in_wallets = int(balances.get(AccountKind.WALLET) or 0)
    board.in_escrow = int(balances.get(AccountKind.TABLE) or 0)
    board.disputes_by_age = disputes_by_age(now=now)
    return board

