"""Integrity signals for auditors (docs/INTEGRITY.md), read from the hand records only.

* **Pairs** — for every two players who sat in the same settled hands: how many hands, and the
  net coins that flowed between them. A hand's flow is netted from its per-seat coins: what
  each losing seat lost is shared among the winning seats in proportion to what each won
  (integer minor units, rounded toward zero). Between two seats of a two-seat hand, and between
  a 三公 banker and a player whenever the banker's result has the player's sign opposite, this
  is exactly what one paid the other.
* **The pair's test** — under honest play a pair's per-hand flow has mean 0, so
  ``z = sum(flow) / sqrt(sum(flow²))`` (the self-normalised sum) is about standard normal; a
  pair with at least :data:`MIN_HANDS` hands and ``|z| >= Z_FLAG`` is flagged.
* **Welcome coins passed on** — the players the settlement flagged (``integrity.services``),
  read as recorded.
* **Players** — per player and stake level: hands, fouls (seats the record's ``result.fouled``
  marks) and hands with an automatic move (``games.HandAction.auto`` on the seat), beside the
  stake level's rates, with the binomial z of the player's count against the level's rate.

Every figure is one aggregate query; nothing loops over hands in Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from accounts.models import User
from games.models import HandAction
from history.models import HandRecord, HandRecordSeat
from integrity.models import GrantFlowFlag
from tables.models import StakeLevel

#: A pair is judged only after this many hands together.
MIN_HANDS = 30
#: |z| from which a pair is flagged (two-sided normal tail about 6e-5).
Z_FLAG = 4.0
#: z from which a pair's play above its cards against the other seats is flagged (one-sided: honest
#: play is at best its cards' worth; docs/INTEGRITY.md "Measured").
Z_INFO = 3.0
#: z from which one player's play below its cards favouring the other (against what it gave the
#: other seats) flags the pair (one-sided; docs/INTEGRITY.md "Measured").
Z_FAVOUR = 3.0
#: z below which a player's bets against its cards with one banker, against its bets with the
#: other bankers, flag the pair (one-sided; docs/INTEGRITY.md "Measured").
Z_BETS = 4.0
#: A player's foul or auto-play count this many standard deviations above the level's rate is marked.
Z_PLAYER = 4.0


@dataclass(frozen=True)
class Pair:
    a: int
    b: int
    a_name: str
    b_name: str
    hands: int
    #: Coins (minor units) that flowed from ``b`` to ``a`` (negative: from ``a`` to ``b``).
    net: int
    squares: int

    @property
    def z(self) -> float:
        return self.net / math.sqrt(self.squares) if self.squares else 0.0

    @property
    def flagged(self) -> bool:
        return self.hands >= MIN_HANDS and abs(self.z) >= Z_FLAG

    @property
    def amount(self) -> int:
        return abs(self.net)

    @property
    def receiver(self) -> str:
        return self.a_name if self.net >= 0 else self.b_name

    @property
    def payer(self) -> str:
        return self.b_name if self.net >= 0 else self.a_name


@dataclass(frozen=True)
class PlayerRow:
    user: int
    name: str
    stake_level: str
    hands: int
    fouls: int
    autos: int
    level_foul_rate: float
    level_auto_rate: float

    @staticmethod
    def _z(k: int, n: int, p: float) -> float:
        return (k - n * p) / math.sqrt(n * p * (1 - p)) if n and 0 < p < 1 else 0.0

    @property
    def foul_rate(self) -> float:
        return self.fouls / self.hands if self.hands else 0.0

    @property
    def auto_rate(self) -> float:
        return self.autos / self.hands if self.hands else 0.0

    @property
    def foul_z(self) -> float:
        return self._z(self.fouls, self.hands, self.level_foul_rate)

    @property
    def auto_z(self) -> float:
        return self._z(self.autos, self.hands, self.level_auto_rate)

    @property
    def marked(self) -> bool:
        return self.hands >= MIN_HANDS and max(self.foul_z, self.auto_z) >= Z_PLAYER


def _since(days: int | None) -> datetime:
    return timezone.now() - timedelta(days=days) if days else datetime(1970, 1, 1, tzinfo=UTC)


def _flows_sql(pair_filter: str = "") -> str:
    """Per hand and pair of seats (a's user id below b's), the coins b's seat paid a's."""
    seat, record = HandRecordSeat._meta.db_table, HandRecord._meta.db_table
    return f"""
        WITH s AS (
            SELECT rs.record_id, rs.user_id, rs.coins,
                   -- a whole number: PostgreSQL's SUM of bigints is numeric, which made the
                   -- flows below fractions where they are whole coins, rounded down
                   CAST(SUM(CASE WHEN rs.coins > 0 THEN rs.coins ELSE 0 END)
                        OVER (PARTITION BY rs.record_id) AS BIGINT) AS won
            FROM {seat} rs JOIN {record} r ON r.id = rs.record_id
            WHERE r.finished_at >= %s
        )
        SELECT x.record_id, x.user_id AS a, y.user_id AS b,
               CASE WHEN x.coins > 0 AND y.coins < 0 THEN (x.coins * -y.coins) / x.won
                    WHEN x.coins < 0 AND y.coins > 0 THEN -((y.coins * -x.coins) / y.won)
                    ELSE 0 END AS flow
        FROM s x JOIN s y ON y.record_id = x.record_id AND x.user_id < y.user_id
        {pair_filter}
    """  # noqa: S608 - table names from the models, values as parameters


def pair_signals(*, days: int | None = None, min_hands: int = 1, limit: int = 500) -> list[Pair]:
    """Every pair with at least ``min_hands`` hands together, the most suspicious first."""
    user = User._meta.db_table
    sql = f"""
        SELECT f.a, f.b, ua.username, ub.username, COUNT(*), COALESCE(SUM(f.flow), 0),
               COALESCE(SUM(f.flow * f.flow), 0)
        FROM ({_flows_sql()}) f JOIN {user} ua ON ua.id = f.a JOIN {user} ub ON ub.id = f.b
        GROUP BY f.a, f.b, ua.username, ub.username
        HAVING COUNT(*) >= %s
    """  # noqa: S608
    with connection.cursor() as cur:
        cur.execute(sql, [_since(days), min_hands])
        pairs = [Pair(a, b, an, bn, int(n), int(net), int(sq)) for a, b, an, bn, n, net, sq in cur.fetchall()]
    pairs.sort(key=lambda p: (not p.flagged, -abs(p.z), -p.hands))
    return pairs[:limit]


def pair_flagged(*, days: int | None = None) -> list[Pair]:
    return [p for p in pair_signals(days=days, min_hands=MIN_HANDS, limit=10**9) if p.flagged]


def pair_hands(*, a: int, b: int, days: int | None = None, limit: int = 500) -> list[dict[str, Any]]:
    """The hands ``a`` and ``b`` played together, newest first, with the flow of each."""
    lo, hi = sorted((a, b))
    record = HandRecord._meta.db_table
    sql = f"""
        SELECT r.hand_id, f.flow, r.game, r.table_id, r.number, r.finished_at
        FROM ({_flows_sql("WHERE x.user_id = %s AND y.user_id = %s")}) f JOIN {record} r ON r.id = f.record_id
        ORDER BY r.finished_at DESC, r.id DESC
        LIMIT %s
    """  # noqa: S608
    sign = 1 if lo == a else -1
    with connection.cursor() as cur:
        cur.execute(sql, [_since(days), lo, hi, limit])
        return [{"hand": hand, "flow": sign * int(flow), "game": game, "table": table, "number": number,
                 "finished_at": at} for hand, flow, game, table, number, at in cur.fetchall()]


def _fouled_sql() -> str:
    """SQL true when the record's ``result.fouled`` marks the seat ``rs.seat``."""
    if connection.vendor == "postgresql":
        return "COALESCE((r.canonical::jsonb -> 'result' -> 'fouled' ->> rs.seat::int) = 'true', FALSE)"
    return "COALESCE(json_extract(r.canonical, '$.result.fouled[' || rs.seat || ']') = 1, 0)"


def player_signals(*, days: int | None = None, min_hands: int = 1) -> list[PlayerRow]:
    """Per player and stake level: hands, fouls and hands with an automatic move, against the
    stake level's rates; the most unusual first."""
    seat, record, action = HandRecordSeat._meta.db_table, HandRecord._meta.db_table, HandAction._meta.db_table
    user, level = User._meta.db_table, StakeLevel._meta.db_table
    sql = f"""
        WITH s AS (
            SELECT rs.user_id, r.stake_level_id,
                   CASE WHEN {_fouled_sql()} THEN 1 ELSE 0 END AS fouled,
                   CASE WHEN EXISTS (SELECT 1 FROM {action} ha WHERE ha.hand_id = r.hand_id
                                     AND ha.seat = rs.seat AND ha.auto) THEN 1 ELSE 0 END AS auto
            FROM {seat} rs JOIN {record} r ON r.id = rs.record_id
            WHERE r.finished_at >= %s
        ), p AS (
            SELECT user_id, stake_level_id, COUNT(*) AS hands, SUM(fouled) AS fouls, SUM(auto) AS autos
            FROM s GROUP BY user_id, stake_level_id
        ), l AS (
            SELECT stake_level_id, SUM(fouls) * 1.0 / SUM(hands) AS foul_rate,
                   SUM(autos) * 1.0 / SUM(hands) AS auto_rate
            FROM p GROUP BY stake_level_id
        )
        SELECT p.user_id, u.username, sl.name, p.hands, p.fouls, p.autos, l.foul_rate, l.auto_rate
        FROM p JOIN l ON l.stake_level_id = p.stake_level_id
        JOIN {user} u ON u.id = p.user_id JOIN {level} sl ON sl.id = p.stake_level_id
        WHERE p.hands >= %s
    """  # noqa: S608
    with connection.cursor() as cur:
        cur.execute(sql, [_since(days), min_hands])
        rows = [PlayerRow(uid, name, lvl, int(n), int(f), int(au), float(fr), float(ar))
                for uid, name, lvl, n, f, au, fr, ar in cur.fetchall()]
    rows.sort(key=lambda r: (not r.marked, -max(r.foul_z, r.auto_z), r.name))
    return rows


def grant_flow_flags(*, days: int | None = None) -> list[GrantFlowFlag]:
    """The players flagged for receiving welcome coins (recorded as hands settle,
    ``integrity.services``), newest first; ``days`` keeps those flagged or updated since."""
    flags = GrantFlowFlag.objects.select_related("receiver").order_by("-flagged_at", "-pk")
    return list(flags.filter(updated_at__gte=_since(days))[:500])


def grant_flow_rule() -> dict[str, int]:
    """The thresholds the welcome-coins signal applies (settings), for its page."""
    return {"account_days": settings.GRANT_FLOW_ACCOUNT_DAYS, "window_days": settings.GRANT_FLOW_WINDOW_DAYS,
            "hands": settings.GRANT_FLOW_HANDS, "min_coins": settings.GRANT_FLOW_MIN_COINS,
            "percent": settings.GRANT_FLOW_ONE_SIDED_PERCENT}
