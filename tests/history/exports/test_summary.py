"""The CSV summary carries, for every game and mode, each seat's commission and penalty and the
hand's house result and lines, as integers in every row; the text form carries them too."""

from __future__ import annotations

import csv
import io
import tomllib
from typing import Any

import pytest
from django.core.management import call_command

from history.exports.summary import HEADER, HOUSE_LINES
from history.models import HandRecord
from tests.history.conftest import CASES

pytestmark = pytest.mark.django_db

#: The summary's first columns, in a fixed order: readers that take them by position keep working.
FIRST_COLUMNS = (
    "hand_id", "finished_at", "game", "mode", "stake_level", "table", "table_name", "hand_number", "seat",
    "table_seat", "user_id", "player", "stack", "units", "coins", "commission", "penalty", "fouled", "auto",
    "ledger_transaction", "hash",
)
MONEY = ("commission", "penalty", "house", *(f"house_{line}" for line in HOUSE_LINES))


@pytest.fixture
def played(live: Any) -> dict[str, HandRecord]:
    """Hands of every game and mode; the trio's players drop often enough for a leaver penalty."""
    for game, mode, players in CASES:
        table = live(game, mode, players, seed=5)
        table.disconnects = 0.3 if game == "thirteen_trio" else 0.0
        table.play(4 if game == "thirteen_trio" or mode == "house" else 2)
    return {str(r.hand_id): r for r in HandRecord.objects.all()}


def export(fmt: str) -> str:
    out = io.StringIO()
    call_command("export_hands", "--format", fmt, stdout=out)
    return out.getvalue()


def test_every_row_of_every_game_and_mode_has_its_commission_penalty_and_house(played: dict[str, HandRecord]) -> None:
    rows = list(csv.DictReader(io.StringIO(export("csv"))))
    assert tuple(rows[0]) == HEADER and HEADER[:len(FIRST_COLUMNS)] == FIRST_COLUMNS
    by_hand: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        assert all(row[column].lstrip("-").isdigit() for column in MONEY), row
        by_hand.setdefault(row["hand_id"], []).append(row)
    seen = {(r.body["game"], r.body.get("mode", "")) for r in played.values()}
    assert seen == {(game, mode) for game, mode, _ in CASES}
    for hand_id, mine in by_hand.items():
        result, lines = played[hand_id].body["result"], played[hand_id].body["house_lines"]
        assert sum(int(r["commission"]) for r in mine) == result["commission"] == lines.get("commission", 0)
        assert sum(int(r["penalty"]) for r in mine) + lines.get("penalty", 0) == 0
        for row in mine:
            assert int(row["house"]) == result["house"] == sum(lines.values())
            assert {line: int(row[f"house_{line}"]) for line in HOUSE_LINES if int(row[f"house_{line}"])} == lines
    trio = [r for r in rows if r["game"] == "thirteen_trio"]
    assert any(int(r["commission"]) > 0 for r in trio), "a trio winner's commission is in its row"
    assert any(int(r["penalty"]) < 0 for r in trio), "a trio leaver's penalty is in its row"
    assert any(int(r["house_banker"]) for r in rows if r["mode"] == "house")


def test_the_text_form_names_each_seats_commission_and_penalty_and_the_house_lines(
        played: dict[str, HandRecord]) -> None:
    for hand_id, hand in tomllib.loads(export("text")).items():
        body = played[hand_id].body
        result, lines = body["result"], body["house_lines"]
        assert len(hand["_commissions"]) == len(hand["_penalties"]) == len(body["players"])
        assert sum(hand["_commissions"]) == hand["_commission"] == result["commission"]
        assert hand["_penalties"] == ((result.get("penalty") or {}).get("coins") or [0] * len(body["players"]))
        assert hand["_house"] == lines and sum(hand["_coins"]) + sum(lines.values()) == 0
