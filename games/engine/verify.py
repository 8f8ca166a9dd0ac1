"""``python -m games verify FILE``: check exported hand records (docs/HAND_HISTORY.md).

For every JSON line of a ``cardtables.hand/1`` export this re-does what the platform did,
from nothing but the line and the engines (no Django, no database):

1. ``hash``: SHA-256 of the line's canonical JSON without ``hash`` and ``view``, and
   ``rule_set``: the id of the recorded rules (:func:`games.engine.record.rule_set_id`);
2. ``fairness.commitment``: SHA-256 of the revealed server seed (docs/FAIRNESS.md);
3. the deal: the seed's deck dealt as the game deals it must give every seat's recorded
   cards (and the trio's jackpot card and first seat, 三公's table hands);
4. the score: the game's ``score_request`` on the recorded arrangements / bets must give
   the recorded units, coins and commission (the trio's disconnection penalty re-derived).
   3 and 4 are the game's own ``check_deal`` / ``check_score`` (its ``record`` module,
   found through :func:`games.engine.registry.engine_for`);
5. zero sum: ``sum(result.coins) + result.house == 0``, and the house lines add up to
   ``result.house`` with the commission line equal to ``result.commission``;
6. the chain, per table, in file order: ``chain.seq`` counts up by one from 1 and every
   ``chain.prev`` is the hash of the record before it. ``--partial`` (a filtered extract)
   accepts gaps and chains that start later; a player's copy (it has ``view``) is partial.

7. with the published chain heads (``--heads``, the JSON ``GET /api/history/chains/`` returns:
   each table's last record, ``seq`` and ``hash``): every table of the heads is in the file,
   its record at the head's ``seq`` has the head's hash, and (unless ``--partial``) the file
   reaches the head; a table the heads do not know is a failure. A file alone cannot show that
   its latest records were dropped, that a whole table was left out, or that a table's chain was
   rewritten from some record on with every later hash recomputed; the heads show all three.

A player's copy of a trio hand hides the opponents' unused cards and the seed
(``view.redacted``): its hash, commitment and deal cannot be checked, so only 4 and 5 run.
Every failure names the line, the hand and the field; the exit status is 0 when every
check passed, 1 when any failed, 2 when the file cannot be read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from games.engine.deck import commitment
from games.engine.errors import EngineError
from games.engine.record import FORMAT, GENESIS, is_redacted, record_hash, rule_set_id
from games.engine.registry import engine_for

Check = Callable[[dict[str, Any]], list[tuple[str, str]]]


@dataclass
class Problem:
    line: int
    hand: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"FAIL line {self.line}: {self.hand}: {self.field}: {self.message}"


@dataclass
class Report:
    records: int = 0
    failed_lines: set[int] = field(default_factory=set)
    partly_checked: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)
        self.failed_lines.add(problem.line)


# --- per-record checks ---------------------------------------------------------------------------


def _check_hash(rec: dict[str, Any]) -> list[tuple[str, str]]:
    computed = record_hash(rec)
    if rec.get("hash") != computed:
        return [("hash", f"recorded {rec.get('hash')!r}, the record's content hashes to {computed}")]
    return []


def _check_rule_set(rec: dict[str, Any]) -> list[tuple[str, str]]:
    computed = rule_set_id(rec["game"], rec["rules"])
    if rec.get("rule_set") != computed:
        return [("rule_set", f"recorded {rec.get('rule_set')!r}, the record's rules give {computed}")]
    return []


def _check_commitment(rec: dict[str, Any]) -> list[tuple[str, str]]:
    fair = rec["fairness"]
    computed = commitment(fair["server_seed"])
    if computed != fair["commitment"]:
        return [("fairness.commitment", f"recorded {fair['commitment']}, SHA-256 of the server seed is {computed}")]
    return []


def _check_zero_sum(rec: dict[str, Any]) -> list[tuple[str, str]]:
    result, lines = rec["result"], rec.get("house_lines") or {}
    out = []
    total = sum(result["coins"]) + result["house"]
    if total != 0:
        out.append(("result.coins", f"coins {result['coins']} and house {result['house']} sum to {total}, not 0"))
    if sum(lines.values()) != result["house"]:
        out.append(("house_lines", f"{lines} add up to {sum(lines.values())}, the result's house is {result['house']}"))
    if lines.get("commission", 0) != result["commission"]:
        out.append(("house_lines.commission", f"{lines.get('commission', 0)}, the result says {result['commission']}"))
    return out


def _guarded(name: str, check: Check, rec: dict[str, Any]) -> list[tuple[str, str]]:
    """Run one check; a malformed record is a failure of that check, never a crash."""
    try:
        return check(rec)
    except EngineError as exc:
        return [(name, f"refused by the engine: {exc}")]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return [(name, f"malformed record ({type(exc).__name__}: {exc})")]


def check_record(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """Every check of one record that needs no other record: ``[(field, message)]``."""
    game = rec.get("game")
    if rec.get("format") != FORMAT:
        return [("format", f"expected {FORMAT!r}, got {rec.get('format')!r}")]
    try:
        engine = engine_for(game)
    except EngineError:
        return [("game", f"unknown game {game!r}")]
    checks: list[tuple[str, Check]] = [("rule_set", _check_rule_set), ("score", engine.check_score),
                                       ("zero sum", _check_zero_sum)]
    if not is_redacted(rec):
        checks = [("hash", _check_hash), ("fairness", _check_commitment), ("deal", engine.check_deal), *checks]
    return [problem for name, check in checks for problem in _guarded(name, check, rec)]


# --- the chain ------------------------------------------------------------------------------------


def hand_label(rec: Mapping[str, Any]) -> str:
    hand = rec.get("hand")
    if not isinstance(hand, dict):
        hand = {}
    return f"table {hand.get('table')} hand {hand.get('number')} (hand id {hand.get('id')})"


@dataclass
class _Link:
    seq: int
    hash: str
    line: int


def check_chain(rec: Mapping[str, Any], last: _Link | None, *, partial: bool) -> list[tuple[str, str]]:
    """The record against the previous record of its table in this file (``last``)."""
    chain = rec["chain"]
    seq, prev = chain["seq"], chain["prev"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        return [("chain.seq", f"expected a positive integer, got {seq!r}")]
    if last is None:
        if seq == 1 and prev != GENESIS:
            return [("chain.prev", f"the first record of a table must link to {GENESIS}, got {prev!r}")]
        if seq != 1 and not partial:
            return [("chain.seq", f"the table's chain starts at record {seq}: records 1..{seq - 1} are missing")]
        return []
    if seq <= last.seq:
        return [("chain.seq", f"record {seq} comes after record {last.seq} (line {last.line}): out of order")]
    if seq > last.seq + 1:
        if partial:
            return []
        gap = f"{last.seq + 1}" if seq == last.seq + 2 else f"{last.seq + 1}..{seq - 1}"
        return [("chain.seq", f"record {gap} of this table is missing between line {last.line} and this line")]
    if prev != last.hash:
        return [("chain.prev", f"{prev!r} is not the hash of record {last.seq} (line {last.line}): {last.hash}")]
    return []


# --- the file -------------------------------------------------------------------------------------


def _parse(raw: bytes | str) -> dict[str, Any]:
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    rec = json.loads(text)
    if not isinstance(rec, dict):
        raise ValueError("expected a JSON object")
    return rec


def verify_lines(lines: Iterable[bytes | str], *, partial: bool = False,
                 heads: Mapping[int, tuple[int, str]] | None = None) -> Report:
    """Check every record of an export (one JSON object per line; blank lines are skipped),
    against the published chain heads (``heads``: table → (seq, hash)) when given."""
    report = Report()
    chains: dict[Any, _Link] = {}
    seen: dict[Any, _Link] = {}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            rec = _parse(raw)
        except (UnicodeDecodeError, ValueError) as exc:
            report.add(Problem(number, "?", "line", f"not a JSON object: {exc}"))
            continue
        report.records += 1
        label = hand_label(rec)
        for name, message in check_record(rec):
            report.add(Problem(number, label, name, message))
        report.partly_checked += int(is_redacted(rec))
        _chain_step(rec, number, label, chains, report, partial or "view" in rec)
        if heads is not None:
            _head_step(rec, number, label, heads, seen, report)
    if heads is not None:
        _heads_reached(heads, chains, report, partial=partial)
    return report


def _head_step(rec: dict[str, Any], number: int, label: str, heads: Mapping[int, tuple[int, str]],
               seen: dict[Any, _Link], report: Report) -> None:
    """The record against its table's published head: a table the heads name, and at the head's
    position the head's hash."""
    try:
        table, seq, digest = rec["hand"]["table"], rec["chain"]["seq"], str(rec.get("hash"))
    except (KeyError, TypeError):
        return  # reported by the chain check
    head = heads.get(table)
    if head is None:
        if table not in seen:
            report.add(Problem(number, label, "chain.head", f"table {table} is not in the published chain heads"))
        seen[table] = _Link(seq, digest, number)
        return
    seen[table] = _Link(seq, digest, number)
    if seq == head[0] and digest != head[1]:
        report.add(Problem(number, label, "chain.head", f"record {seq} hashes to {digest}, the published head "
                                                        f"is {head[1]}: the chain was rewritten"))


def _heads_reached(heads: Mapping[int, tuple[int, str]], chains: Mapping[Any, _Link], report: Report, *,
                   partial: bool) -> None:
    """Every published table is in the file and, unless partial, its chain reaches the head."""
    for table, (seq, _digest) in sorted(heads.items()):
        last = chains.get(table)
        if last is None:
            if not partial:
                report.add(Problem(0, f"table {table}", "chain.head",
                                   f"no record of this table; the published head is record {seq}"))
        elif last.seq < seq and not partial:
            report.add(Problem(last.line, f"table {table}", "chain.head",
                               f"the file ends at record {last.seq}; the published head is record {seq}: "
                               f"records {last.seq + 1}..{seq} are missing"))


def heads_parse(raw: bytes | str) -> dict[int, tuple[int, str]]:
    """The published chain heads (``GET /api/history/chains/``: a JSON array of ``{"table",
    "seq", "hash"}``) as table → (seq, hash); ValueError says what is wrong with them."""
    data = json.loads(raw)
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        data = data["results"]
    if not isinstance(data, list):
        raise ValueError("expected a JSON array of chain heads")
    heads: dict[int, tuple[int, str]] = {}
    for i, head in enumerate(data):
        ok = isinstance(head, dict) and all(
            isinstance(head.get(k), int) and not isinstance(head.get(k), bool) for k in ("table", "seq"))
        if not ok or not isinstance(head.get("hash"), str):
            raise ValueError(f"head {i + 1}: expected an object with integer table and seq and a string hash")
        if head["table"] in heads:
            raise ValueError(f"head {i + 1}: table {head['table']} is named twice")
        heads[head["table"]] = (head["seq"], head["hash"])
    return heads


def _chain_step(rec: dict[str, Any], number: int, label: str, chains: dict[Any, _Link], report: Report,
                partial: bool) -> None:
    try:
        table = rec["hand"]["table"]
        problems = check_chain(rec, chains.get(table), partial=partial)
        chains[table] = _Link(rec["chain"]["seq"], str(rec.get("hash")), number)
    except (KeyError, TypeError) as exc:
        problems = [("chain", f"malformed record ({type(exc).__name__}: {exc})")]
    for name, message in problems:
        report.add(Problem(number, label, name, message))


def write_report(report: Report, out: TextIO) -> None:
    for problem in report.problems:
        out.write(f"{problem}\n" if problem.line else f"FAIL {problem.hand}: {problem.field}: {problem.message}\n")
    for note in report.notes:
        out.write(f"note: {note}\n")
    failed = len(report.failed_lines)
    partly = ""
    if report.partly_checked:
        partly = f", {report.partly_checked} of them partly (a player's copy: hidden cards and seed)"
    verdict = "OK" if report.ok else "FAILED"
    out.write(f"{verdict}: {report.records} records checked{partly}; {failed} lines failed\n")


def _heads_read(path: str, out: TextIO) -> dict[int, tuple[int, str]] | None:
    try:
        with open(path, "rb") as handle:
            return heads_parse(handle.read())
    except OSError as exc:
        out.write(f"cannot read {path}: {exc.strerror}\n")
    except (UnicodeDecodeError, ValueError) as exc:
        out.write(f"cannot use the chain heads in {path}: {exc}\n")
    return None


def run(path: str, out: TextIO, *, partial: bool = False, stdin: Iterable[bytes] | None = None,
        heads_path: str | None = None) -> int:
    """``python -m games verify PATH [--heads HEADS]`` (``-``: standard input); returns the exit status."""
    heads = None
    if heads_path is not None:
        heads = _heads_read(heads_path, out)
        if heads is None:
            return 2
    if path == "-":
        report = verify_lines(stdin if stdin is not None else [], partial=partial, heads=heads)
    else:
        try:
            with open(path, "rb") as handle:
                report = verify_lines(handle, partial=partial, heads=heads)
        except OSError as exc:
            out.write(f"cannot read {path}: {exc.strerror}\n")
            return 2
    write_report(report, out)
    return 0 if report.ok else 1
