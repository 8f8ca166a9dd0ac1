"""What settling one hand costs the server: CPU time and SQL statements of the hand's ledger
posting (``wallet.services.wallet_settle_hand``) and of its record (``history.services.hand_record_write``),
on PostgreSQL (bench/README.md "Settling a hand").

    DATABASE_URL=postgres://... .venv/bin/python bench/settle_cost.py [--hands 300] [--seats 2,4]
        [--game thirteen] [--mode ""] [--rounds 3]

One table per seat count, its players funded and seated through the live services. Each hand is
dealt and played to its end through ``games.services`` (``hand_start_if_ready``, then
``hand_act`` with the engine's suggested move for each seat), so the settlement runs where it
runs in production: inside the action's transaction, the table and hand rows locked, after the
engine's real final state and result. The two calls are wrapped where the settlement makes
them; the clock (``time.process_time``: this process's CPU, the database's own work not
included) runs only inside each call. Statements are counted in a separate pass, with Django's
``CaptureQueriesContext`` (its recording would otherwise be timed too): all of them (round
trips), and without transaction control (BEGIN, COMMIT, SAVEPOINT, RELEASE), as
tests/games/live/test_query_budget.py counts them.

Each round plays ``--hands`` hands per table; the figures are medians of the calls, and the
median of the rounds' medians is printed last. Broadcasts are switched off (nothing is
listening) and the next deal is not scheduled: they are outside both calls.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CONTROL = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\b", re.I)


def django_setup() -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DATABASE_POOL", "false")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()


def seated_table(game: str, mode: str, seats: int, run: str) -> tuple[Any, dict[int, Any]]:
    """A new table of the game's cheapest stake level with ``seats`` funded players seated."""
    from accounts.models import User
    from games.protocol import Message
    from games.services import commands
    from tables.models import StakeLevel, Table
    from wallet import services as wallet

    level = StakeLevel.objects.filter(game=game, mode=mode).order_by("unit").first()
    assert level is not None, f"no stake level for {game} {mode!r}"
    table = Table.objects.create(stake_level=level, name=f"settle bench {run} {seats}")
    users = {}
    for i in range(seats):
        user = User.objects.create_user(username=f"settle{run}-{seats}-{i}", password=None)
        wallet.wallet_grant(user=user, amount=10**12, idempotency_key=f"bench-settle:{run}:{seats}:{i}", actor=None)
        commands.dispatch(table.pk, user, Message(type="join", id=uuid.uuid4().hex,
                                                  data={"buy_in": level.min_buy_in * 1000}))
        users[user.pk] = user
    return Table.objects.select_related("stake_level").get(pk=table.pk), users


def play_hand(table_id: int, users: dict[int, Any]) -> None:
    """Deal a hand and play it to its end with the engine's suggested moves."""
    from games.adapters import engine
    from games.models import Hand
    from games.services.hands import hand_act, hand_start_if_ready

    hand = hand_start_if_ready(table_id=table_id)
    assert hand is not None, "no hand dealt"
    eng = engine(hand.game)
    for _ in range(100):
        seat = next(s for s in range(len(hand.players)) if eng.legal_actions(hand.state, s))
        user = users[hand.players[seat]["user"]]
        hand_act(table_id=table_id, user=user, action=dict(eng.auto_action(hand.state, seat)),
                 client_id=uuid.uuid4().hex)
        hand = Hand.objects.get(pk=hand.pk)
        if hand.status != Hand.Status.ACTIVE:
            return
    raise AssertionError("the hand did not end")


class Meter:
    """Wraps the two calls where the settlement makes them; records CPU µs or statements."""

    def __init__(self) -> None:
        from games.services import settlement
        from history import services as history
        from wallet import services as wallet

        self.settlement, self.wallet = settlement, wallet
        self.settle, self.record = wallet.wallet_settle_hand, history.hand_record_write
        self.count = False  # statements instead of CPU
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.statements: dict[str, set[tuple[int, int]]] = defaultdict(set)
        self.seats = 0

    def install(self) -> None:
        self.wallet.wallet_settle_hand = self._wrap("settle", self.settle)
        self.settlement.hand_record_write = self._wrap("record", self.record)

    def _wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(**kwargs: Any) -> Any:
            label = f"{name} {self.seats} seats"
            if self.count:
                from django.db import connection
                from django.test.utils import CaptureQueriesContext

                with CaptureQueriesContext(connection) as ctx:
                    result = fn(**kwargs)
                sql = [q["sql"] for q in ctx.captured_queries]
                self.statements[label].add((len(sql), len([s for s in sql if not CONTROL.match(s)])))
                return result
            started = time.process_time()
            result = fn(**kwargs)
            self.cpu[label].append((time.process_time() - started) * 1e6)
            return result

        return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=300, help="hands per table and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seats", default="2,4")
    parser.add_argument("--game", default="thirteen")
    parser.add_argument("--mode", default="")
    o = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("DATABASE_URL must name a PostgreSQL database")
    django_setup()
    from django.core.management import call_command
    from django.db import connection

    from games import broadcast
    from games.services import hands
    from kernel.gc_tuning import gc_tune

    call_command("migrate", verbosity=0)
    gc_tune()  # as the servers do
    broadcast.group_send = lambda *pairs, **kw: True  # nothing listens here
    hands.hand_start_after_commit = lambda *args, **kw: None  # this script deals the next hand itself
    run = f"{int(time.time() * 1000)}"
    seat_counts = [int(s) for s in o.seats.split(",")]
    tables = {n: seated_table(o.game, o.mode, n, run) for n in seat_counts}
    meter = Meter()
    meter.install()
    rounds: dict[str, list[float]] = defaultdict(list)
    for n, (table, users) in tables.items():  # warm up, and count the statements
        meter.seats = n
        for _ in range(5):
            play_hand(table.pk, users)
        meter.count = True
        for _ in range(5):
            play_hand(table.pk, users)
        meter.count = False
    for r in range(o.rounds):
        meter.cpu.clear()
        for n, (table, users) in tables.items():
            meter.seats = n
            for _ in range(o.hands):
                play_hand(table.pk, users)
        medians = "  ".join(f"{label} {statistics.median(v):.0f}" for label, v in sorted(meter.cpu.items()))
        print(f"round {r + 1}: {medians}", flush=True)
        for label, values in meter.cpu.items():
            rounds[label].append(statistics.median(values))
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = cursor.fetchone()[0]
    print(f"\n{o.game} {o.mode}, PostgreSQL {version}, {o.rounds} rounds of {o.hands} hands per table, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'call':<24} {'CPU µs (median of rounds)':>26} {'rounds':>22} {'statements':>11} {'without control':>16}")
    for label in sorted(rounds):
        counts = sorted(meter.statements[label])
        total = "/".join(str(c[0]) for c in counts)
        work = "/".join(str(c[1]) for c in counts)
        each = ", ".join(f"{v:.0f}" for v in rounds[label])
        print(f"{label:<24} {statistics.median(rounds[label]):>26.0f} {each:>22} {total:>11} {work:>16}")


if __name__ == "__main__":
    main()
