"""The engines' share of a live action: µs per engine call, by game and mode, one process
(bench/README.md "Engine calls per action").

    .venv/bin/python bench/engine_ops.py [--hands 20] [--rounds 5] [--min-ms 100] [--json out.json]
    .venv/bin/python bench/engine_ops.py --merge run1.json run2.json run3.json

Every game and mode of the registry is played ``--hands`` times at its live table size (4
seats, fewer where the game seats fewer), from fixed seeds, with the bots' own moves (a seat
whose bot has nothing to play is timed out). The recorded inputs are then replayed against
each call kind the live path makes (games/services/hands.py, games/frames.py through
games/adapters.py): ``new_hand`` on every deal, ``apply`` on every recorded move, ``result``,
``awaiting``, ``deadline`` and ``view`` (every seat and a spectator) on every state an action
left, ``on_deadline`` and ``auto_action`` on every state still in play, and the rules lookups
(``stake_rules``, ``player_limits``, ``set_progress``, ``leave_terms``, ``rule_sheet``). A
kind is timed with ``time.perf_counter_ns`` around whole passes over its inputs, repeated until
a round lasts ``--min-ms``; the figure is the median of ``--rounds`` rounds.

"engine µs per action" is what one live action costs the engine: 1 ``apply`` + 3 ``result`` +
(seats + 1) ``view`` + 3 ``stake_rules``; "+ frame lookups" adds what a broadcast asks through
the adapters besides: ``set_progress`` once and ``leave_terms`` once per seat, ``awaiting`` and
``deadline`` twice each. ``--merge`` prints the median of several ``--json`` runs, cell by cell.

``--trace FILE`` times nothing: it writes the ``repr`` of every state played and of every output of
every call kind, one a line, so two versions of the engines can be compared with ``cmp``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.registry import games  # noqa: E402

NOW = 1_700_000_000.0
STACK = 10**8
SEATS = 4
STEPS = 200
KINDS = ("new_hand", "apply", "result", "view", "awaiting", "deadline", "on_deadline", "auto_action",
         "stake_rules", "player_limits", "set_progress", "leave_terms", "rule_sheet")
PER_ACTION = "engine µs per action"
WITH_LOOKUPS = "+ frame lookups"


@dataclass
class Played:
    """A case's recorded inputs: what the live path would have handed the engine."""

    engine: Any
    terms: dict[str, Any]
    rules: dict[str, Any]
    seats: int
    deals: list[dict[str, Any]] = field(default_factory=list)
    moves: list[tuple[dict[str, Any], int, dict[str, Any]]] = field(default_factory=list)
    after: list[dict[str, Any]] = field(default_factory=list)  # every state an action or a deal left
    saved: list[dict[str, Any] | None] = field(default_factory=list)  # the table's carry-over beside it

    @property
    def in_play(self) -> list[dict[str, Any]]:
        return [s for s in self.after if self.engine.result(s) is None and self.engine.deadline(s) is not None]


def terms_for(engine: Any, mode: str) -> dict[str, Any]:
    """A stake level of the game: 1.00 coin a unit (the trio: its smallest base), 5 % commission."""
    unit = 10_000 if engine.name == "thirteen_trio" else 100
    return {"unit": unit, "commission_percent": 5, "min_buy_in": 30 * unit, "min_table_money": unit,
            "mode": mode, "seats": SEATS, "rules": {}}


def seed_of(*parts: object) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def play_hand(played: Played, carry: dict[str, Any] | None, saved: dict[str, Any] | None, seed: str) -> Any:
    """One hand to settlement with the bots' moves, every input recorded; the settled state."""
    engine, n, rng = played.engine, played.seats, random.Random(seed)
    deal = {"rules": played.rules, "seats": [{"player": str(i + 1), "stack": STACK} for i in range(n)],
            "carry": carry, "server_seed": seed, "now": NOW}
    state = engine.new_hand(**deal)
    played.deals.append(deal)
    for _ in range(STEPS):
        played.after.append(state)
        played.saved.append(saved)
        if engine.result(state) is not None:
            return state
        seat = next((s for s in engine.awaiting(state) if engine.legal_actions(state, s)), None)
        move = None if seat is None else engine.bot_move(engine.view(state, seat), rng)
        if seat is not None and move is not None:
            played.moves.append((state, seat, move))
            state, _events = engine.apply(state, seat, move, now=NOW)
        else:
            state, _events = engine.on_deadline(state, now=engine.deadline(state))
    raise RuntimeError(f"{engine.name}: a hand did not settle in {STEPS} steps")


def play_case(engine: Any, mode: str, hands: int) -> Played:
    terms = terms_for(engine, mode)
    rules = engine.stake_rules(terms)
    seats = min(SEATS, engine.player_limits(rules, SEATS)[1])
    played = Played(engine, terms, rules, seats)
    carry, saved = None, None
    users = list(range(1, seats + 1))
    for hand in range(hands):
        state = play_hand(played, carry, saved, seed_of(engine.name, mode, hand))
        saved = {"engine": engine.carry_over(state), "players": users}
        carry = engine.carry_for(saved, users)
    return played


def call_kinds(p: Played) -> dict[str, tuple[Callable[[], object], int]]:
    """Each kind as one pass over its inputs, and how many calls a pass makes."""
    e, n, rules, terms = p.engine, p.seats, p.rules, p.terms
    viewers = [*range(n), None]
    live = p.in_play
    pending = [(s, seat) for s in live for seat in e.awaiting(s)]
    lookups = list(zip(p.after, p.saved, strict=True))
    return {
        "new_hand": (lambda: [e.new_hand(**d) for d in p.deals], len(p.deals)),
        "apply": (lambda: [e.apply(s, seat, a, now=NOW) for s, seat, a in p.moves], len(p.moves)),
        "result": (lambda: [e.result(s) for s in p.after], len(p.after)),
        "view": (lambda: [e.view(s, v) for s in p.after for v in viewers], len(p.after) * len(viewers)),
        "awaiting": (lambda: [e.awaiting(s) for s in p.after], len(p.after)),
        "deadline": (lambda: [e.deadline(s) for s in p.after], len(p.after)),
        "on_deadline": (lambda: [e.on_deadline(s, now=e.deadline(s)) for s in live], len(live)),
        "auto_action": (lambda: [e.auto_action(s, seat) for s, seat in pending], len(pending)),
        "stake_rules": (lambda: [e.stake_rules(terms) for _ in p.after], len(p.after)),
        "player_limits": (lambda: [e.player_limits(rules, SEATS) for _ in p.after], len(p.after)),
        "set_progress": (lambda: [e.set_progress(rules, saved, s) for s, saved in lookups], len(lookups)),
        "leave_terms": (lambda: [e.leave_terms(rules, saved, s, u) for s, saved in lookups for u in range(1, n + 1)],
                        len(lookups) * n),
        "rule_sheet": (lambda: [e.rule_sheet(rules, SEATS) for _ in p.after], len(p.after)),
    }


def time_pass(run: Callable[[], object], calls: int, min_ns: int) -> float:
    """µs per call over whole passes, as many as fit in ``min_ns`` (at least one)."""
    done, start = 0, time.perf_counter_ns()
    while True:
        run()
        done += calls
        elapsed = time.perf_counter_ns() - start
        if elapsed >= min_ns:
            return elapsed / done / 1000


def measure(p: Played, rounds: int, min_ms: float) -> dict[str, float]:
    """The median µs per call of every kind; rounds interleave the kinds."""
    kinds = call_kinds(p)
    samples: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(rounds):
        for kind, (run, calls) in kinds.items():
            if calls:
                samples[kind].append(time_pass(run, calls, int(min_ms * 1e6)))
    figures = {kind: statistics.median(values) for kind, values in samples.items() if values}
    return with_totals(figures, p.seats)


def trace(p: Played, case: str, out: TextIO) -> None:
    """Every recorded state and every call's output, in order, as ``repr`` lines."""
    for i, state in enumerate(p.after):
        out.write(f"{case}|state|{i}|{state!r}\n")
    for kind, (run, _calls) in call_kinds(p).items():
        for i, output in enumerate(cast(list[Any], run())):
            out.write(f"{case}|{kind}|{i}|{output!r}\n")


def with_totals(f: dict[str, float], seats: int) -> dict[str, float]:
    action = f["apply"] + 3 * f["result"] + (seats + 1) * f["view"] + 3 * f["stake_rules"]
    lookups = f["set_progress"] + seats * f["leave_terms"] + 2 * f["awaiting"] + 2 * f["deadline"]
    return {**f, "seats": seats, PER_ACTION: action, WITH_LOOKUPS: action + lookups}


def table(figures: dict[str, dict[str, float]]) -> str:
    cases = list(figures)
    rows = [f"| call (µs) | {' | '.join(cases)} |", "|---|" + "---:|" * len(cases)]
    for kind in (*KINDS, "seats", PER_ACTION, WITH_LOOKUPS):
        cells = [figures[c].get(kind) for c in cases]
        shown = ["" if v is None else f"{v:,.0f}" if kind == "seats" else f"{v:,.1f}" for v in cells]
        name = f"**{kind}**" if kind in (PER_ACTION, WITH_LOOKUPS) else kind
        rows.append(f"| {name} | {' | '.join(shown)} |")
    return "\n".join(rows)


def merge(paths: list[str]) -> dict[str, dict[str, float]]:
    runs = [json.loads(Path(path).read_text()) for path in paths]
    return {case: {kind: statistics.median(r[case][kind] for r in runs) for kind in runs[0][case]}
            for case in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20, help="hands played per game and mode")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per call kind (the median is shown)")
    parser.add_argument("--min-ms", type=float, default=100.0, help="shortest timed round, ms")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--merge", nargs="+", metavar="JSON", help="print the cell medians of earlier --json runs")
    parser.add_argument("--trace", help="time nothing: write every state and call output to this file")
    args = parser.parse_args()
    if args.merge:
        print(table(merge(args.merge)))
        return
    cases = [(engine, mode, f"{engine.name} {mode}".strip()) for engine in games() for mode in engine.modes]
    if args.trace:
        with open(args.trace, "w", encoding="utf-8") as out:
            for engine, mode, case in cases:
                trace(play_case(engine, mode, args.hands), case, out)
        return
    figures = {}
    for engine, mode, case in cases:
        figures[case] = measure(play_case(engine, mode, args.hands), args.rounds, args.min_ms)
        print(f"{case}: {figures[case][PER_ACTION]:,.1f} µs per action", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    print(table(figures))


if __name__ == "__main__":
    main()
