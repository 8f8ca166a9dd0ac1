"""Live-load figures of two checkouts side by side (bench/ab.sh, bench/README.md "Live play").

    .venv/bin/python bench/ab_compare.py DIR

DIR holds one row per run, ``r<ROUND>_<a|b>_<TABLES>.json`` (``bench/proc_cpu.py report --row``):
side A is the other revision, side B this checkout. Per table count, each figure's median on
each side, B ÷ A of the medians, and the median over the rounds of each round's B ÷ A. The
rounds ran alternated (A B, B A, ...), so a round's two runs share the machine's speed of those
minutes, which moves by a quarter from one run to the next; the paired figure is the steadier.
A figure more than ``WORSE`` worse on B by both ratios is marked.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

#: The share by which B may be worse before a figure is marked.
WORSE = 0.10
#: (name, key in the row, key in its ms_per_action or "", whether more is better).
FIGURES = (
    ("hands/min", "hands_per_min", "", True),
    ("p50 ms", "p50_ms", "", False),
    ("p99 ms", "p99_ms", "", False),
    ("full play p50 ms", "steady_p50_ms", "", False),
    ("full play p99 ms", "steady_p99_ms", "", False),
    *((f"{kind} CPU ms/action", "ms_per_action", kind, False)
      for kind in ("asgi", "timers", "postgres", "bots", "machine")),
)
ROW = re.compile(r"r(\d+)_([ab])_(\d+)\.json$")


def figure(row: dict[str, Any], key: str, kind: str) -> float | None:
    value = row.get(key)
    if kind:
        value = value.get(kind) if isinstance(value, dict) else None
    return float(value) if isinstance(value, (int, float)) else None


def load(directory: Path) -> dict[int, dict[int, dict[str, dict[str, Any]]]]:
    """tables -> round -> side -> row, for the rows found."""
    rows: dict[int, dict[int, dict[str, dict[str, Any]]]] = defaultdict(lambda: defaultdict(dict))
    for path in directory.iterdir():
        if match := ROW.search(path.name):
            rounds, side, tables = match.groups()
            rows[int(tables)][int(rounds)][side] = json.loads(path.read_text())
    return rows


def compare(by_round: dict[int, dict[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each figure of one table count: the sides' medians, B ÷ A of the medians and paired,
    the rounds with both sides, and whether B is worse by more than ``WORSE``."""
    pairs = [sides for sides in by_round.values() if "a" in sides and "b" in sides]
    out = []
    for name, key, kind, higher_better in FIGURES:
        both = [(figure(p["a"], key, kind), figure(p["b"], key, kind)) for p in pairs]
        both_known = [(a, b) for a, b in both if a is not None and b is not None]
        if not both_known:
            continue
        a_median = statistics.median(a for a, _ in both_known)
        b_median = statistics.median(b for _, b in both_known)
        of_medians = b_median / a_median if a_median else None
        ratios = [b / a for a, b in both_known if a]
        paired = statistics.median(ratios) if ratios else None
        known = [r for r in (of_medians, paired) if r is not None]
        worse = bool(known) and all((r < 1 - WORSE) if higher_better else (r > 1 + WORSE) for r in known)
        out.append({"figure": name, "a": a_median, "b": b_median, "of_medians": of_medians, "paired": paired,
                    "rounds": len(both_known), "worse": worse})
    return out


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def report(rows: dict[int, dict[int, dict[str, dict[str, Any]]]]) -> str:
    lines = ["| tables | figure | A | B | B ÷ A, medians | B ÷ A, paired | rounds |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for tables in sorted(rows):
        for f in compare(rows[tables]):
            mark = " **worse**" if f["worse"] else ""
            lines.append(f"| {tables} | {f['figure']}{mark} | {f['a']:,.1f} | {f['b']:,.1f} "
                         f"| {_ratio(f['of_medians'])} | {_ratio(f['paired'])} | {f['rounds']} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    print(report(load(Path(argv[1]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
