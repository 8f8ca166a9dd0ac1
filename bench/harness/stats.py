"""What the bots saw: their statistics, merged over a run, and the percentiles printed from them."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class BotStats:
    """What a bot (or, merged, a whole run of bots) saw.

    ``errors`` are failures: refusals it did not recover from, a missed deadline. ``seen``
    counts every error frame by code, and ``connect_failed`` for each connect that failed;
    ``seen_at`` keeps when each was seen (monotonic seconds), for the chaos run.
    """

    latencies: list[float] = field(default_factory=list)
    latency_sent: list[float] = field(default_factory=list)  # when each timed action was sent, as latencies
    first_end: dict[int, float] = field(default_factory=dict)  # table id: when a hand there was first seen ended
    wind_down: dict[int, float] = field(default_factory=dict)  # table id: when its bots began to leave
    errors: list[str] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)
    seen_at: list[tuple[float, str]] = field(default_factory=list)
    hands: set[int] = field(default_factory=set)  # dealt in, ended settled
    voided: set[int] = field(default_factory=set)  # dealt in, voided by the platform
    reconnects: int = 0
    offline: float = 0.0  # seconds without a connection, after the first one
    resent: int = 0  # actions sent again with their id (no ack came, or a transient refusal)
    duplicates: int = 0  # of those, answered "duplicate": the server had applied them already
    state_at: list[float] = field(default_factory=list)  # when each state frame arrived
    frames: Counter[str] = field(default_factory=Counter)  # every frame received, by type
    syncs: int = 0  # `sync` requests sent

    def merge(self, other: BotStats) -> None:
        self.latencies += other.latencies
        self.latency_sent += other.latency_sent
        for mine, theirs in ((self.first_end, other.first_end), (self.wind_down, other.wind_down)):
            for table, at in theirs.items():
                mine[table] = min(at, mine.get(table, at))
        self.errors += other.errors
        self.seen.update(other.seen)
        self.seen_at += other.seen_at
        self.hands |= other.hands
        self.voided |= other.voided
        self.reconnects += other.reconnects
        self.offline += other.offline
        self.resent += other.resent
        self.duplicates += other.duplicates
        self.frames.update(other.frames)
        self.syncs += other.syncs

    def saw(self, code: str) -> None:
        self.seen[code] += 1
        self.seen_at.append((time.monotonic(), code))


def steady(stats: BotStats) -> tuple[list[float], float, float] | None:
    """The latencies of the actions sent while every table was in full play: after each had
    seen its first hand end and before the first began to wind down (the bots leaving). A run
    starts with every table dealing in the same second and ends with every bot leaving at
    about the same time, which no room of independent tables does; this window leaves both
    out. None when there is no such window (too few hands a table). Also its bounds."""
    if not stats.first_end or not stats.wind_down or len(stats.latency_sent) != len(stats.latencies):
        return None
    start, end = max(stats.first_end.values()), min(stats.wind_down.values())
    if end <= start:
        return None
    timed = [lat for lat, sent in zip(stats.latencies, stats.latency_sent, strict=True) if start <= sent <= end]
    return timed, start, end


def slow_by_second(stats: BotStats, over: float = 0.25) -> tuple[tuple[int, int], ...] | None:
    """Where the slow actions were: (actions slower than ``over`` seconds, actions) sent in the run's
    first second of actions, in its last, and in between. None without the send times."""
    if not stats.latency_sent or len(stats.latency_sent) != len(stats.latencies):
        return None
    first, last = min(stats.latency_sent), max(stats.latency_sent)
    counts = [[0, 0], [0, 0], [0, 0]]
    for lat, sent in zip(stats.latencies, stats.latency_sent, strict=True):
        phase = 0 if sent < first + 1 else 1 if sent > last - 1 else 2
        counts[phase][0] += lat > over
        counts[phase][1] += 1
    return tuple((slow, n) for slow, n in counts)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
