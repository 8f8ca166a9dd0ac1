"""The A/B comparison of live-load rows (bench/ab_compare.py), on rows written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.ab_compare import compare, load, main, report


def _row(hands_per_min: float, p99: float, asgi: float | None = 3.0) -> dict[str, object]:
    return {"hands_per_min": hands_per_min, "p50_ms": 10, "p99_ms": p99, "steady_p50_ms": None,
            "steady_p99_ms": p99, "ms_per_action": {"asgi": asgi, "machine": 9.0}}


def _write(directory: Path, rows: dict[tuple[int, str, int], dict[str, object]]) -> Path:
    for (r, side, tables), row in rows.items():
        (directory / f"r{r}_{side}_{tables}.json").write_text(json.dumps(row))
    (directory / f"r1_a_{next(iter(rows))[2]}.log").write_text("not a row")
    return directory


def test_each_figure_is_compared_by_its_medians_and_by_the_rounds_paired(tmp_path: Path) -> None:
    # The machine slows in round 2: both sides lose a third, B stays 5 % behind A in each round.
    rows = _write(tmp_path, {
        (1, "a", 100): _row(3000, 800), (1, "b", 100): _row(2850, 840),
        (2, "a", 100): _row(2000, 1200), (2, "b", 100): _row(1900, 1260),
        (3, "a", 100): _row(3100, 780), (3, "b", 100): _row(2945, 819),
    })
    figures = {f["figure"]: f for f in compare(load(rows)[100])}
    hands = figures["hands/min"]
    assert (hands["a"], hands["b"], hands["rounds"]) == (3000, 2850, 3)
    assert round(hands["paired"], 3) == 0.95 and round(hands["of_medians"], 3) == 0.95
    assert not hands["worse"]
    assert round(figures["p99 ms"]["paired"], 3) == 1.05
    assert "full play p50 ms" not in figures  # no run measured it
    assert figures["asgi CPU ms/action"]["paired"] == 1.0


def test_a_figure_worse_by_more_than_a_tenth_on_both_ratios_is_marked(tmp_path: Path) -> None:
    rows = _write(tmp_path, {
        (1, "a", 40): _row(2000, 100), (1, "b", 40): _row(1700, 130),
        (2, "b", 40): _row(1750, 125), (2, "a", 40): _row(2050, 95),
        (3, "a", 40): _row(2100, 90),  # a round B did not finish counts for neither side
    })
    figures = {f["figure"]: f for f in compare(load(rows)[40])}
    assert figures["hands/min"]["worse"] and figures["p99 ms"]["worse"]
    assert figures["hands/min"]["rounds"] == 2 and figures["hands/min"]["a"] == 2025
    assert not figures["asgi CPU ms/action"]["worse"]
    text = report(load(rows))
    assert "| 40 | hands/min **worse** | 2,025.0 | 1,725.0 | 0.852 |" in text


def test_the_command_prints_the_table_and_refuses_a_wrong_call(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, {(1, "a", 5): _row(300, 20), (1, "b", 5): _row(310, 19)})
    assert main(["ab_compare.py", str(tmp_path)]) == 0
    assert "| 5 | hands/min | 300.0 | 310.0 | 1.033 | 1.033 | 1 |" in capsys.readouterr().out
    assert main(["ab_compare.py"]) == 2
