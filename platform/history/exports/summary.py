"""The CSV summary of hand records: one row per seat per hand (docs/HAND_HISTORY.md). Pure Python
(the game's engine package reports each seat's commission)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.registry import engine_for

#: The house's ledger lines a hand may post (games/engine/protocol.py ``house_lines``), one CSV
#: column each: the commission, the trio's share of a leaver penalty, a house-banked 三公 table's result.
HOUSE_LINES = ("commission", "penalty", "banker")

HEADER = (
    "hand_id", "finished_at", "game", "mode", "stake_level", "table", "table_name", "hand_number", "seat",
    "table_seat", "user_id", "player", "stack", "units", "coins", "commission", "penalty", "fouled", "auto",
    "ledger_transaction", "hash", "house", *(f"house_{line}" for line in HOUSE_LINES),
)


def _at(values: Any, i: int) -> Any:
    return values[i] if isinstance(values, list) and i < len(values) else ""


def seat_penalties(rec: Mapping[str, Any]) -> list[int]:
    """What each seat paid (negative) or was paid out of a leaver penalty (the trio's rule); 0 in
    a hand without one."""
    result = rec["result"]
    return list((result.get("penalty") or {}).get("coins") or [0] * len(result["coins"]))


def summary_rows(rec: Mapping[str, Any]) -> list[list[Any]]:
    """The CSV rows of one record. Money columns are integers in every row: the seat's
    ``commission`` (the game's ``seat_commissions``) and ``penalty``, and the hand's ``house``
    result with its ledger lines (0 where the hand has none)."""
    hand, result = rec["hand"], rec["result"]
    commissions, penalties = engine_for(rec["game"]).seat_commissions(rec), seat_penalties(rec)
    lines = rec.get("house_lines") or {}
    house = [result.get("house", 0), *(lines.get(line, 0) for line in HOUSE_LINES)]
    auto = {a.get("seat") for a in rec.get("actions", []) if a.get("auto")}
    rows = []
    for i, player in enumerate(rec["players"]):
        rows.append([
            hand.get("id"), hand.get("finished_at"), rec["game"], rec.get("mode", ""), hand.get("stake_level_name", ""),
            hand.get("table"), hand.get("table_name", ""), hand.get("number"), i, player["table_seat"], player["user"],
            player["name"], _at(rec.get("stacks"), i), _at(result.get("units"), i), result["coins"][i],
            commissions[i], penalties[i], _at(result.get("fouled"), i), i in auto,
            rec.get("ledger_transaction"), rec.get("hash", ""), *house,
        ])
    return rows


def csv_text(rows: Sequence[Sequence[Any]]) -> str:
    """Rows as CSV text (RFC 4180, CRLF line ends)."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()
