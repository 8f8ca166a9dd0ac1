"""The noisy-neighbour benchmark's report (bench/noisy_neighbour.py): the rounds of each kind are
pooled action by action, and the ratio is of the pooled p99s."""

from __future__ import annotations

from typing import Any

from bench.noisy_neighbour import report


def _run(latencies: list[float], steady: float | None = 50.0) -> dict[str, Any]:
    return {"hands_completed": 10, "hands_wanted": 10, "timed": len(latencies), "latencies_ms": latencies,
            "steady_p99_ms": steady}


def test_the_rounds_are_pooled_and_the_ratio_is_of_the_pooled_p99s() -> None:
    quiet = [_run([10.0] * 99 + [100.0]), _run([10.0] * 99 + [300.0])]
    noisy = [_run([20.0] * 98 + [240.0, 400.0], steady=70.0), _run([20.0] * 100, steady=None)]
    cpu = ([{"seconds": 10.0, "kinds": {"asgi": 5.0}}] * 2, [{"seconds": 10.0, "kinds": {"asgi": 6.0}}] * 2)
    text = report(quiet, noisy, [{"sockets_opened": 3, "seconds": 60.0}, {"sockets_opened": 4, "seconds": 61.5}], cpu)
    lines = text.splitlines()
    # 200 actions of each kind: the 99th percentile is the 199th smallest, 100 ms quiet, 240 noisy.
    assert lines[1].split()[:5] == ["quiet", "20/20", "10.0", "100.0", "50.0"]
    assert lines[2].split()[:5] == ["noisy", "20/20", "20.0", "240.0", "70.0"]
    assert lines[1].split()[5:] == ["500", "50.00"] and lines[2].split()[5:] == ["600", "60.00"]
    assert lines[3].startswith("noisy p99 / quiet p99: 2.40 (target at most 1.20), over 2 alternated round(s)")
    assert lines[3].endswith("each round's p99s, quiet / noisy: 100.0 / 400.0, 300.0 / 20.0")
    assert lines[4] == "noise: seconds 121.5, sockets_opened 7"
