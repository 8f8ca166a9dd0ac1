"""``python -m games verify --heads``: with the chain heads ``/api/history/chains/`` publishes,
every one of the eight kinds of tampering (docs/HAND_HISTORY.md "verify") fails; three of them
(the latest records dropped, a table left out, a chain rewritten with every hash recomputed)
pass a check of the file alone, which is why the heads are needed."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games.engine import cli
from games.engine.deck import commitment
from games.engine.record import GENESIS, record_hash
from games.engine.verify import heads_parse, verify_lines
from tests.games.engine.test_verify import TABLES, export, fresh, lines

__all__ = ["export"]  # the module's fixture: eight tables of six hands, every game and mode

Records = list[dict[str, Any]]


def heads_of(records: Records) -> list[dict[str, Any]]:
    """The heads the platform publishes for these records: each table's last record."""
    last: dict[int, dict[str, Any]] = {}
    for rec in records:
        last[rec["hand"]["table"]] = rec
    return [{"table": t, "seq": r["chain"]["seq"], "hash": r["hash"], "finished_at": "2026-01-01T01:00:00Z"}
            for t, r in sorted(last.items())]


def rechain(records: Records, table: int) -> None:
    """Recompute the hash and the link of every record of ``table``, as a forger would."""
    prev = GENESIS
    for rec in records:
        if rec["hand"]["table"] == table:
            rec["chain"]["prev"] = prev
            rec["hash"] = prev = record_hash(rec)


def problems(records: Records, heads: list[dict[str, Any]] | None, **kw: Any) -> list[tuple[str, str]]:
    parsed = None if heads is None else heads_parse(json.dumps(heads))
    return [(p.field, p.message) for p in verify_lines(lines(records), heads=parsed, **kw).problems]


def changed_card(records: Records) -> Records:
    seat = records[0]["seats"][0]
    seat["cards"][0], seat["front"][0] = "Zz", "Zz"
    rechain(records, 1)
    return records


def changed_amount(records: Records) -> Records:
    rec = records[len(TABLES)]
    rec["result"]["coins"][0] += 1
    rec["result"]["coins"][1] -= 1
    rechain(records, 1)
    return records


def changed_seed(records: Records) -> Records:
    rec = records[1]
    rec["fairness"]["server_seed"] = "00" * 32
    rec["fairness"]["commitment"] = commitment("00" * 32)
    rechain(records, 2)
    return records


def reordered(records: Records) -> Records:
    records[2], records[2 + len(TABLES)] = records[2 + len(TABLES)], records[2]
    return records


def deleted_in_the_middle(records: Records) -> Records:
    del records[2 * len(TABLES) + 3]
    return records


def latest_dropped(records: Records) -> Records:
    return [r for r in records if not (r["hand"]["table"] == 5 and r["hand"]["number"] >= 5)]


def table_left_out(records: Records) -> Records:
    return [r for r in records if r["hand"]["table"] != 6]


def chain_rewritten(records: Records) -> Records:
    for rec in records:
        if rec["hand"]["table"] == 7 and rec["hand"]["number"] >= 3:
            rec["players"][0]["name"] = "mallory"  # nothing the re-deal or the re-score reads
    rechain(records, 7)
    return records


KINDS: dict[str, Callable[[Records], Records]] = {
    "a changed card": changed_card, "a changed amount": changed_amount, "a changed seed": changed_seed,
    "records reordered": reordered, "a record deleted": deleted_in_the_middle,
    "the latest records dropped": latest_dropped, "a table left out": table_left_out,
    "a chain rewritten": chain_rewritten,
}
NEED_HEADS = {"the latest records dropped", "a table left out", "a chain rewritten"}


def test_a_clean_export_verifies_against_its_heads(export: Records) -> None:
    assert problems(fresh(export), heads_of(export)) == []


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_of_tampering_fails_against_the_published_heads(export: Records, kind: str) -> None:
    tampered = KINDS[kind](fresh(export))
    found = problems(tampered, heads_of(export))
    assert found, f"{kind} passed"
    if kind in NEED_HEADS:
        assert problems(tampered, None) == [], "a file alone cannot show this kind"
        assert all(field == "chain.head" for field, _ in found)


def test_the_messages_say_what_the_heads_show(export: Records) -> None:
    heads = heads_of(export)
    assert any("records 5..6 are missing" in m for _, m in problems(latest_dropped(fresh(export)), heads))
    assert any("no record of this table" in m for _, m in problems(table_left_out(fresh(export)), heads))
    assert any("chain was rewritten" in m for _, m in problems(chain_rewritten(fresh(export)), heads))
    stranger = [h for h in heads if h["table"] != 3]
    assert any("table 3 is not in the published chain heads" in m for _, m in problems(fresh(export), stranger))


def test_a_partial_extract_is_checked_where_it_meets_the_heads(export: Records) -> None:
    heads = heads_of(export)
    early = [r for r in fresh(export) if r["hand"]["number"] <= 3]
    assert problems(early, heads, partial=True) == []
    rewritten = chain_rewritten(fresh(export))
    assert problems([r for r in rewritten if r["hand"]["table"] == 7], heads, partial=True) != []


def test_heads_published_before_later_hands_still_verify(export: Records) -> None:
    """Heads fetched before the export: the later records extend the chain from the head."""
    older = heads_of([r for r in export if r["hand"]["number"] <= 4])
    assert problems(fresh(export), older) == []


def test_the_command_line_takes_the_heads_file(export: Records, tmp_path: Path) -> None:
    data, heads = tmp_path / "hands.jsonl", tmp_path / "chains.json"
    data.write_text("\n".join(lines(latest_dropped(fresh(export)))) + "\n")
    heads.write_text(json.dumps(heads_of(export)))
    out = io.StringIO()
    assert cli.main(["verify", str(data)], stdout=out) == 0
    out = io.StringIO()
    assert cli.main(["verify", str(data), "--heads", str(heads)], stdout=out) == 1
    assert out.getvalue().splitlines()[0].startswith("FAIL line ") and "chain.head" in out.getvalue()
    assert out.getvalue().splitlines()[-1].startswith("FAILED:")


@pytest.mark.parametrize("bad", ["{", "{}", "[1]", '[{"table": 1, "seq": "2", "hash": "x"}]',
                                 '[{"table": 1, "seq": 2, "hash": "x"}, {"table": 1, "seq": 3, "hash": "y"}]'])
def test_unusable_heads_are_a_usage_error_not_a_crash(export: Records, tmp_path: Path, bad: str) -> None:
    data, heads = tmp_path / "hands.jsonl", tmp_path / "chains.json"
    data.write_text("\n".join(lines(export[:8])) + "\n")
    heads.write_text(bad)
    out = io.StringIO()
    assert cli.main(["verify", str(data), "--heads", str(heads)], stdout=out) == 2
    assert out.getvalue().startswith("cannot use the chain heads")
    assert cli.main(["verify", str(data), "--heads", str(tmp_path / "none.json")], stdout=io.StringIO()) == 2
