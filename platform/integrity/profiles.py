"""Reads of the stored signals (docs/INTEGRITY.md "Stored as hands settle"): the pairs and
players pages for all time, and one player's page — lifetime net and commission by stake level,
limits and losses, linked accounts, cases. Each is a few indexed queries over the stored rows,
whatever the number of hands."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import Q, Sum
from django.utils import timezone

from accounts.models import User
from integrity.judge import Sums, pair_bets_z, z_sum
from integrity.models import Case, PairSignal, PlayerSignal
from integrity.selectors import Pair, PlayerRow
from responsible.selectors import limit_history, limit_refusals, limits_current, table_loss

_z = z_sum


@dataclass(frozen=True)
class StoredPair:
    row: PairSignal
    other: str
    #: The bets test of each way (``a`` with ``b`` banking, ``b`` with ``a``).
    bets: tuple[float, float] = (0.0, 0.0)

    @property
    def flow_z(self) -> float:
        return _z(self.row.flow_net, self.row.flow_sq)

    @property
    def gift_z(self) -> float:
        return _z(self.row.gift_net, self.row.gift_sq)

    @property
    def info_z(self) -> float:
        return _z(self.row.info_net, self.row.info_sq)

    @property
    def favour_z(self) -> float:
        """The favour test of the way nearer its flag."""
        return max(_z(self.row.favour_ab_net, self.row.favour_ab_sq), _z(self.row.favour_ba_net, self.row.favour_ba_sq))

    @property
    def bets_z(self) -> float:
        """The bets test of the way nearer its flag."""
        return min(self.bets)


def bets_by_player(*, users: Iterable[int]) -> dict[int, Sums]:
    """Each player's bet lean with any banker, over every stake level (one statement)."""
    rows = PlayerSignal.objects.filter(user_id__in=list(users), bet_hands__gt=0).values("user_id").annotate(
        n=Sum("bet_hands"), net=Sum("bet_net"), sq=Sum("bet_sq"))
    return {r["user_id"]: Sums(int(r["n"]), int(r["net"]), int(r["sq"])) for r in rows}


def pair_signals_stored(*, limit: int = 500) -> list[Pair]:
    """The stored pairs, those with the most hands first, ordered as the pairs page lists them
    (flagged first)."""
    rows = PairSignal.objects.select_related("a", "b").order_by("-hands", "a_id", "b_id")[:limit]
    pairs = [Pair(p.a_id, p.b_id, p.a.username, p.b.username, p.hands, p.flow_net, p.flow_sq) for p in rows]
    pairs.sort(key=lambda p: (not p.flagged, -abs(p.z), -p.hands))
    return pairs


def pair_flagged_stored() -> list[PairSignal]:
    """Every pair a stored signal flagged, the most recent first."""
    return list(PairSignal.objects.exclude(flags=[]).select_related("a", "b").order_by("-flagged_at")[:500])


def player_profile(*, user: User) -> dict[str, Any]:
    """Everything the player page shows (money in minor units)."""
    now = timezone.now()
    levels = list(PlayerSignal.objects.filter(user=user).select_related("stake_level").order_by("stake_level__name"))
    totals = PlayerSignal.objects.filter(user=user).aggregate(net=Sum("coins", default=0),
                                                              commission=Sum("commission", default=0),
                                                              hands=Sum("hands", default=0))
    pairs = PairSignal.objects.filter(Q(a=user) | Q(b=user)).select_related("a", "b")
    flagged, most = list(pairs.exclude(flags=[]).order_by("-flagged_at")[:50]), list(pairs.order_by("-hands")[:10])
    bets = bets_by_player(users={u for p in flagged + most for u in (p.a_id, p.b_id)})

    def stored(p: PairSignal) -> StoredPair:
        return StoredPair(p, (p.b if p.a_id == user.pk else p.a).username, pair_bets_z(p, bets))

    linked, partners = [stored(p) for p in flagged], [stored(p) for p in most]
    return {
        "levels": levels, "net": int(totals["net"]), "commission": int(totals["commission"]),
        "hands": int(totals["hands"]),
        "limits": limits_current(user=user, now=now),
        "loss_today": table_loss(user=user, since=now - timedelta(days=1)),
        "loss_week": table_loss(user=user, since=now - timedelta(days=7)),
        "limit_changes": limit_history(user=user),
        "limit_refusals": limit_refusals(user=user),
        "linked": linked, "partners": partners,
        "cases": list(Case.objects.filter(accounts=user).select_related("assignee").order_by("-opened_at")[:50]),
    }


def player_signals_stored(*, min_hands: int = 1) -> list[PlayerRow]:
    """Per player and stake level, as stored: the players page for all time (two queries)."""
    rates = {row["stake_level_id"]: row for row in PlayerSignal.objects.values("stake_level_id").annotate(
        n=Sum("hands"), f=Sum("fouls"), a=Sum("autos"))}
    rows = [
        PlayerRow(p.user_id, p.user.username, p.stake_level.name, p.hands, p.fouls, p.autos,
                  rates[p.stake_level_id]["f"] / rates[p.stake_level_id]["n"],
                  rates[p.stake_level_id]["a"] / rates[p.stake_level_id]["n"])
        for p in PlayerSignal.objects.filter(hands__gte=min_hands).select_related("user", "stake_level")
    ]
    rows.sort(key=lambda r: (not r.marked, -max(r.foul_z, r.auto_z), r.name))
    return rows
