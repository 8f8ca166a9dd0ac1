"""The CSV summary of hand records: one row per seat per hand (docs/HAND_HISTORY.md). Pure Python."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

HEADER = (
    "hand_id", "finished_at", "game", "mode", "stake_level", "table", "table_name", "hand_number", "seat",
    "table_seat", "user_id", "player", "stack", "units", "coins", "commission", "penalty", "fouled", "auto",
    "ledger_transaction", "hash",
)


def _at(values: Any, i: int) -> Any:
    return values[i] if isinstance(values, list) and i < len(values) else ""


def summary_rows(rec: Mapping[str, Any]) -> list[list[Any]]:
    """The CSV rows of one record; ``commission`` is the seat's own share where the game
    reports it per seat (blank otherwise; the hand's total is in the JSON record)."""
    hand, result = rec["hand"], rec["result"]
    penalty = (result.get("penalty") or {}).get("coins")
    auto = {a.get("seat") for a in rec.get("actions", []) if a.get("auto")}
    rows = []
    for i, player in enumerate(rec["players"]):
        rows.append([
            hand.get("id"), hand.get("finished_at"), rec["game"], rec.get("mode", ""), hand.get("stake_level_name", ""),
            hand.get("table"), hand.get("table_name", ""), hand.get("number"), i, player["table_seat"], player["user"],
            player["name"], _at(rec.get("stacks"), i), _at(result.get("units"), i), result["coins"][i],
            _at(result.get("commissions"), i), _at(penalty, i), _at(result.get("fouled"), i), i in auto,
            rec.get("ledger_transaction"), rec.get("hash", ""),
        ])
    return rows


def csv_text(rows: Sequence[Sequence[Any]]) -> str:
    """Rows as CSV text (RFC 4180, CRLF line ends)."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()
