"""The house dashboard on a million hands: build them, time every figure, show the plans.

    .venv/bin/python bench/dashboard.py [--hands 1000000] [--days 100] [--tables 200]

Uses DATABASE_URL, or creates (and migrates) the database ``cardtables_dashboard`` on
postgres@127.0.0.1:5432. The hands are written by SQL (``generate_series``), not played: one
settled hand per row of ``games_hand`` with its settlement transaction and its entries (the
winner's table money, the loser's, and the house's lines: commission where the level takes one,
三公's house-banked result, now and then a trio penalty), spread evenly over ``--days`` days
before now at ``--tables`` tables of every game's and mode's stake levels, in the order of time
(a later hand has a later transaction id, as when played). Triggers are switched
off for the bulk insert only (``session_replication_role = replica``; the rows balance anyway).
Each figure is then timed (best of 3, warm cache): first with no day stored (every day counted
from the ledger), then after closing the days that are over (``operations.closing``), which is
how the dashboard runs, the closing itself timed once.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ledger import django_setup, ensure_database  # noqa: E402 - bench/ledger.py, beside this file

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/cardtables_dashboard"


def build(hands: int, days: int, tables: int) -> None:
    from django.core.management import call_command
    from django.db import connection, transaction

    from accounts.models import User
    from games.models import Hand
    from tables.models import StakeLevel, Table
    from wallet.models import Account, AccountKind

    call_command("migrate", verbosity=0)
    if Hand.objects.count() >= hands:
        print(f"{Hand.objects.count()} hands already there")
        return
    levels = list(StakeLevel.objects.order_by("game", "mode", "unit"))
    with transaction.atomic():
        made = Table.objects.bulk_create(
            Table(stake_level=levels[i % len(levels)], name=f"bench {i}") for i in range(tables))
        users = User.objects.bulk_create(User(username=f"dash-{i}") for i in range(2 * tables))
        Account.objects.bulk_create(Account(kind=AccountKind.WALLET, user=u) for u in users)
        seats = Account.objects.bulk_create(
            Account(kind=AccountKind.TABLE, user=u, table_ref=made[i // 2].wallet_ref, balance=10**9)
            for i, u in enumerate(users))
    table_ids = [t.pk for t in made]
    seat_ids = [a.pk for a in seats]  # seats[2i], seats[2i+1] sit at table i
    t0 = time.perf_counter()
    with connection.cursor() as c:
        c.execute("SET session_replication_role = replica")
        c.execute("SELECT coalesce(max(id), 0) FROM wallet_ledgertransaction")
        base = c.fetchone()[0]
        c.execute("SELECT coalesce(max(id), 0) FROM games_hand")
        hbase = c.fetchone()[0]
        params = {"n": hands, "base": base, "hbase": hbase, "days": days, "tables": table_ids, "seats": seat_ids,
                  "t": len(table_ids)}
        c.execute("""
            INSERT INTO wallet_ledgertransaction (id, kind, idempotency_key, reference, memo, payload, payload_hash,
                                                  created_at)
            SELECT %(base)s + g, 'settlement', 'bench:settle:' || (%(base)s + g), 'hand:' || (%(hbase)s + g), '',
                   '{}'::jsonb, '', now() - ((%(n)s - g) * (%(days)s * interval '1 day') / %(n)s)
            FROM generate_series(1, %(n)s) g""", params)
        c.execute("""
            INSERT INTO games_hand (id, table_id, number, game, status, state, version, phase_seq, players,
                                    action_count, leavers, server_seed, commitment, client_seeds, rules, started_at,
                                    finished_at, ledger_transaction_id, result)
            SELECT %(hbase)s + g, tb.id, 1 + g / %(t)s, sl.game, 'settled',
                   '{}'::jsonb, 1, 0, '[]'::jsonb, 0, '[]'::jsonb, '', '', '[]'::jsonb, '{}'::jsonb,
                   now() - ((%(n)s - g) * (%(days)s * interval '1 day') / %(n)s) - interval '1 minute',
                   now() - ((%(n)s - g) * (%(days)s * interval '1 day') / %(n)s), %(base)s + g, NULL
            FROM generate_series(1, %(n)s) g
            JOIN tables_table tb ON tb.id = (%(tables)s::bigint[])[1 + g %% %(t)s]
            JOIN tables_stakelevel sl ON sl.id = tb.stake_level_id""", params)
        # Per hand: the loser -100·k, the house's lines (commission c where the level takes one,
        # a house-banked result b in 三公's house mode, now and then a trio penalty p) and the
        # winner the rest; a zero line is no entry.
        c.execute("""
            WITH h AS (
              SELECT g, (%(seats)s::bigint[])[1 + 2 * (g %% %(t)s)] AS winner,
                     (%(seats)s::bigint[])[2 + 2 * (g %% %(t)s)] AS loser, 100 * (1 + g %% 7) AS stake,
                     CASE WHEN sl.commission_percent > 0 THEN 1 + g %% 5 ELSE 0 END AS c,
                     CASE WHEN sl.mode = 'house' THEN 100 * (g %% 3 - 1) ELSE 0 END AS b,
                     CASE WHEN sl.game = 'thirteen_trio' AND g %% 10 = 0 THEN 50 ELSE 0 END AS p
              FROM generate_series(1, %(n)s) g
              JOIN tables_table tb ON tb.id = (%(tables)s::bigint[])[1 + g %% %(t)s]
              JOIN tables_stakelevel sl ON sl.id = tb.stake_level_id
            ), legs AS (
              SELECT g, winner AS account, '' AS house, stake - c - b - p AS amount FROM h
              UNION ALL SELECT g, loser, '', -stake FROM h
              UNION ALL SELECT g, NULL, 'commission', c FROM h
              UNION ALL SELECT g, NULL, 'banker', b FROM h
              UNION ALL SELECT g, NULL, 'penalty', p FROM h
            )
            INSERT INTO wallet_entry (transaction_id, account_id, house, amount, balance_after)
            SELECT %(base)s + g, account, house, amount, CASE WHEN account IS NULL THEN NULL ELSE 10^9 END
            FROM legs WHERE amount <> 0""", params)
        c.execute("SET session_replication_role = DEFAULT")
        for table in ("wallet_ledgertransaction", "games_hand"):
            c.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
    print(f"built {hands} hands and their settlements in {time.perf_counter() - t0:.1f} s")
    connection.close()
    import psycopg

    with psycopg.connect(_url(), autocommit=True) as conn:
        for table in ("wallet_entry", "wallet_ledgertransaction", "games_hand", "wallet_account"):
            conn.execute(f"VACUUM ANALYZE {table}")


def _url() -> str:
    import os

    return os.environ["DATABASE_URL"]


def timed(label: str, fn: object) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    print(f"{label:<44} {best * 1000:8.1f} ms")
    return best


def once(label: str, fn: object) -> float:
    t0 = time.perf_counter()
    result = fn()  # type: ignore[operator]
    took = time.perf_counter() - t0
    print(f"{label:<56} {took * 1000:8.1f} ms  ({result})")
    return took


def measure() -> None:
    from zoneinfo import ZoneInfo

    from django.conf import settings
    from django.test import Client, override_settings
    from django.utils import timezone

    from accounts.models import User
    from operations import closing, figures, selectors
    from operations.models import DayClosed, DayFigure

    now = timezone.now()
    tz = ZoneInfo(timezone.get_current_timezone_name())
    DayFigure.objects.all().delete()
    DayClosed.objects.all().delete()
    today = timezone.localtime(now).date()
    start, _end = closing.day_bounds(day=today, tz=tz)
    timed("figures of today, from the ledger", lambda: figures.figures_between(since=start, until=None, tz=tz))
    timed("hands per hour, 24 h", lambda: selectors.hands_per_hour(now=now))
    timed("open disputes by age", lambda: selectors.disputes_by_age(now=now))
    for days in selectors.PERIODS:
        timed(f"whole dashboard, no day stored, {days} d", lambda d=days: selectors.dashboard(days=d))
    yesterday = today - timezone.timedelta(days=1)
    once("closing one day (yesterday)", lambda: closing.day_figures_close(day=yesterday, tz=tz))
    once("closing the other 89 days", lambda: closing.day_figures_close_due(most=100))
    print(f"stored: {DayFigure.objects.count()} figures of {DayClosed.objects.count()} days")
    for days in selectors.PERIODS:
        timed(f"whole dashboard, closed days stored, {days} d", lambda d=days: selectors.dashboard(days=d))
    admin, _ = User.objects.get_or_create(username="dash-admin", defaults={"is_staff": True, "is_superuser": True})
    client = Client()
    client.force_login(admin)
    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    storages = {**settings.STORAGES, "staticfiles": plain}
    with override_settings(STORAGES=storages, ALLOWED_HOSTS=["*"]):
        for days in selectors.PERIODS:
            url = f"/admin/operations/staffaction/dashboard/?days={days}"
            assert client.get(url).status_code == 200
            timed(f"dashboard page over HTTP, {days} d", lambda u=url: client.get(u))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--days", type=int, default=100)
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    import os

    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    ensure_database(url)
    django_setup(url)
    os.environ["DATABASE_URL"] = url
    build(args.hands, args.days, args.tables)
    measure()


if __name__ == "__main__":
    main()
