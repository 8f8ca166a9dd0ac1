"""Settlement at showdown: one idempotent wallet transaction per hand, the hand's record, and
the cash-outs of seats that asked to leave (docs/RULES.md "Money").

Called by the actions with the table and hand rows locked; below it are only the wallet, the
history and the adapters. Scheduling the next deal is the caller's job.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.adapters import carry_after_removal, engine, house_lines, set_running
from games.models import Hand
from games.services.change import TableChange
from games.services.sql import statements
from games.services.store import (
    STATE_FIELDS,
    change_notify,
    hand_save,
    seats_leaving,
    seats_locked_with_money,
    table_save,
    table_seat_gone,
    table_seats_moved,
)
from history.services import hand_record_write, hand_void_seats_write
from integrity.services import hand_grant_flows_record
from kernel import metrics
from kernel.rows import execute
from responsible.selectors import player_barred
from tables.models import Seat, Table
from wallet import services as wallet

log = logging.getLogger(__name__)

#: What the end of a hand writes: its last state and its outcome.
ENDED_FIELDS = (*STATE_FIELDS, "status", "ledger_transaction_id", "finished_at", "result")


def hand_settle(*, change: TableChange, hand: Hand, result: dict[str, Any]) -> None:
    """Post the hand's coins and save it with its outcome (table and hand rows locked by the
    caller, the hand carrying its final state).

    1. One wallet transaction moves every seat's net coins and the house lines; its
       idempotency key is the hand, so a retried settlement posts once.
    2. The hand is marked settled with the transaction id and its record is written; the
       table keeps the engine's carry-over (dealer button, table head, set counter, banker)
       for the next hand.
    3. Seats that asked to leave are cashed out (at a closed table, every seat).
    """
    table = change.table
    deltas, lines = _deltas(hand, result), house_lines(hand.game, result)
    if result.get("void"):
        # A game our own outage interrupted: stakes returned, nothing moves (docs/RULES.md section 2).
        hand.status = Hand.Status.VOIDED
    else:
        tx = wallet.wallet_settle_hand(
            hand_ref=f"hand:{hand.pk}", table_ref=table.wallet_ref, deltas=deltas,
            house=lines, idempotency_key=f"settle:hand:{hand.pk}", memo=f"{table.name} #{hand.number}",
        )
        hand.status = Hand.Status.SETTLED
        hand.ledger_transaction_id = tx.pk
        table_seats_moved(change, deltas)
        hand_grant_flows_record(hand_id=hand.pk, deltas=deltas)
    hand.finished_at = timezone.now()
    hand.result = result
    hand.deadline = None
    hand_save(change, hand, ENDED_FIELDS)
    hand_record_write(hand=hand, house_lines=lines)
    table.carry = {"engine": engine(hand.game).carry_over(hand.state), "players": [p["user"] for p in hand.players]}
    table_save(change, ("carry",))
    _release_leavers(change)
    hand_ended_after_commit(hand)


def hand_ended_after_commit(hand: Hand) -> None:
    """Count and log the hand as settled or voided once its transaction commits (a rolled-back
    settlement counts nothing); one INFO line per hand, the log's record of play."""
    game, status, hand_id, table_id = hand.game, str(hand.status), hand.pk, hand.table_id

    def ended() -> None:
        metrics.hand_ended(game, status)
        log.info("hand %s at table %s %s (%s)", hand_id, table_id, status, game)

    transaction.on_commit(ended, robust=True)


def hand_void_settle(*, change: TableChange, hand: Hand, reason: str) -> None:
    """End a hand the platform voids (table and hand rows locked): nothing has moved, since
    coins move at settlement only, so every stake is where it was; no record joins the hash
    chain, but every dealt-in player gets a voided row in their history (``VoidedHandSeat``),
    the carry-over stays as it was, leavers are cashed out."""
    hand.status = Hand.Status.VOIDED
    hand.finished_at = timezone.now()
    hand.deadline = None
    hand.version += 1
    hand.result = {"void": True, "reason": reason, "coins": [0] * len(hand.players)}
    hand_save(change, hand, ENDED_FIELDS)
    hand_void_seats_write(hand=hand, table=change.table, reason=reason)
    _release_leavers(change)
    hand_ended_after_commit(hand)


def _deltas(hand: Hand, result: dict[str, Any]) -> dict[int, int]:
    """Net coins per user (a user dealt more than one seat nets them)."""
    deltas: dict[int, int] = {}
    for player, amount in zip(hand.players, [int(c) for c in result["coins"]], strict=True):
        deltas[player["user"]] = deltas.get(player["user"], 0) + amount
    return deltas


def _release_leavers(change: TableChange) -> None:
    """Cash out the seats that asked to leave (unless bound to a running set, and then still
    if their player may no longer play), or at a closed table every seat: no hand is dealt
    there again."""
    table = change.table
    if table.status == Table.Status.CLOSED:
        for seat, money in seats_locked_with_money(change):
            seat_remove(change=change, seat=seat, reason="table_closed", money=money)
        return
    if not seats_leaving(change):
        return
    game = change.level.game
    bound = []
    for seat, money in seats_locked_with_money(change):
        if seat.status != Seat.Status.LEAVING:
            continue
        if set_running(game, table.carry, seat.user_id):
            bound.append((seat, money))
        else:
            seat_remove(change=change, seat=seat, reason="left", money=money)
    if bound:
        seats_barred_remove(change, bound)


def seats_barred_remove(change: TableChange, seats: list[tuple[Seat, int]]) -> int:
    """Cash out the seats (as ``store.seats_locked_with_money`` read them under the table's lock,
    with their players' standing: no statement more) whose player may not play now — banned,
    self-excluded or cooling off — each told why; in the trio their set ends there, as for a
    removal for lack of table money. Returns how many were removed."""
    now = timezone.now()
    barred = {seat.user_id: reason for seat, _money in seats if (reason := player_barred(user=seat.user, now=now))}
    if not barred:
        return 0
    for seat, money in seats:
        if seat.user_id in barred:
            seat_remove(change=change, seat=seat, reason=barred[seat.user_id], money=money)
    table = change.table
    if table.carry:
        kept = carry_after_removal(change.level.game, table.carry)
        if kept != table.carry:
            table.carry = kept
            table_save(change, ("carry",))
    return len(barred)


def seat_remove(*, change: TableChange, seat: Seat, reason: str, money: int) -> int:
    """Cash the seat's table money out to the wallet and free the seat (table locked); the
    player is told why after commit. ``money``: the seat's table money as the caller read it
    with the seat (``store.seats_locked_with_money``, ``seat_of_locked_with_money``), under the
    table's lock: no coin of a seat moves without that lock."""
    table = change.table
    table_seat_gone(change, seat.user_id)
    if money > 0:
        wallet.wallet_cash_out(
            user=seat.user, table_ref=table.wallet_ref, amount=None,
            idempotency_key=f"cashout:{table.pk}:{seat.user_id}:{seat.pk}:{table.version}", memo=reason,
        )
    change_notify(change, seat.user_id, {"event": "removed", "reason": reason})
    # One statement: Django's ``Model.delete`` gathers related rows and signals first, a fifth
    # of a leave's CPU, and a seat has neither.
    execute(statements().seat_delete, [seat.pk])
    return money
