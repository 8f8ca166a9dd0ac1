"""The crash-recovery checks of a chaos run (bench/README.md "Chaos"), as queries over what the
run left in the database. Each returns the problems it found (empty: the check holds).

- **settled once**: one settlement transaction per hand (by its reference and idempotency key),
  and it is the one the settled hand points to;
- **one record**: every settled or voided hand has its hand record (one the watchdog voided as
  stuck has its repair row instead), and no hand in play has one;
- **all ended**: no hand is left in play (after the final quiet period, in which the sweeper runs);
- **voided returned stakes**: a voided hand moved no coins (no settlement transaction, every
  seat's coins 0);
- **cashed out**: once every bot has left, no seat and no table money is left at the tables.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db import connection
from django.db.models import Count, Q

from games.models import Hand, Repair
from history.models import HandRecord
from tables.models import Seat
from wallet.models import Account, AccountKind, LedgerTransaction, TransactionKind

SWEEPER_CLOCK = "sweeper"  # the name of the sweeper's row in games_clock


def settled_once() -> list[str]:
    problems = []
    settlements = LedgerTransaction.objects.filter(kind=TransactionKind.SETTLEMENT)
    for row in settlements.values("reference").annotate(n=Count("id")).filter(n__gt=1):
        problems.append(f"{row['reference']}: {row['n']} settlement transactions")
    by_ref = dict(settlements.values_list("reference", "id"))
    keys = dict(settlements.values_list("id", "idempotency_key"))
    for hand_id, tx_id in Hand.objects.filter(status=Hand.Status.SETTLED).values_list("pk", "ledger_transaction_id"):
        if by_ref.get(f"hand:{hand_id}") != tx_id or keys.get(tx_id or 0) != f"settle:hand:{hand_id}":
            problems.append(f"hand {hand_id}: settled with transaction {tx_id}, "
                            f"its settlement is {by_ref.get(f'hand:{hand_id}')}")
    return problems


def one_record() -> list[str]:
    ended = Hand.objects.filter(status__in=[Hand.Status.SETTLED, Hand.Status.VOIDED])
    # a hand the watchdog voided because it could not advance has its repair row instead
    stuck = Repair.objects.filter(kind=Repair.Kind.STUCK_HAND).values("hand_id")
    missing = list(ended.filter(record__isnull=True).exclude(pk__in=stuck).values_list("pk", flat=True))
    early = list(HandRecord.objects.filter(hand__status=Hand.Status.ACTIVE).values_list("hand_id", flat=True))
    return [f"hand {h}: ended without a record" for h in missing] + [f"hand {h}: in play with a record" for h in early]


def all_ended() -> list[str]:
    return [f"hand {pk} (table {table}, phase {phase_seq}): still in play, deadline {deadline}"
            for pk, table, phase_seq, deadline in Hand.objects.filter(status=Hand.Status.ACTIVE)
            .values_list("pk", "table_id", "phase_seq", "deadline")]


def voided_returned_stakes() -> list[str]:
    problems = []
    voided = Hand.objects.filter(status=Hand.Status.VOIDED)
    refs = {f"hand:{pk}" for pk in voided.values_list("pk", flat=True)}
    moved = set(LedgerTransaction.objects.filter(reference__in=refs).values_list("reference", flat=True))
    for hand in voided.only("pk", "ledger_transaction_id", "result"):
        coins = [int(c) for c in (hand.result or {}).get("coins", [])]
        if f"hand:{hand.pk}" in moved or hand.ledger_transaction_id is not None or any(coins):
            problems.append(f"hand {hand.pk}: voided but coins moved ({coins}, "
                            f"transaction {hand.ledger_transaction_id})")
    return problems


def cashed_out() -> list[str]:
    seats = list(Seat.objects.values_list("table_id", "user_id", "status"))
    money = Account.objects.filter(kind=AccountKind.TABLE).filter(~Q(balance=0))
    return [f"table {t}: user {u} still seated ({s})" for t, u, s in seats] + [
        f"table money {a.table_ref} of user {a.user_id}: {a.balance}" for a in money
    ]


CHECKS: dict[str, Callable[[], list[str]]] = {
    "no hand settled twice": settled_once,
    "every ended hand has its record": one_record,
    "every hand ended settled or voided": all_ended,
    "voided hands returned stakes": voided_returned_stakes,
    "every leaver cashed out": cashed_out,
}


def counts_text(counts: dict[str, int]) -> str:
    """``kind n, kind n`` in the kinds' order, or ``none``."""
    return ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())) or "none"


def repairs_by_kind(**where: object) -> dict[str, int]:
    """The liveness watchdog's repairs by kind (docs/ARCHITECTURE.md "Liveness"), of the rows
    ``where`` selects."""
    return dict(Repair.objects.filter(**where).values_list("kind").annotate(n=Count("id")))


def repairs_line() -> str:
    return "watchdog repairs: " + counts_text(repairs_by_kind())


def sweeper_last_tick() -> datetime | None:
    """When the sweeper last ran, by its clock row (the row the sweeper writes each tick)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT last_tick FROM games_clock WHERE name = %s", [SWEEPER_CLOCK])
        row = cursor.fetchone()
    return row[0] if row else None


def checks_run() -> dict[str, list[str]]:
    return {name: check() for name, check in CHECKS.items()}
