"""Reading hand records: who may see what, filters for exports, the viewer's copy of a record."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Max, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.permissions import AnyUser, can_read_hands
from games.engine.record import player_copy
from history.models import HandRecord, VoidedHandSeat
from wallet.presenters import AWAY_MEMO, table_number
from wallet.selectors import wallet_cash_out_list


def parse_moment(text: str, *, end: bool = False) -> dt.datetime:
    """An ISO date or date-time, in the site's time zone (``TIME_ZONE``, UTC) when it names none.

    A bare date is the whole day: the start of that day, or with ``end`` the start of the next
    day, so ``until=2026-01-31`` includes every hand of the 31st, up to 23:59:59.999999. The
    date is read before the date-time: Python reads ``2026-01-31`` as a date-time too (its
    midnight), which as an exclusive ``until`` would drop the whole day. Anything else, an
    impossible date (2026-02-30) included, is a ``ValueError``
    with a message a person can read.
    """
    text = text.strip()
    try:
        day = parse_date(text)
        if day is not None:
            if end and day == dt.date.max:  # the calendar's last day has no next one: its last instant
                return timezone.make_aware(dt.datetime.max, timezone.get_default_timezone())
            moment = dt.datetime.combine(day, dt.time.min) + (dt.timedelta(days=1) if end else dt.timedelta())
            return timezone.make_aware(moment, timezone.get_default_timezone())
        parsed = parse_datetime(text)
        if parsed is not None:
            return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, timezone.get_default_timezone())
    except (ValueError, OverflowError):
        pass
    raise ValueError(_("Expected a date (2026-01-31) or a date and time (2026-01-31T12:00:00Z)."))


def user_lookup(value: str | int) -> User | None:
    """A player by id or username."""
    text = str(value).strip()
    if text.isdigit():
        return User.objects.filter(pk=int(text)).first()
    return User.objects.filter(username=text).first()


@dataclass(frozen=True)
class RecordFilter:
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    game: str | None = None
    stake_level: int | None = None
    table: int | None = None
    player: int | None = None


def hand_record_filter(filters: RecordFilter) -> QuerySet[HandRecord]:
    """Records finished in ``[since, until)`` of a game, stake level, table and player, oldest first
    (insertion order, so each table's chain reads in order)."""
    records = HandRecord.objects.all()
    if filters.since is not None:
        records = records.filter(finished_at__gte=filters.since)
    if filters.until is not None:
        records = records.filter(finished_at__lt=filters.until)
    if filters.game:
        records = records.filter(game=filters.game)
    if filters.stake_level is not None:
        records = records.filter(stake_level_id=filters.stake_level)
    if filters.table is not None:
        records = records.filter(table_id=filters.table)
    if filters.player is not None:
        records = records.filter(seats__user_id=filters.player)
    return records.order_by("id")


def hand_record_list_for_player(*, user: User) -> QuerySet[HandRecord]:
    """The player's recorded hands, newest first, each with ``my_seat`` and ``my_coins``."""
    return (
        HandRecord.objects.filter(seats__user=user)
        .annotate(my_seat=F("seats__seat"), my_coins=F("seats__coins"))
        .select_related("table", "stake_level")
        .order_by("-id")
    )


def voided_hand_list_for_player(*, user: User, limit: int = 30) -> list[VoidedHandSeat]:
    """The player's hands the platform voided, newest first (docs/HAND_HISTORY.md "Voided hands")."""
    return list(VoidedHandSeat.objects.filter(user=user).select_related("stake_level")[:limit])


@dataclass(frozen=True)
class AwayStandUp:
    """A seat of the player stood up because they were away: its table, the coins it brought back
    to their wallet (minor units), when."""

    table_id: int | None
    coins: int
    at: dt.datetime


def away_stand_up_list_for_player(*, user: User, limit: int = 30) -> list[AwayStandUp]:
    """The player's seats stood up while they were away, newest first (docs/HAND_HISTORY.md
    "Stood up while away"): read from the wallet's cash-outs made for that reason, the one record
    such a stand-up leaves (``games.services.away`` stands the seat up through ``seat_remove``)."""
    rows = []
    for entry in wallet_cash_out_list(user=user, memo=AWAY_MEMO, limit=limit):
        number = table_number(entry.transaction.reference)
        rows.append(AwayStandUp(table_id=int(number) if number.isdigit() else None, coins=entry.amount,
                                at=entry.transaction.created_at))
    return rows


def record_with_hash(record: HandRecord) -> dict[str, Any]:
    body = record.body
    body["hash"] = record.hash
    return body


def _viewable(user: AnyUser, record: HandRecord | None) -> HandRecord:
    if record is None or not user.is_authenticated:
        raise Http404
    if not can_read_hands(user) and not record.seats.filter(user_id=user.pk).exists():
        raise Http404
    return record


def hand_record_for_viewer(*, user: AnyUser, hand_id: int) -> tuple[HandRecord, dict[str, Any]]:
    """The record of the hand ``hand_id`` (the public hand id, docs/HAND_HISTORY.md) and the
    body ``user`` may see: complete for those who may read every hand (``can_read_hands``), the
    player's copy for a player of the hand, and 404 for anyone else (no hint it exists)."""
    record = HandRecord.objects.select_related("table", "stake_level").filter(hand_id=hand_id).first()
    if record is None or not user.is_authenticated:
        raise Http404
    if can_read_hands(user):
        return record, record_with_hash(record)
    seat = record.seats.filter(user_id=user.pk).values_list("seat", flat=True).first()
    if seat is None:
        raise Http404
    return record, player_copy(record_with_hash(record), seat)


def hand_record_player_copy(*, record: HandRecord, user: User) -> dict[str, Any] | None:
    """``record`` as ``user``, a player of the hand, may see it (their copy); None if they were
    not dealt into it."""
    seat = record.seats.filter(user_id=user.pk).values_list("seat", flat=True).first()
    return None if seat is None else player_copy(record_with_hash(record), seat)


def hand_id_of_record(*, user: AnyUser, record_pk: int) -> int:
    """The public hand id of the record row ``record_pk`` (the replay's old address), for a
    viewer who may see it; 404 otherwise."""
    return _viewable(user, HandRecord.objects.filter(pk=record_pk).first()).hand_id


def chain_heads() -> list[dict[str, Any]]:
    """Each table's last record (position and hash): what an export's chain must end with."""
    heads = HandRecord.objects.values("table_id").annotate(seq=Max("chain_seq")).order_by("table_id")
    wanted = {(h["table_id"], h["seq"]) for h in heads}
    rows = HandRecord.objects.filter(chain_seq__in={s for _, s in wanted}).values(
        "table_id", "chain_seq", "hash", "finished_at"
    )
    return sorted(
        ({"table": r["table_id"], "seq": r["chain_seq"], "hash": r["hash"], "finished_at": r["finished_at"]}
         for r in rows if (r["table_id"], r["chain_seq"]) in wanted),
        key=lambda r: r["table"],
    )


def body_of(canonical: str, digest: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(canonical)
    body["hash"] = digest
    return body
