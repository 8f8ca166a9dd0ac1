"""Settlement at showdown: one idempotent wallet transaction per hand (RULES.md "Money")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.adapters import engine
from games.models import Hand
from history.services import hand_record_write
from tables.models import Seat, Table
from wallet import services as wallet


def house_lines(game: str, result: dict[str, Any]) -> dict[str, int]:
    """The house's side of a settlement: commission, and the rest as its own line — the
    trio's penalty cut, or a house-banked table's result — so ``sum(coins) + sum(lines) == 0``."""
    commission = int(result.get("commission", 0))
    rest = int(result["house"]) - commission
    lines = {"commission": commission, ("penalty" if game == "thirteen_trio" else "banker"): rest}
    return {k: v for k, v in lines.items() if v}


def hand_settle(*, table: Table, hand: Hand, result: dict[str, Any]) -> None:
    """Post the hand's coins (table and hand rows locked by the caller).

    1. One wallet transaction moves every seat's net coins and the house lines; its
       idempotency key is the hand, so a retried settlement posts once.
    2. The hand is marked settled with the transaction id; the table keeps the engine's
       carry-over (dealer button, table head, set counter, banker) for the next hand.
    3. Seats that asked to leave are cashed out; the next deal is scheduled after commit.
    """
    coins = [int(c) for c in result["coins"]]
    deltas: dict[int, int] = {}
    for player, amount in zip(hand.players, coins, strict=True):
        deltas[player["user"]] = deltas.get(player["user"], 0) + amount
    if result.get("void"):
        # A game our own outage interrupted: stakes returned, nothing moves (RULES.md section 2).
        hand.status = Hand.Status.VOIDED
    else:
        tx = wallet.wallet_settle_hand(
            hand_ref=f"hand:{hand.pk}", table_ref=table.wallet_ref, deltas=deltas,
            house=house_lines(hand.game, result), idempotency_key=f"settle:hand:{hand.pk}",
            memo=f"{table.name} #{hand.number}",
        )
        hand.status = Hand.Status.SETTLED
        hand.ledger_transaction_id = tx.pk
    hand.finished_at = timezone.now()
    hand.result = result
    hand.deadline = None
    hand.save()
    hand_record_write(hand=hand)
    table.carry = {"engine": engine(hand.game).carry_over(hand.state), "players": [p["user"] for p in hand.players]}
    table.save(update_fields=["carry"])
    _release_leavers(table)
    table_id = table.pk
    transaction.on_commit(lambda: _next_hand(table_id))


def _release_leavers(table: Table) -> None:
    from games.services.seating import seat_remove, trio_set_running

    for seat in Seat.objects.select_for_update().filter(table=table, status=Seat.Status.LEAVING):
        if not trio_set_running(table, seat.user_id):
            seat_remove(table=table, seat=seat, reason="left")


def _next_hand(table_id: int) -> None:
    from games.services.hands import schedule_start

    schedule_start(table_id, settings.GAMES_NEXT_HAND_DELAY)
