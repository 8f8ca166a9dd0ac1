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

    def merge(self, other: BotStats) -> None:
        self.latencies += other.latencies
        self.errors += other.errors
        self.seen.update(other.seen)
        self.seen_at += other.seen_at
        self.hands |= other.hands
        self.voided |= other.voided
        self.reconnects += other.reconnects
        self.offline += other.offline
        self.resent += other.resent
        self.duplicates += other.duplicates

    def saw(self, code: str) -> None:
        self.seen[code] += 1
        self.seen_at.append((time.monotonic(), code))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
