"""The crash-recovery checks of a chaos run (bench/README.md "Chaos"), as read-only SQL over what
the run left in the database (bench/harness/facts.py). Each returns the problems it found
(empty: the check holds).

- **settled once**: one settlement transaction per hand (by its reference and idempotency key),
  and it is the one the settled hand points to;
- **one record**: every settled or voided hand has its hand record (one the watchdog voided as
  stuck has its repair row instead), and no hand in play has one;
- **all ended**: no hand is left in play (after the final quiet period, in which the sweeper runs);
- **voided returned stakes**: a voided hand moved no coins (no settlement transaction, every
  seat's coins 0);
- **cashed out**: once every bot has left, no seat and no table money is left at the tables;
- **rooms settled**: every private room dealt and settled hands, each settled once into its own
  table money and the house (entries summing to zero), as at a public table;
- **watchers saw no hidden card**: no state frame a watcher received showed a seat's cards before
  that seat revealed them or the hand settled (:func:`watcher_frame_problems`, on every frame).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from bench.harness.facts import ACTIVE, SETTLED, VOIDED, in_list, json_value, rows, when

SETTLEMENT = "settlement"  # wallet_ledgertransaction.kind of a hand's settlement
TABLE_MONEY = "table"  # wallet_account.kind of a seat's table money
STUCK_HAND = "stuck_hand"  # games_repair.kind of a hand the watchdog voided as stuck
SWEEPER_CLOCK = "sweeper"  # games_clock.name of the sweeper's row


def settled_once() -> list[str]:
    problems = [f"{ref}: {n} settlement transactions" for ref, n in rows(
        "SELECT reference, COUNT(*) FROM wallet_ledgertransaction WHERE kind = %s GROUP BY reference "
        "HAVING COUNT(*) > 1", [SETTLEMENT])]
    settlements = rows("SELECT id, reference, idempotency_key FROM wallet_ledgertransaction WHERE kind = %s",
                       [SETTLEMENT])
    by_ref = {ref: tx for tx, ref, _key in settlements}
    keys = {tx: key for tx, _ref, key in settlements}
    for hand_id, tx_id in rows("SELECT id, ledger_transaction_id FROM games_hand WHERE status = %s", [SETTLED]):
        if by_ref.get(f"hand:{hand_id}") != tx_id or keys.get(tx_id or 0) != f"settle:hand:{hand_id}":
            problems.append(f"hand {hand_id}: settled with transaction {tx_id}, "
                            f"its settlement is {by_ref.get(f'hand:{hand_id}')}")
    return problems


def one_record() -> list[str]:
    # a hand the watchdog voided because it could not advance has its repair row instead
    missing = rows(
        "SELECT h.id FROM games_hand h WHERE h.status IN (%s, %s) "
        "AND NOT EXISTS (SELECT 1 FROM history_handrecord r WHERE r.hand_id = h.id) "
        "AND NOT EXISTS (SELECT 1 FROM games_repair p WHERE p.hand_id = h.id AND p.kind = %s) ORDER BY h.id",
        [SETTLED, VOIDED, STUCK_HAND])
    early = rows("SELECT r.hand_id FROM history_handrecord r JOIN games_hand h ON h.id = r.hand_id "
                 "WHERE h.status = %s ORDER BY r.hand_id", [ACTIVE])
    return ([f"hand {h}: ended without a record" for (h,) in missing]
            + [f"hand {h}: in play with a record" for (h,) in early])


def all_ended() -> list[str]:
    return [f"hand {pk} (table {table}, phase {phase_seq}): still in play, deadline {deadline}"
            for pk, table, phase_seq, deadline in rows(
                "SELECT id, table_id, phase_seq, deadline FROM games_hand WHERE status = %s ORDER BY id", [ACTIVE])]


def _coins(result: Any) -> list[int]:
    """The per-seat coins of a hand's result."""
    return [int(c) for c in (json_value(result) or {}).get("coins", [])]


def voided_returned_stakes() -> list[str]:
    problems = []
    moved = {ref for (ref,) in rows(
        "SELECT t.reference FROM wallet_ledgertransaction t JOIN games_hand h ON t.reference = 'hand:' || h.id "
        "WHERE h.status = %s", [VOIDED])}
    for pk, tx_id, result in rows(
            "SELECT id, ledger_transaction_id, result FROM games_hand WHERE status = %s ORDER BY id", [VOIDED]):
        coins = _coins(result)
        if f"hand:{pk}" in moved or tx_id is not None or any(coins):
            problems.append(f"hand {pk}: voided but coins moved ({coins}, transaction {tx_id})")
    return problems


def cashed_out() -> list[str]:
    seats = rows("SELECT table_id, user_id, status FROM tables_seat ORDER BY table_id, id")
    money = rows("SELECT table_ref, user_id, balance FROM wallet_account WHERE kind = %s AND balance <> 0 "
                 "ORDER BY id", [TABLE_MONEY])
    return [f"table {t}: user {u} still seated ({s})" for t, u, s in seats] + [
        f"table money {ref} of user {u}: {balance}" for ref, u, balance in money
    ]


CHECKS: dict[str, Callable[[], list[str]]] = {
    "no hand settled twice": settled_once,
    "every ended hand has its record": one_record,
    "every hand ended settled or voided": all_ended,
    "voided hands returned stakes": voided_returned_stakes,
    "every leaver cashed out": cashed_out,
}


def rooms_settled(room_ids: Sequence[int]) -> list[str]:
    """Each room settled hands, and each settlement moved coins between its own table money and
    the house only, balanced."""
    if not room_ids:
        return []
    ids = list(room_ids)
    settled = dict(rows(f"SELECT table_id, COUNT(*) FROM games_hand WHERE status = %s AND table_id IN {in_list(ids)} "
                        "GROUP BY table_id", [SETTLED, *ids]))
    problems = [f"room {pk}: no hand settled" for pk in ids if not settled.get(pk)]
    for hand_id, table_id, total, foreign in rows(
            "SELECT h.id, h.table_id, COALESCE(SUM(e.amount), 0), "
            "COUNT(*) FILTER (WHERE e.account_id IS NOT NULL AND a.table_ref <> 'table:' || h.table_id) "
            "FROM games_hand h JOIN wallet_ledgertransaction t ON t.id = h.ledger_transaction_id "
            "JOIN wallet_entry e ON e.transaction_id = t.id LEFT JOIN wallet_account a ON a.id = e.account_id "
            f"WHERE h.status = %s AND h.table_id IN {in_list(ids)} GROUP BY h.id, h.table_id ORDER BY h.id",
            [SETTLED, *ids]):
        if total or foreign:
            problems.append(f"room {table_id}, hand {hand_id}: entries sum to {total}, {foreign} outside its table")
    return problems


#: The cards of each seat dealt face up, by mode (三公's banker bid, docs/RULES.md): the most of a
#: seat's cards anyone else sees before the seat reveals them; none in every other game and mode.
FACE_UP = {"banker_bid": 2}


def watcher_frame_problems(frame: dict[str, Any]) -> list[str]:
    """What a state frame sent to a watcher (a connection without a seat) shows that it must not:
    a seat of its own, or a seat's cards or arrangement before that seat revealed them or the
    hand settled."""
    hand = frame.get("hand") or {}
    where = f"table {frame.get('table')} v{frame.get('version')}"
    problems = [f"{where}: a watcher shown as seated"] if frame.get("you") is not None or hand.get("seat") is not None \
        else []
    view = hand.get("view") or {}
    if not hand or view.get("phase") == "settled":
        return problems
    if view.get("you") is not None or view.get("legal_actions"):
        problems.append(f"{where}: hand {hand.get('id')} gives the watcher a seat's moves")
    face_up = FACE_UP.get(str(frame.get("mode")), 0)
    for i, seat in enumerate(view.get("seats") or []):
        cards = seat.get("cards")
        shown = [c for c in cards if c is not None] if isinstance(cards, list) else ([cards] if cards else [])
        if seat.get("submission") is not None or seat.get("rows") is not None or (
                not seat.get("revealed") and len(shown) > face_up):
            problems.append(f"{where}: hand {hand.get('id')} phase {view.get('phase')} shows seat {i}'s cards "
                            f"to a watcher: {cards} {seat.get('submission') or seat.get('rows') or ''}")
    return problems


def counts_text(counts: dict[str, int]) -> str:
    """``kind n, kind n`` in the kinds' order, or ``none``."""
    return ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())) or "none"


def repairs_by_kind(table_ids: Sequence[int] | None = None) -> dict[str, int]:
    """The liveness watchdog's repairs by kind (docs/ARCHITECTURE.md "Liveness"), at the tables
    ``table_ids`` (every table: None)."""
    if table_ids is None:
        return dict(rows("SELECT kind, COUNT(*) FROM games_repair GROUP BY kind"))
    return dict(rows(f"SELECT kind, COUNT(*) FROM games_repair WHERE table_id IN {in_list(table_ids)} "
                     "GROUP BY kind", list(table_ids)))


def repairs_line() -> str:
    return "watchdog repairs: " + counts_text(repairs_by_kind())


def sweeper_last_tick() -> datetime | None:
    """When the sweeper last ran, by its clock row (the row the sweeper writes each tick)."""
    found = rows("SELECT last_tick FROM games_clock WHERE name = %s", [SWEEPER_CLOCK])
    return when(found[0][0]) if found else None


def checks_run() -> dict[str, list[str]]:
    return {name: check() for name, check in CHECKS.items()}
