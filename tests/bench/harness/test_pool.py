"""The bots split between processes (bench/harness/pool.py): tables dealt round-robin, and the
processes' statistics merged as samples, as the bots of one process are."""

from __future__ import annotations

from collections import Counter

from bench.harness.fleet import TablePlan, frames_line, per_stats_line, ramped
from bench.harness.pool import Played, merged, per_bot_figures, pool_run, shares
from bench.harness.stats import BotStats, percentile, slow_by_second, steady


def test_tables_are_dealt_round_robin_and_no_share_is_empty() -> None:
    assert shares(list(range(7)), 3) == [[0, 3, 6], [1, 4], [2, 5]]
    assert shares([1, 2], 5) == [[1], [2]]
    assert shares([1, 2, 3], 1) == [[1, 2, 3]]
    assert shares([], 2) == []


def test_merged_latencies_are_the_samples_of_every_process_not_an_average_of_percentiles() -> None:
    fast = BotStats(latencies=[0.010] * 99, hands={1, 2}, seen=Counter({"illegal": 1}), reconnects=1,
                    frames=Counter({"state": 300, "pong": 20}), syncs=1)
    slow = BotStats(latencies=[1.0], hands={3}, voided={4}, errors=["table 9: timed out"], resent=2, duplicates=1,
                    frames=Counter({"state": 5}), syncs=2)
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
    assert stats.frames == Counter({"state": 305, "pong": 20}) and stats.syncs == 3
    assert frames_line(stats, len(stats.latencies)) == "per action: frames received pong 0.20, state 3.05; syncs sent 0.030"
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


def test_full_play_leaves_out_the_start_and_the_wind_down_of_every_process() -> None:
    # two processes' bots: tables 1 and 2 saw their first hands end at 10 and 12 s, began to
    # leave at 40 and 38 s; actions sent at 5 s (all tables dealing at once) and 39 s (bots leaving)
    one = BotStats(latencies=[0.9, 0.02, 0.03], latency_sent=[5.0, 20.0, 39.0], first_end={1: 10.0}, wind_down={1: 40.0})
    two = BotStats(latencies=[0.04, 0.8], latency_sent=[30.0, 38.5], first_end={2: 12.0, 1: 11.0}, wind_down={2: 38.0})
    stats = merged([Played(one, []), Played(two, [])]).stats
    assert stats.first_end == {1: 10.0, 2: 12.0} and stats.wind_down == {1: 40.0, 2: 38.0}
    window = steady(stats)
    assert window is not None
    timed, since, until = window
    assert (since, until) == (12.0, 38.0)
    assert sorted(timed) == [0.02, 0.04]


def test_no_full_play_when_a_table_winds_down_before_another_has_ended_a_hand() -> None:
    stats = BotStats(latencies=[0.1], latency_sent=[3.0], first_end={1: 10.0, 2: 12.0}, wind_down={1: 11.0})
    assert steady(stats) is None
    assert steady(BotStats(latencies=[0.1], latency_sent=[3.0])) is None


def test_slow_actions_are_told_by_when_they_were_sent_first_second_last_second_between() -> None:
    sent = [100.0, 100.5, 100.99, 101.0, 105.0, 109.01, 109.5, 110.0]
    latencies = [0.3, 0.1, 0.26, 0.3, 0.25, 0.4, 0.1, 0.9]
    assert slow_by_second(BotStats(latencies=latencies, latency_sent=sent)) == ((2, 3), (2, 3), (1, 2))
    assert slow_by_second(BotStats(latencies=[0.3], latency_sent=[])) is None  # no send times kept


def test_a_ramp_spreads_the_tables_starts_evenly_the_first_at_once() -> None:
    plan = [TablePlan(100 + k, "thirteen", "", 500, [f"s{k}"]) for k in range(4)]
    assert [t.start_after for t in ramped(plan, 2.0)] == [0.0, 0.5, 1.0, 1.5]
    assert [t.start_after for t in ramped(plan, 0.0)] == [0.0] * 4
    assert [t.table_id for t in ramped(plan, 2.0)] == [100, 101, 102, 103]
    assert ramped([], 5.0) == []


def test_a_table_of_the_ramp_connects_only_when_its_start_comes_in_every_process() -> None:
    """No server listens; table 102 starts after the deadline, so its bot never tries to
    connect, while table 101's bot tries from the start (each table in a process of its own)."""
    plan = ramped([TablePlan(101, "thirteen", "", 500, ["s1"]), TablePlan(102, "thirteen", "", 500, ["s2"])], 6.0)
    run, elapsed = pool_run(plan, ["ws://127.0.0.1:9"], "", hands=1, timeout=1.5, procs=2)
    assert sorted(run.stats.errors) == ["table 101: timed out", "table 102: timed out"]
    assert sorted(sum(b.seen.values()) for b in run.per_bot)[0] == 0  # the late table's bot: no attempt
    assert max(sum(b.seen.values()) for b in run.per_bot) >= 1
    assert elapsed >= 3.0  # table 102's bot waited for its start before it saw the deadline had passed
