"""The live-load CPU accounting (bench/proc_cpu.py), fed /proc-format text: no processes needed."""

from __future__ import annotations

from bench.proc_cpu import (
    HZ,
    Backends,
    Proc,
    parse_stat,
    report_text,
    row_of,
    series_text,
    tree_ticks,
    uptime_ticks,
)


def _stat(pid: int, comm: str, ppid: int, utime: int, stime: int, cutime: int = 0, cstime: int = 0,
          starttime: int = 1000) -> str:
    """A /proc/<pid>/stat line as Linux writes it (52 fields)."""
    fields = [str(pid), f"({comm})", "S", str(ppid), *["0"] * 9, str(utime), str(stime), str(cutime), str(cstime),
              "20", "0", "1", "0", str(starttime), *["0"] * 30]
    return " ".join(fields) + "\n"


def test_a_stat_line_is_read_by_its_fields_after_the_command_name() -> None:
    p = parse_stat(_stat(4242, "celery: worker (x) ) y", 17, 150, 30, 900, 100, starttime=12345))
    assert p == Proc(pid=4242, comm="celery: worker (x) ) y", ppid=17, utime=150, stime=30, cutime=900, cstime=100,
                     starttime=12345)
    assert (p.own, p.with_children) == (180, 1180)


def test_a_real_stat_line() -> None:
    line = ("2216 (postgres) S 2215 2215 2215 0 -1 4194368 353 0 0 0 12 34 5 6 20 0 1 0 1729 226856960 1683 "
            "18446744073709551615 1 1 0 0 0 0 0 4194304 1088 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
    p = parse_stat(line)
    assert (p.pid, p.ppid, p.utime, p.stime, p.cutime, p.cstime, p.starttime) == (2216, 2215, 12, 34, 5, 6, 1729)


def test_a_tree_counts_every_descendant_and_the_children_they_reaped() -> None:
    procs = {p.pid: p for p in (
        parse_stat(_stat(10, "celery", 1, 100, 20, cutime=50, cstime=5)),  # reaped an old child
        parse_stat(_stat(11, "celery", 10, 300, 30)),  # prefork children
        parse_stat(_stat(12, "celery", 10, 200, 10)),
        parse_stat(_stat(13, "sh", 12, 1, 1)),  # a grandchild
        parse_stat(_stat(20, "uvicorn", 1, 999, 99)),  # another tree
    )}
    assert tree_ticks(procs, [10]) == 175 + 330 + 210 + 2
    assert tree_ticks(procs, [10, 20]) == 717 + 1098
    assert tree_ticks(procs, [99]) is None  # not there


def test_a_child_that_ends_moves_from_the_tree_into_its_parents_cutime() -> None:
    live = {p.pid: p for p in (parse_stat(_stat(10, "w", 1, 100, 0)), parse_stat(_stat(11, "w", 10, 40, 10)))}
    reaped = {10: parse_stat(_stat(10, "w", 1, 100, 0, cutime=40, cstime=10))}
    assert tree_ticks(live, [10]) == tree_ticks(reaped, [10]) == 150


def test_backends_count_from_their_first_sample_or_from_zero_when_they_started_in_the_window() -> None:
    window = Backends(since=5000)
    old = parse_stat(_stat(300, "postgres", 2215, 700, 100, starttime=100))  # connected before the run
    window.sample([old])
    assert window.ticks == 0
    new = parse_stat(_stat(301, "postgres", 2215, 30, 10, starttime=6000))
    window.sample([parse_stat(_stat(300, "postgres", 2215, 750, 110, starttime=100)), new])
    assert window.ticks == 60 + 40
    # 301 ends; its pid is used again by a backend that started later: another backend
    again = parse_stat(_stat(301, "postgres", 2215, 5, 0, starttime=7000))
    window.sample([parse_stat(_stat(300, "postgres", 2215, 800, 110, starttime=100)), again])
    assert window.ticks == 110 + 40 + 5
    assert (len(window.last), window.ended, window.samples) == (3, 1, 3)


def test_the_samples_count_backends_running_a_statement_and_those_waiting_on_a_lock() -> None:
    window = Backends(since=0)
    window.sample([], [("active", "Lock"), ("active", None), ("idle", "Client"), ("active", "IO")])
    window.sample([], [("active", "Lock"), ("idle in transaction", "Client"), (None, None)])
    assert (window.active, window.locked, window.samples) == (4, 2, 2)


def test_uptime_is_read_in_clock_ticks() -> None:
    assert uptime_ticks("1289.58 1490.96\n") == int(1289.58 * HZ)


def _row() -> dict:
    cpu = {"seconds": 60.0, "cpus": 2, "machine_busy": 100.0, "machine_all": 120.0, "sampler": 0.5,
           "kinds": {"asgi": 40.0, "timers": 5.0, "sweeper": 1.0, "background": 2.0, "postgres": 20.0, "redis": 2.0, "bots": 12.0},
           "backends": {"seen": 30, "ended": 2, "samples": 240, "active": 720, "locked": 120}, "exit": 0}
    before = {"hands_ended": 10, "actions_player": 100, "actions_auto": 0, "sessions": 50, "xact_commit": 1000,
              "xact_rollback": 0, "tup_inserted": 0, "tup_updated": 0, "tup_deleted": 0, "tup_fetched": 0}
    after = {"hands_ended": 410, "actions_player": 1700, "actions_auto": 400, "sessions": 73, "xact_commit": 21000,
             "xact_rollback": 1000, "tup_inserted": 4000, "tup_updated": 4000, "tup_deleted": 0, "tup_fetched": 9000}
    bots = {"tables": 20, "hands_wanted": 400, "hands_completed": 398, "hands_voided": 2, "failures": 0,
            "hands_per_min": 400.0, "p50_ms": 225.4, "p99_ms": 679.0, "steady_p50_ms": 30.2, "steady_p99_ms": 140.6,
            "procs": 2}
    return row_of(cpu, before, after, bots)


def test_a_run_row_divides_each_kinds_cpu_by_every_action_of_the_run() -> None:
    row = _row()
    assert row["actions"] == 2000
    assert row["ms_per_action"] == {"asgi": 20.0, "timers": 2.5, "sweeper": 0.5, "background": 1.0,
                                    "postgres": 10.0, "redis": 1.0, "bots": 6.0, "other": 9.0, "machine": 50.0}
    assert row["xacts_per_action"] == 10.5
    assert row["rows_written_per_action"] == 4.0


def test_the_report_and_the_series_print_those_figures() -> None:
    row = _row()
    text = report_text(row)
    assert "PostgreSQL connections opened: 23 (5.8 per 100 hands; 400 hands ended)" in text
    assert "actions 2,000 (player 1,600, automatic 400)" in text
    assert "busy 100.0 of 120.0 CPU s (83 %)" in text
    assert "  asgi          40.00     40 %      20.00" in text
    assert "  background     2.00      2 %       1.00" in text
    assert "  other         18.00     18 %       9.00" in text
    assert "on average: 3.0 running a statement, 0.5 of them waiting on a lock" in text
    lines = series_text([row, row_of({}, {}, {}, {"tables": 100, "failures": 3})]).splitlines()
    assert lines[0].startswith("| tables | hands | hands/min | p50 ms | p99 ms | full play p50 / p99 ms | failures | asgi |")
    assert lines[2] == "| 20 | 400/400 | 400.0 | 225 | 679 | 30 / 141 | 0 | 20.0 | 2.5 | 0.5 | 1.0 | 10.0 | 1.0 | 6.0 | 9.0 | 83 % | 10.5 | 0.5 |"
    assert lines[3].startswith("| 100 | 0/? | - | - | - | - / - | 3 | - |")
