"""``python -m games verify FILE``: check exported hand records (docs/HAND_HISTORY.md).

For every JSON line of a ``cardtables.hand/1`` export this re-does what the platform did,
from nothing but the line and the engines (no Django, no database):

1. ``hash``: SHA-256 of the line's canonical JSON without ``hash`` and ``view``, and
   ``rule_set``: the id of the recorded rules (:func:`rule_set_id`);
2. ``fairness.commitment``: SHA-256 of the revealed server seed (docs/FAIRNESS.md);
3. the deal: the seed's deck dealt as the game deals it must give every seat's recorded
   cards (and the trio's jackpot card and first seat, 三公's table hands);
4. the score: the game's ``score_request`` on the recorded arrangements / bets must give
   the recorded units, coins and commission (the trio's disconnection penalty re-derived);
5. zero sum: ``sum(result.coins) + result.house == 0``, and the house lines add up to
   ``result.house`` with the commission line equal to ``result.commission``;
6. the chain, per table, in file order: ``chain.seq`` counts up by one from 1 and every
   ``chain.prev`` is the hash of the record before it. ``--partial`` (a filtered extract)
   accepts gaps and chains that start later; a player's copy (it has ``view``) is partial.

A player's copy of a trio hand hides the opponents' unused cards and the seed
(``view.redacted``): its hash, commitment and deal cannot be checked, so only 4 and 5 run.
Every failure names the line, the hand and the field; the exit status is 0 when every
check passed, 1 when any failed, 2 when the file cannot be read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from games.engine.cards import card_str, cards_str, parse_cards
from games.engine.deck import commitment, shuffle
from games.engine.errors import EngineError

FORMAT = "cardtables.hand/1"
GENESIS = "0" * 64
#: Keys left out of a record's hash: the hash itself and a player's-copy marker.
UNHASHED = ("hash", "view")

Check = Callable[[dict[str, Any]], list[tuple[str, str]]]


def canonical_json(value: Any) -> str:
    """The one text a record is hashed as: sorted keys, no spaces, UTF-8, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def record_hash(record: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the record's canonical JSON without ``hash`` and ``view``."""
    body = {k: v for k, v in record.items() if k not in UNHASHED}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def rule_set_id(game: str, rules: Mapping[str, Any]) -> str:
    """The id of a hand's rule set: the game and the first 16 hex digits of the SHA-256 of the
    engine's complete rules as canonical JSON (equal rules, equal id)."""
    return f"{game}/{hashlib.sha256(canonical_json(rules).encode('utf-8')).hexdigest()[:16]}"


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


def _redacted(rec: Mapping[str, Any]) -> bool:
    view = rec.get("view")
    return isinstance(view, dict) and bool(view.get("redacted"))


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


def _compare_hands(dealt: Sequence[Sequence[int]], seats: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    out = []
    if len(dealt) != len(seats):
        return [("seats", f"{len(seats)} seats recorded, the deal is for {len(dealt)}")]
    for i, (cards, seat) in enumerate(zip(dealt, seats, strict=True)):
        recorded = parse_cards(seat.get("cards"), field=f"seats[{i}].cards")
        if sorted(recorded) != sorted(cards):
            extra = cards_str(sorted(set(recorded) - set(cards)))
            missing = cards_str(sorted(set(cards) - set(recorded)))
            out.append((f"seats[{i}].cards", f"not the seed's deal: recorded {' '.join(extra) or '-'} "
                                             f"where the seed deals {' '.join(missing) or '-'}"))
    return out


def _deal_thirteen(rec: dict[str, Any]) -> list[tuple[str, str]]:
    from games.engine.thirteen.hands import deal

    fair = rec["fairness"]
    hands = deal(fair["server_seed"], fair["client_seeds"], len(rec["seats"]), rec["dealer"])
    return _compare_hands(hands, rec["seats"])


def _deal_trio(rec: dict[str, Any]) -> list[tuple[str, str]]:
    from games.engine.thirteen_trio.deal import deal

    fair = rec["fairness"]
    jackpot, first, hands = deal(shuffle(fair["server_seed"], fair["client_seeds"]), rec["head"])
    out = []
    if rec.get("jackpot") != card_str(jackpot):
        out.append(("jackpot", f"recorded {rec.get('jackpot')!r}, the seed turns up {card_str(jackpot)}"))
    if rec.get("start_seat") != first:
        out.append(("start_seat", f"recorded {rec.get('start_seat')!r}, the jackpot card starts the deal at {first}"))
    return out + _compare_hands(hands, rec["seats"])


def samgong_deal(deck: Sequence[int], rec: Mapping[str, Any]) -> dict[str, Any]:
    """Where each 三公 card went (games.engine.samgong.machine): 3 each counter-clockwise
    from seat 0 (``all_compare``, ``pairwise``) or from the banker (``banker_rotate``);
    ``banker_bid``: 2 face up from the kept banker (else seat 0), the 3rd from the banker;
    ``house``: the top six alternately to 閒 and 莊."""
    from games.engine.samgong.table import deal_order

    mode, n = rec["mode"], len(rec["seats"])
    if mode == "house":
        return {"seats": [[] for _ in range(n)], "player": list(deck[0:6:2]), "banker": list(deck[1:6:2])}
    if mode == "banker_bid":
        face_up = rec["banker"] if rec.get("banker_how") == "kept" else 0
        rounds = [(face_up, 2), (rec["banker"], 1)]
    else:
        rounds = [(rec["banker"] if mode == "banker_rotate" else 0, 3)]
    hands: list[list[int]] = [[] for _ in range(n)]
    top = 0
    for start, count in rounds:
        for _ in range(count):
            for seat in deal_order(start, n):
                hands[seat].append(deck[top])
                top += 1
    return {"seats": hands}


def _deal_samgong(rec: dict[str, Any]) -> list[tuple[str, str]]:
    fair = rec["fairness"]
    dealt = samgong_deal(shuffle(fair["server_seed"], fair["client_seeds"]), rec)
    out = _compare_hands(dealt["seats"], rec["seats"])
    for side in ("player", "banker"):
        recorded, seed_deals = rec.get(f"{side}_cards"), cards_str(dealt.get(side, []))
        if side in dealt and recorded != seed_deals:
            out.append((f"{side}_cards", f"recorded {recorded}, the seed deals {seed_deals}"))
    return out


def _differs(*pairs: tuple[str, Any, Any]) -> list[tuple[str, str]]:
    """``(field, recorded, re-scored)`` triples that disagree, as failures."""
    return [(name, f"recorded {recorded}, re-scored {rescored}") for name, recorded, rescored in pairs
            if recorded != rescored]


def _pick(rec: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    return {k: rec[k] for k in keys if k in rec}


def _score_thirteen(rec: dict[str, Any]) -> list[tuple[str, str]]:
    from games.engine.thirteen import score_request

    req = _pick(rec, ("game", "dealer", "unit", "stacks", "commission"))
    req["seats"] = [_pick(s, ("cards", "front", "middle", "back", "declare")) for s in rec["seats"]]
    out, result = score_request(req), rec["result"]
    return _differs(("result.units", result["units"], out["units"]), ("result.coins", result["coins"], out["coins"]),
                    ("result.commission", result["commission"], out["commission"]))


def _score_trio(rec: dict[str, Any]) -> list[tuple[str, str]]:
    from games.engine.thirteen_trio import money, scoring
    from games.engine.thirteen_trio.requests import score_request

    result = rec["result"]
    if result.get("void"):
        return _differs(("result.coins", result["coins"], [0] * len(result["coins"])))
    if _redacted(rec):  # the opponents' 17 cards are not in a player's copy: score the played rows
        sizes = {"front": 3, "middle": 5, "back": 5}
        rows = [{r: parse_cards(s[r], count=n, field=f"seats[{i}].{r}") for r, n in sizes.items()}
                for i, s in enumerate(rec["seats"])]
        units = scoring.score_hands(rows, parse_cards([rec["jackpot"]])[0])["units"]
        coins, commission = money.game_coins(units, base=rec["base"], commission_percent=rec["commission_percent"])
    else:
        req = _pick(rec, ("game", "jackpot", "base", "commission_percent"))
        req["seats"] = [_pick(s, ("cards", "front", "middle", "back")) for s in rec["seats"]]
        out = score_request(req)
        units, coins, commission = out["units"], out["coins"], out["commission"]
    house = commission
    payer = (result.get("penalty") or {}).get("seat")
    if payer is not None:
        penalty = money.penalty(base=rec["base"], payer=payer, head=rec["head"])
        coins = [c + p for c, p in zip(coins, penalty["coins"], strict=True)]
        house += penalty["house"]
    return _differs(("result.units", result["units"], units), ("result.coins", result["coins"], coins),
                    ("result.commission", result["commission"], commission), ("result.house", result["house"], house))


def _score_samgong(rec: dict[str, Any]) -> list[tuple[str, str]]:
    from games.engine.samgong import score_request

    req = _pick(rec, ("game", "mode", "base", "rules", "banker", "player_cards", "banker_cards"))
    req["seats"] = [_pick(s, ("cards", "bet", "bets", "stack")) for s in rec["seats"]]
    out, result = score_request(req), rec["result"]
    net = [g - c for g, c in zip(out["coins"], result.get("commissions") or [0] * len(out["coins"]), strict=True)]
    return _differs(("result.gross", result.get("gross"), out["coins"]), ("result.coins", result["coins"], net),
                    ("result.commission", result["commission"], out["commission"]),
                    ("result.house", result["house"], out["house"]))


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


DEALS: dict[str, Check] = {"thirteen": _deal_thirteen, "thirteen_trio": _deal_trio, "samgong": _deal_samgong}
SCORES: dict[str, Check] = {"thirteen": _score_thirteen, "thirteen_trio": _score_trio, "samgong": _score_samgong}


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
    if game not in DEALS:
        return [("game", f"unknown game {game!r}")]
    checks: list[tuple[str, Check]] = [("rule_set", _check_rule_set), ("score", SCORES[game]),
                                       ("zero sum", _check_zero_sum)]
    if not _redacted(rec):
        checks = [("hash", _check_hash), ("fairness", _check_commitment), ("deal", DEALS[game]), *checks]
    return [problem for name, check in checks for problem in _guarded(name, check, rec)]


# --- the chain ------------------------------------------------------------------------------------


def hand_label(rec: Mapping[str, Any]) -> str:
    hand = rec.get("hand") if isinstance(rec.get("hand"), dict) else {}
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


def verify_lines(lines: Iterable[bytes | str], *, partial: bool = False) -> Report:
    """Check every record of an export (one JSON object per line; blank lines are skipped)."""
    report = Report()
    chains: dict[Any, _Link] = {}
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
        report.partly_checked += int(_redacted(rec))
        _chain_step(rec, number, label, chains, report, partial or "view" in rec)
    return report


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
        out.write(f"{problem}\n")
    for note in report.notes:
        out.write(f"note: {note}\n")
    failed = len(report.failed_lines)
    partly = ""
    if report.partly_checked:
        partly = f", {report.partly_checked} of them partly (a player's copy: hidden cards and seed)"
    verdict = "OK" if report.ok else "FAILED"
    out.write(f"{verdict}: {report.records} records checked{partly}; {failed} lines failed\n")


def run(path: str, out: TextIO, *, partial: bool = False, stdin: Iterable[bytes] | None = None) -> int:
    """``python -m games verify PATH`` (``-``: standard input); returns the exit status."""
    if path == "-":
        report = verify_lines(stdin if stdin is not None else [], partial=partial)
    else:
        try:
            with open(path, "rb") as handle:
                report = verify_lines(handle, partial=partial)
        except OSError as exc:
            out.write(f"cannot read {path}: {exc.strerror}\n")
            return 2
    write_report(report, out)
    return 0 if report.ok else 1
