"""The bots split between processes (games/bots/pool.py): tables dealt round-robin, and the
processes' statistics merged as samples, as the bots of one process are."""

from __future__ import annotations

from collections import Counter

from games.bots.fleet import TablePlan, per_stats_line
from games.bots.pool import Played, merged, per_bot_figures, pool_run, shares
from games.bots.stats import BotStats, percentile


def test_tables_are_dealt_round_robin_and_no_share_is_empty() -> None:
    assert shares(list(range(7)), 3) == [[0, 3, 6], [1, 4], [2, 5]]
    assert shares([1, 2], 5) == [[1], [2]]
    assert shares([1, 2, 3], 1) == [[1, 2, 3]]
    assert shares([], 2) == []


def test_merged_latencies_are_the_samples_of_every_process_not_an_average_of_percentiles() -> None:
    fast = BotStats(latencies=[0.010] * 99, hands={1, 2}, seen=Counter({"illegal": 1}), reconnects=1)
    slow = BotStats(latencies=[1.0], hands={3}, voided={4}, errors=["table 9: timed out"], resent=2, duplicates=1)
    run = merged([Played(fast, [per_bot_figures(fast)]), Played(slow, [per_bot_figures(slow)])],
                 errors=["bot process 3: exited with code 1 before done"])
    stats = run.stats
    assert sorted(stats.latencies) == sorted(fast.latencies + slow.latencies)
    assert percentile(stats.latencies, 0.5) == 0.010  # the mean of the two p50s would be 0.505
    assert percentile(stats.latencies, 0.99) == 1.0
    assert stats.hands == {1, 2, 3} and stats.voided == {4}
    assert stats.errors == ["bot process 3: exited with code 1 before done", "table 9: timed out"]
    assert stats.seen == Counter({"illegal": 1}) and stats.reconnects == 1
    assert (stats.resent, stats.duplicates) == (2, 1)
    assert len(run.per_bot) == 2


def test_the_worst_bot_line_reads_each_bots_own_figures() -> None:
    per_bot = [BotStats(reconnects=2, offline=1.5), BotStats(seen=Counter({"connect_failed": 3, "illegal": 1}))]
    assert per_stats_line(per_bot) == ("per bot at most: reconnects 2, time offline 1.5 s, "
                                       "error frames and failed connects 4")
    assert per_stats_line([]) == "no bots"
    figures = per_bot_figures(BotStats(latencies=[1.0], reconnects=1, offline=2.0, seen=Counter({"x": 1})))
    assert figures.latencies == [] and (figures.reconnects, figures.offline, figures.seen) == (1, 2.0, {"x": 1})


def test_bot_processes_play_their_tables_and_report_what_their_bots_saw() -> None:
    """No server listens: every bot fails to connect until the deadline, in two processes."""
    plan = [TablePlan(101, "thirteen", "", 500, ["s1", "s2"]), TablePlan(102, "thirteen", "", 500, ["s3"])]
    started = []
    run, elapsed = pool_run(plan, ["ws://127.0.0.1:9"], "", hands=1, timeout=2.0, procs=2,
                            on_start=lambda: started.append(1))
    assert started == [1]
    assert sorted(run.stats.errors) == ["table 101: timed out"] * 2 + ["table 102: timed out"]
    assert run.stats.seen["connect_failed"] >= 3
    assert len(run.per_bot) == 3 and all(b.seen["connect_failed"] for b in run.per_bot)
    assert 2.0 <= elapsed < 30
