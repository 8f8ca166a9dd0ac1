"""Hand history export throughput: hands per second streamed from PostgreSQL.

    .venv/bin/python bench/export.py [--hands 100000] [--tables 100] [--verify] [--database NAME]

Creates its own database (``--database``, default ``cardtables_bench_export``; dropped before
and, unless ``--keep``, after) on the server named by DATABASE_URL (default postgres@127.0.0.1:5432), migrates it, and
bulk-inserts (COPY) ``--hands``
realistic hand records: real hands of every game and mode played by the engines (with
auto-play), sealed and hash-chained per table exactly as settlement writes them, with their
seat rows. Then it streams the auditors' export (``history.exports.stream.export_lines``,
the code behind the API, the admin action and ``export_hands``) in each format and prints
hands per second; ``--verify`` also runs ``python -m games verify`` over the JSON Lines.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres"
DATABASE = "cardtables_bench_export"
GAMES = [
    ("thirteen", "", 4), ("thirteen", "", 3), ("thirteen_trio", "", 3), ("samgong", "all_compare", 5),
    ("samgong", "banker_bid", 4), ("samgong", "banker_rotate", 4), ("samgong", "pairwise", 6), ("samgong", "house", 4),
]


def fresh_database(server_url: str, name: str) -> str:
    """Drop and create the bench's own database ``name``; its URL."""
    import psycopg

    parts = urlparse(server_url)
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return parts._replace(path=f"/{name}").geturl()


def drop_database(server_url: str, name: str) -> None:
    import psycopg

    admin = urlparse(server_url)._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def django_setup(url: str) -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ.update(DATABASE_URL=url, DATABASE_POOL="false", LOG_LEVEL="WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


Sample = dict[str, Any]


def play(game: str, mode: str, n: int, rng: random.Random) -> Sample:
    """One hand to settlement: each pending seat plays the engine's own move, some time out."""
    from games.engine.registry import engine_for

    engine, now, seed = engine_for(game), 1_700_000_000.0, rng.randbytes(32).hex()
    rules = {"mode": mode, "base": 100} if game == "samgong" else {}
    stack = 400_000 if game == "thirteen_trio" else 50_000
    state = engine.new_hand(rules=rules, seats=[{"player": str(i), "stack": stack} for i in range(n)], carry=None,
                            server_seed=seed, now=now)
    actions: list[dict[str, Any]] = []
    while engine.result(state) is None:
        seats = [s for s in range(n) if engine.legal_actions(state, s)]
        if seats and rng.random() < 0.85:
            move = engine.auto_action(state, seats[0])
            state, _ = engine.apply(state, seats[0], move, now=now)
            actions.append({"seat": seats[0], "auto": False, "action": move})
        else:
            state, events = engine.on_deadline(state, now=engine.deadline(state))
            actions += [{"seat": e.get("seat"), "auto": True, "action": e} for e in events if e.get("auto")]
    return {"game": game, "mode": mode, "n": n, "seed": seed, "state": state, "result": engine.result(state),
            "actions": actions}


def fixtures(tables: int) -> tuple[list[Any], list[Any]]:
    from accounts.models import User
    from tables.models import StakeLevel, Table

    users = User.objects.bulk_create([User(username=f"bench{i}", display_name=f"Bench {i}") for i in range(60)])
    levels = {(lv.game, lv.mode): lv for lv in StakeLevel.objects.order_by("-unit")}
    made = Table.objects.bulk_create([
        Table(stake_level=levels[GAMES[t % len(GAMES)][:2]], name=f"bench {t}") for t in range(tables)
    ])
    return users, made


def _body(sample: Sample, table: Any, seq: int, prev: str, players: list[Any], at: dt.datetime) -> dict[str, Any]:
    from games.adapters import house_lines
    from games.engine.deck import commitment
    from games.engine.record import record_body

    level, when = table.stake_level, at.isoformat()
    return record_body(
        game=sample["game"], hand={"id": None, "table": table.pk, "table_name": table.name, "number": seq,
                                   "stake_level": level.pk, "stake_level_name": level.name, "mode": level.mode,
                                   "started_at": when, "finished_at": when},
        players=[{"seat": i, "table_seat": i, "user": u.pk, "name": u.display_name} for i, u in enumerate(players)],
        fairness={"commitment": commitment(sample["seed"]), "server_seed": sample["seed"], "client_seeds": []},
        state=sample["state"], result=sample["result"],
        actions=[{**a, "seq": i + 1, "user": None, "at": when} for i, a in enumerate(sample["actions"])],
        house_lines=house_lines(sample["game"], sample["result"]), ledger_transaction=None,
        chain={"seq": seq, "prev": prev},
    )


HAND_COLUMNS = ("id", "table_id", "number", "game", "status", "state", "version", "phase_seq", "deadline", "players",
                "server_seed", "commitment", "client_seeds", "rules", "started_at", "finished_at",
                "ledger_transaction_id", "result")
RECORD_COLUMNS = ("id", "hand_id", "table_id", "stake_level_id", "game", "number", "chain_seq", "prev_hash", "hash",
                  "canonical", "started_at", "finished_at", "ledger_transaction_id", "recorded_at")


def _reserve_ids(sequence: str, count: int) -> list[int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(%s) FROM generate_series(1, %s)", [sequence, count])
        return [row[0] for row in cursor.fetchall()]


def _copy(model: Any, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
    """Bulk insert into ``model``'s table with COPY (Django's multi-row INSERT spends its time
    quoting large texts). Columns the rows leave out get the model field's default, so a column
    added to the model later needs nothing here; one without a default is an error naming it."""
    from django.db import connection
    from django.db.models import JSONField

    extra, values = [], []
    for field in model._meta.concrete_fields:
        if field.column in columns or field.primary_key:
            continue
        if not field.has_default() and not field.null:
            raise SystemExit(f"bench/export.py: {model._meta.db_table}.{field.column} needs a value")
        default = field.get_default() if field.has_default() else None
        extra.append(field.column)
        values.append(json.dumps(default) if isinstance(field, JSONField) and default is not None else default)
    names = ", ".join((*columns, *extra))
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {model._meta.db_table} ({names}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row((*row, *values))


def build(count: int, tables: int, rng: random.Random) -> None:
    """Bulk-insert ``count`` settled hands with their sealed, per-table chained records and seat rows."""
    from games.engine.deck import commitment
    from games.engine.record import GENESIS, seal
    from games.models import Hand
    from history.models import HandRecord, HandRecordSeat

    samples = [play(g, m, n, rng) for g, m, n in GAMES for _ in range(12)]
    users, made = fixtures(tables)
    pool = {(t.stake_level.game, t.stake_level.mode): [s for s in samples if (s["game"], s["mode"]) ==
                                                       (t.stake_level.game, t.stake_level.mode)] for t in made}
    seqs = {t.pk: 0 for t in made}
    last_hash = {t.pk: GENESIS for t in made}
    start, batch = dt.datetime(2026, 1, 1, tzinfo=dt.UTC), 2000
    for first in range(0, count, batch):
        todo = []
        for k in range(first, min(count, first + batch)):
            table = made[k % tables]
            sample = rng.choice(pool[(table.stake_level.game, table.stake_level.mode)])
            players = [users[(k + 7 * i) % len(users)] for i in range(sample["n"])]
            seqs[table.pk] += 1
            seq = seqs[table.pk]
            todo.append((table, seq, sample, players, start + dt.timedelta(seconds=3 * k)))
        hand_ids = _reserve_ids("games_hand_id_seq", len(todo))
        _copy(Hand, HAND_COLUMNS, [
            (hid, t.pk, seq, s["game"], "settled", "{}", 1, 0, None,
             json.dumps([{"user": u.pk, "seat": i, "name": u.display_name} for i, u in enumerate(players)]),
             s["seed"], commitment(s["seed"]), "[]", json.dumps(s["state"]["rules"]), at, at, None,
             json.dumps(s["result"]))
            for hid, (t, seq, s, players, at) in zip(hand_ids, todo, strict=True)
        ])
        ids = _reserve_ids("history_handrecord_id_seq", len(todo))
        rows, seat_rows = [], []
        for record_id, hand_id, (table, seq, sample, players, at) in zip(ids, hand_ids, todo, strict=True):
            prev = last_hash[table.pk]
            body = _body(sample, table, seq, prev, players, at)
            body["hand"]["id"] = hand_id
            canonical, digest = seal(body)
            last_hash[table.pk] = digest
            rows.append((record_id, hand_id, table.pk, table.stake_level_id, sample["game"], seq, seq, prev, digest,
                         canonical, at, at, None, at))
            coins = sample["result"]["coins"]
            seat_rows += [(record_id, u.pk, i, c) for i, (u, c) in enumerate(zip(players, coins, strict=True))]
        _copy(HandRecord, RECORD_COLUMNS, rows)
        _copy(HandRecordSeat, ("record_id", "user_id", "seat", "coins"), seat_rows)
        print(f"\r  inserted {min(count, first + batch):,} hands", end="", flush=True)
    print()


def measure(fmt: str, **filters: Any) -> tuple[int, int, float]:
    from django.db import connection, transaction

    from history.exports.stream import export_lines
    from history.selectors import RecordFilter, hand_record_filter

    started = time.perf_counter()
    lines = size = 0
    with transaction.atomic():  # one server-side cursor, as a streaming response holds it
        for line in export_lines(hand_record_filter(RecordFilter(**filters)), fmt):
            lines += 1
            size += len(line)
    connection.close()
    return lines, size, time.perf_counter() - started


def measure_api() -> tuple[int, int, float]:
    """The auditors' export endpoint end to end (DRF view, StreamingHttpResponse), in process."""
    from django.test import Client
    from django.urls import reverse

    from accounts.models import User
    from accounts.roles import roles_sync

    auditor = User.objects.create_user(username="bench-auditor", is_staff=True)
    auditor.groups.add(roles_sync())
    client = Client()
    client.force_login(auditor)
    started = time.perf_counter()
    response = client.get(reverse("api-history-export"), {"format": "jsonl"})
    lines = size = 0
    for piece in response.streaming_content:
        lines += piece.count(b"\n")
        size += len(piece)
    return lines, size, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--verify", action="store_true", help="also run python -m games verify on the JSON Lines")
    parser.add_argument("--keep", action="store_true", help="keep the bench database afterwards (dropped by default)")
    parser.add_argument("--database", default=DATABASE, help=f"the bench's own database (default {DATABASE})")
    args = parser.parse_args()
    url = fresh_database(os.environ.get("DATABASE_URL", DEFAULT_URL), args.database)
    print(f"database: {url}")
    django_setup(url)
    started = time.perf_counter()
    build(args.hands, args.tables, random.Random(2026))
    print(f"  built in {time.perf_counter() - started:.1f} s")
    from history.models import HandRecord

    hands = HandRecord.objects.count()
    for fmt in ("jsonl", "text", "csv"):
        lines, size, seconds = measure(fmt)
        rate = hands / seconds
        print(f"export {fmt:5}: {hands:,} hands, {size / 1e6:,.1f} MB in {seconds:.2f} s = {rate:,.0f} hands/s")
    player = HandRecord.objects.first().seats.first().user_id  # type: ignore[union-attr]
    lines, size, seconds = measure("jsonl", player=player)
    print(f"export jsonl for one player: {lines:,} hands in {seconds:.2f} s = {lines / seconds:,.0f} hands/s")
    lines, size, seconds = measure_api()
    print(f"GET /api/history/export/ (auditor, streamed): {lines:,} hands in {seconds:.2f} s = "
          f"{lines / seconds:,.0f} hands/s")
    if args.verify:
        verify(hands)
    if not args.keep:
        from django.db import connections

        connections.close_all()
        drop_database(os.environ.get("DATABASE_URL", DEFAULT_URL), args.database)
    return 0


def verify(hands: int) -> None:
    from games.engine.verify import verify_lines
    from history.exports.stream import export_lines
    from history.selectors import RecordFilter, hand_record_filter

    started = time.perf_counter()
    report = verify_lines(export_lines(hand_record_filter(RecordFilter()), "jsonl"))
    seconds = time.perf_counter() - started
    print(f"verify: {report.records:,} records, {len(report.problems)} problems, {hands / seconds:,.0f} hands/s")


if __name__ == "__main__":
    sys.exit(main())
