"""The house dashboard on a million hands: build them, time every figure, show the plans.

    .venv/bin/python bench/dashboard.py [--hands 1000000] [--days 100] [--tables 200]

Uses DATABASE_URL, or creates (and migrates) the database ``cardtables_dashboard`` on
postgres@127.0.0.1:5432. The hands are written by SQL (``generate_series``), not played: one
settled hand per row of ``games_hand`` with its settlement transaction and three entries (the
winner's table money, the loser's, and the house's commission), spread evenly over ``--days``
days before now at ``--tables`` tables of the thirteen-card stake levels. Triggers are switched
off for the bulk insert only (``session_replication_role = replica``; the rows balance anyway).
Each figure is then timed (best of 3, warm cache) and the heavy queries' plans printed with
``EXPLAIN (ANALYZE, BUFFERS)``.
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
    levels = list(StakeLevel.objects.filter(game="thirteen").order_by("unit"))
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
                   '{}'::jsonb, '', now() - (g * (%(days)s * interval '1 day') / %(n)s)
            FROM generate_series(1, %(n)s) g""", params)
        c.execute("""
            INSERT INTO games_hand (id, table_id, number, game, status, state, version, phase_seq, players,
                                    action_count, leavers, server_seed, commitment, client_seeds, rules, started_at,
                                    finished_at, ledger_transaction_id, result)
            SELECT %(hbase)s + g, (%(tables)s::bigint[])[1 + g %% %(t)s], 1 + g / %(t)s, 'thirteen', 'settled',
                   '{}'::jsonb, 1, 0, '[]'::jsonb, 0, '[]'::jsonb, '', '', '[]'::jsonb, '{}'::jsonb,
                   now() - (g * (%(days)s * interval '1 day') / %(n)s) - interval '1 minute',
                   now() - (g * (%(days)s * interval '1 day') / %(n)s), %(base)s + g, NULL
            FROM generate_series(1, %(n)s) g""", params)
        # Winner +(100·k - c), loser -100·k, house +c, with k and c varying by hand.
        c.execute("""
            INSERT INTO wallet_entry (transaction_id, account_id, house, amount, balance_after)
            SELECT %(base)s + g, (%(seats)s::bigint[])[1 + 2 * (g %% %(t)s)], '', 100 * (1 + g %% 7) - (1 + g %% 5),
                   10^9
            FROM generate_series(1, %(n)s) g
            UNION ALL
            SELECT %(base)s + g, (%(seats)s::bigint[])[2 + 2 * (g %% %(t)s)], '', -100 * (1 + g %% 7), 10^9
            FROM generate_series(1, %(n)s) g
            UNION ALL
            SELECT %(base)s + g, NULL, 'commission', 1 + g %% 5, NULL FROM generate_series(1, %(n)s) g""", params)
        c.execute("SET session_replication_role = DEFAULT")
        for table in ("wallet_ledgertransaction", "games_hand"):
            c.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
    print(f"built {hands} hands, {hands} transactions, {3 * hands} entries in {time.perf_counter() - t0:.1f} s")
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


def explain(sql: str, params: dict[str, object]) -> None:
    from django.db import connection

    with connection.cursor() as c:
        c.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        print("\n".join(row[0] for row in c.fetchall()))


def measure() -> None:
    from django.conf import settings
    from django.test import Client, override_settings
    from django.utils import timezone

    from accounts.models import User
    from operations import selectors

    now = timezone.now()
    for days in selectors.PERIODS:
        since = selectors._day_start(now, days)
        timed(f"commission by day and stake level, {days} d", lambda s=since: selectors.commission_rows(since=s))
        timed(f"paid by the bank, {days} d", lambda s=since: selectors.paid_out(since=s))
    timed("hands per hour, 24 h", lambda: selectors.hands_per_hour(since=now - timezone.timedelta(hours=24)))
    timed("open disputes by age", lambda: selectors.disputes_by_age(now=now))
    for days in selectors.PERIODS:
        timed(f"whole dashboard (every figure), {days} d", lambda d=days: selectors.dashboard(days=d))
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
    since = selectors._day_start(now, 90)
    print("\n-- commission by day and stake level, 90 days")
    explain(selectors._COMMISSION_SQL, {"tz": "UTC", "since": since})
    print("\n-- hands per hour, 24 hours")
    explain(selectors._HOURLY_SQL, {"since": now - timezone.timedelta(hours=24)})


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
