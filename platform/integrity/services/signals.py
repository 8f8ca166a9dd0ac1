"""The stored signals brought up to date from the hand records (docs/INTEGRITY.md "Stored as hands
settle"): a batch takes in the records settled since the last one, in record order, adds each
hand's figures (``integrity.figures``) to its pairs and players, judges the pairs it touched and
opens a case for each new flag (``integrity.services.cases``).

It runs outside live play: the beat sends ``integrity.signals_update`` every
``INTEGRITY_SIGNALS_EVERY`` seconds, and a batch takes records settled at least
``INTEGRITY_SIGNALS_LAG`` seconds ago, so a settlement that committed a little after a later one
is not skipped. A live action runs no statement of it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.adapters import engine
from games.models import HandAction
from history.models import HandRecord, HandRecordSeat
from integrity.figures import HandFigures, PairHand, hand_figures
from integrity.judge import Sums, pair_bets_z, z_sum
from integrity.models import PairSignal, PairTable, PlayerSignal, SignalCursor
from integrity.profiles import bets_by_player
from integrity.selectors import MIN_HANDS, Z_BETS, Z_FAVOUR, Z_FLAG, Z_INFO
from integrity.services.cases import cases_open_for_flags, cases_open_for_welcome
from kernel.background import machine_busy

CURSOR = "signals"


@dataclass
class Tally:
    """The stored rows a batch adds to, in memory (also what the benchmark plays into)."""

    pairs: dict[tuple[int, int], PairSignal] = field(default_factory=dict)
    tables: dict[tuple[int, int, int], PairTable] = field(default_factory=dict)
    players: dict[tuple[int, int], PlayerSignal] = field(default_factory=dict)
    new_pairs: set[tuple[int, int]] = field(default_factory=set)
    new_tables: set[tuple[int, int, int]] = field(default_factory=set)
    new_players: set[tuple[int, int]] = field(default_factory=set)
    flagged_hand: dict[tuple[int, int], int] = field(default_factory=dict)
    #: Per record: its ``(seat, user)``; the ``(hand, seat)`` that had an automatic move.
    seats: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    autos: set[tuple[int, int]] = field(default_factory=set)
    #: Per player, over every stake level: its bet lean with any banker (the bets test's baseline).
    bets: dict[int, Sums] = field(default_factory=dict)
    #: ``tables`` by pair: the tables a pair played at, for the count of tables at once.
    pair_tables: dict[tuple[int, int], list[PairTable]] = field(default_factory=dict)

    def table_add(self, row: PairTable) -> None:
        """A pair's table, stored or new."""
        self.tables[(row.a_id, row.b_id, row.table_id)] = row
        self.pair_tables.setdefault((row.a_id, row.b_id), []).append(row)


def pair_flags(pair: PairSignal, bets: dict[int, Sums] | None = None) -> list[str]:
    """The flags a pair's figures raise (docs/INTEGRITY.md "What the stored signals measure");
    ``bets``: each player's bet lean with any banker, the bets test's baseline."""
    flags = []
    if pair.hands >= MIN_HANDS and abs(z_sum(pair.flow_net, pair.flow_sq)) >= Z_FLAG:
        flags.append(PairSignal.Flag.FLOW)
    if pair.hands >= MIN_HANDS and abs(z_sum(pair.gift_net, pair.gift_sq)) >= Z_FLAG:
        flags.append(PairSignal.Flag.GIFT)
    if pair.info_hands >= MIN_HANDS and z_sum(pair.info_net, pair.info_sq) >= Z_INFO:
        flags.append(PairSignal.Flag.INFO)
    if pair.info_hands >= MIN_HANDS and max(z_sum(pair.favour_ab_net, pair.favour_ab_sq),
                                            z_sum(pair.favour_ba_net, pair.favour_ba_sq)) >= Z_FAVOUR:
        flags.append(PairSignal.Flag.FAVOUR)
    if min(pair_bets_z(pair, bets or {})) <= -Z_BETS:
        flags.append(PairSignal.Flag.BETS)
    if pair.tables_at_once >= settings.INTEGRITY_TABLES_AT_ONCE:
        flags.append(PairSignal.Flag.TABLES)
    return [str(f) for f in flags]


def signals_wait() -> bool:
    """Whether the next batch waits: the machine is busy (``INTEGRITY_SIGNALS_BUSY_CPU``) and no
    record has waited ``INTEGRITY_SIGNALS_MAX_WAIT`` seconds for a batch (a CPU-bound batch would
    take its cores from live play; past the wait it runs anyway, so the signals never fall behind
    for good)."""
    if not machine_busy(settings.INTEGRITY_SIGNALS_BUSY_CPU):
        return False
    after = SignalCursor.objects.filter(name=CURSOR).values_list("record_id", flat=True).first() or 0
    oldest = HandRecord.objects.filter(pk__gt=after).order_by("pk").values_list("finished_at", flat=True).first()
    return oldest is None or oldest > timezone.now() - timedelta(seconds=settings.INTEGRITY_SIGNALS_MAX_WAIT)


def signals_update(*, limit: int | None = None, settled_before: datetime | None = None) -> int:
    """Take in up to ``limit`` records (``INTEGRITY_SIGNALS_BATCH``) settled before
    ``settled_before`` (now less ``INTEGRITY_SIGNALS_LAG``); how many were taken in.

    1. The cursor row is locked: two batches never take in the same records.
    2. The records after it are read with their seats and automatic moves (three statements).
    3. The figures are added to the pairs, pair tables and players in memory, written in bulk.
    4. Every pair whose flags grew is judged and gets a case; the cursor moves past the batch.
    """
    limit = limit or settings.INTEGRITY_SIGNALS_BATCH
    if settled_before is None:
        settled_before = timezone.now() - timedelta(seconds=settings.INTEGRITY_SIGNALS_LAG)
    with transaction.atomic():
        SignalCursor.objects.get_or_create(name=CURSOR)
        cursor = SignalCursor.objects.select_for_update().get(name=CURSOR)
        records = list(HandRecord.objects.filter(pk__gt=cursor.record_id, finished_at__lt=settled_before)
                       .order_by("pk").only("pk", "hand_id", "table_id", "stake_level_id", "game", "canonical",
                                            "finished_at")[:limit])
        if not records:
            return 0
        batch = _batch_load(records)
        for record in records:
            tally_take_in(batch, record)
        _batch_save(batch)
        _judge(batch)
        cursor.record_id = records[-1].pk
        cursor.updated_at = timezone.now()
        cursor.save(update_fields=["record_id", "updated_at"])
    return len(records)


def _batch_load(records: list[HandRecord]) -> Tally:
    """The seats and automatic moves of the records, and the stored rows they will add to."""
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for record_id, seat, user in HandRecordSeat.objects.filter(record__in=records).values_list(
            "record_id", "seat", "user_id"):
        seats[record_id].append((seat, user))
    autos = {(hand, seat) for hand, seat in HandAction.objects.filter(
        hand_id__in=[r.hand_id for r in records], auto=True).values_list("hand_id", "seat") if seat is not None}
    batch = Tally(seats=dict(seats), autos=autos)
    users = {u for rows in seats.values() for _s, u in rows}
    for pair in PairSignal.objects.filter(a_id__in=users, b_id__in=users):
        batch.pairs[(pair.a_id, pair.b_id)] = pair
    for row in PairTable.objects.filter(a_id__in=users, b_id__in=users):
        batch.table_add(row)
    levels = {r.stake_level_id for r in records}
    for player in PlayerSignal.objects.filter(user_id__in=users, stake_level_id__in=levels):
        batch.players[(player.user_id, player.stake_level_id)] = player
    batch.bets = bets_by_player(users=users)
    return batch


def tally_take_in(batch: Tally, record: Any) -> None:
    rows = sorted(batch.seats.get(record.pk, []))
    user_of = dict(rows)
    order = [(sa, sb) for sa, ua in rows for sb, ub in rows if ua < ub]
    figures = hand_figures(engine(record.game), record.body, order)
    at = record.finished_at
    for seat, user in rows:
        _player_add(batch, user, record, seat, figures)
    for (sa, sb), hand in figures.pairs.items():
        key = (user_of[sa], user_of[sb])
        pair = batch.pairs.get(key)
        if pair is None:
            pair = batch.pairs[key] = PairSignal(a_id=key[0], b_id=key[1], first_at=at, last_at=at)
            batch.new_pairs.add(key)
        pair.hands += 1
        pair.flow_net += hand.flow
        pair.flow_sq += hand.flow * hand.flow
        if hand.gift is not None:
            pair.gift_net += hand.gift
            pair.gift_sq += hand.gift * hand.gift
        if hand.info is not None:
            pair.info_hands += 1
            pair.info_net += hand.info
            pair.info_sq += hand.info * hand.info
        _leans_add(pair, hand)
        pair.last_at = at
        pair.tables_at_once = max(pair.tables_at_once, _tables_at_once(batch, key, record.table_id, at))
        if set(pair_flags(pair, batch.bets)) - set(pair.flags):
            batch.flagged_hand[key] = record.hand_id


def _leans_add(pair: PairSignal, hand: PairHand) -> None:
    """The pair's favour (each way) and bets (each way) of one hand."""
    if hand.favour_ab is not None and hand.favour_ba is not None:
        pair.favour_ab_net += hand.favour_ab
        pair.favour_ab_sq += hand.favour_ab * hand.favour_ab
        pair.favour_ba_net += hand.favour_ba
        pair.favour_ba_sq += hand.favour_ba * hand.favour_ba
    if hand.bet_ab is not None:
        pair.bet_ab_hands += 1
        pair.bet_ab_net += hand.bet_ab
        pair.bet_ab_sq += hand.bet_ab * hand.bet_ab
    if hand.bet_ba is not None:
        pair.bet_ba_hands += 1
        pair.bet_ba_net += hand.bet_ba
        pair.bet_ba_sq += hand.bet_ba * hand.bet_ba


def _tables_at_once(batch: Tally, key: tuple[int, int], table_id: int, at: datetime) -> int:
    """Record the pair's hand at the table; at how many tables they are playing together at
    once: this one, and each other one where they played a hand together since they first sat
    together here, within ``INTEGRITY_AT_ONCE_SECONDS`` (moving together from one table to
    another is not two at once)."""
    tkey = (*key, table_id)
    row = batch.tables.get(tkey)
    if row is None:
        row = PairTable(a_id=key[0], b_id=key[1], table_id=table_id, first_at=at, last_at=at)
        batch.table_add(row)
        batch.new_tables.add(tkey)
    row.hands += 1
    row.last_at = max(row.last_at, at)
    since = max(at - timedelta(seconds=settings.INTEGRITY_AT_ONCE_SECONDS), row.first_at)
    return sum(1 for other in batch.pair_tables[key] if other.last_at >= since)


def _player_add(batch: Tally, user: int, record: Any, seat: int, figures: HandFigures) -> None:
    coins, fouled, play = figures.coins[seat], figures.fouled[seat], figures.play[seat]
    key = (user, record.stake_level_id)
    player = batch.players.get(key)
    if player is None:
        player = batch.players[key] = PlayerSignal(user_id=user, stake_level_id=record.stake_level_id)
        batch.new_players.add(key)
    player.hands += 1
    player.fouls += int(fouled)
    player.autos += int((record.hand_id, seat) in batch.autos)
    player.coins += coins
    player.commission += figures.commissions[seat]
    if play is not None:
        player.worth_hands += 1
        player.play_net += play
        player.play_sq += play * play
    bet = figures.bet[seat] if figures.bet else None
    if bet is not None:
        player.bet_hands += 1
        player.bet_net += bet
        player.bet_sq += bet * bet
        batch.bets.setdefault(user, Sums()).add(bet)


def _save(model: Any, rows: dict[Any, Any], new: set[Any], fields: Iterable[str]) -> None:
    """The batch's rows: the new ones inserted, the others written over by id in one
    ``INSERT … ON CONFLICT (id) DO UPDATE`` a 500 rows (both databases run it). ``bulk_update``
    builds a ``CASE`` of one branch per row for every field, and that took most of the sweeper's
    CPU at 40 tables (bench/README.md "Live play")."""
    model.objects.bulk_create([row for key, row in rows.items() if key in new])
    old = [row for key, row in rows.items() if key not in new]
    if old:
        model.objects.bulk_create(old, update_conflicts=True, unique_fields=["pk"], update_fields=list(fields),
                                  batch_size=500)


def _batch_save(batch: Tally) -> None:
    _save(PairSignal, batch.pairs, batch.new_pairs,
          ("hands", "flow_net", "flow_sq", "gift_net", "gift_sq", "info_hands", "info_net", "info_sq",
           "favour_ab_net", "favour_ab_sq", "favour_ba_net", "favour_ba_sq", "bet_ab_hands", "bet_ab_net",
           "bet_ab_sq", "bet_ba_hands", "bet_ba_net", "bet_ba_sq", "tables_at_once", "last_at"))
    _save(PairTable, batch.tables, batch.new_tables, ("hands", "last_at"))
    _save(PlayerSignal, batch.players, batch.new_players,
          ("hands", "fouls", "autos", "coins", "commission", "worth_hands", "play_net", "play_sq",
           "bet_hands", "bet_net", "bet_sq"))


def _judge(batch: Tally) -> None:
    """Pairs whose flags changed in the batch: store the flags, open a case for new ones."""
    now = timezone.now()
    grown = []
    for key, hand_id in batch.flagged_hand.items():
        pair = PairSignal.objects.get(a_id=key[0], b_id=key[1])
        flags = pair_flags(pair, batch.bets)
        if set(flags) - set(pair.flags):
            grown.append(pair)
        pair.flags = sorted(set(pair.flags) | set(flags))
        if pair.flagged_at is None and flags:
            pair.flagged_at, pair.flagged_hand_id = now, hand_id
        pair.save(update_fields=["flags", "flagged_at", "flagged_hand_id"])
    cases_open_for_flags(pairs=grown)
    cases_open_for_welcome()
