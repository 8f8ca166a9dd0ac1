"""Immutable hand records (docs/HAND_HISTORY.md): one per settled hand, chained per table.

A record stores the canonical JSON text of its body (:mod:`games.engine.record`) and the SHA-256
of it; the body includes the previous record's hash of the same table, so deleting or
altering a record breaks the chain. Rows are written once by
:func:`history.services.hand_record_write` and never changed: ``save`` of an existing row,
``delete`` and queryset ``update`` / ``delete`` raise :class:`ImmutableRecord`, and on
PostgreSQL a trigger refuses UPDATE and DELETE (migration 0002).
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine.registry import engine_for


class ImmutableRecord(Exception):
    """Hand records are append-only: a correction is a dispute and a new ledger transaction."""


_M = TypeVar("_M", bound=models.Model)


class AppendOnlyQuerySet(models.QuerySet[_M]):
    def update(self, **kwargs: Any) -> int:
        raise ImmutableRecord(f"{self.model.__name__} rows are append-only: UPDATE refused")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord(f"{self.model.__name__} rows are append-only: DELETE refused")


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ImmutableRecord(f"{type(self).__name__} rows are append-only: UPDATE refused")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord(f"{type(self).__name__} rows are append-only: DELETE refused")


class HandRecord(AppendOnlyModel):
    hand = models.OneToOneField("games.Hand", on_delete=models.PROTECT, related_name="record", verbose_name=_("hand"))
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="hand_records", verbose_name=_("table")
    )
    stake_level = models.ForeignKey(
        "tables.StakeLevel", on_delete=models.PROTECT, related_name="hand_records", verbose_name=_("stake level")
    )
    game = models.CharField(_("game"), max_length=20)
    number = models.PositiveIntegerField(_("hand number"))
    #: Position in the table's chain (1, 2, 3...) and the hash of the record before (zeros for the first).
    chain_seq = models.PositiveIntegerField(_("chain position"))
    prev_hash = models.CharField(_("previous hash"), max_length=64)
    hash = models.CharField(_("hash"), max_length=64, unique=True)
    #: The record body as canonical JSON: exactly the text that was hashed.
    canonical = models.TextField(_("record"))
    started_at = models.DateTimeField(_("started"))
    finished_at = models.DateTimeField(_("finished"))
    ledger_transaction_id = models.BigIntegerField(_("ledger transaction"), null=True, blank=True)
    recorded_at = models.DateTimeField(_("recorded"), default=timezone.now)

    class Meta:
        ordering = ("-id",)
        verbose_name = _("hand record")
        verbose_name_plural = _("hand records")
        constraints = [
            models.UniqueConstraint(fields=["table", "chain_seq"], name="history_one_record_per_chain_position"),
        ]
        indexes = [
            models.Index(fields=["finished_at", "id"], name="history_record_finished"),
            models.Index(fields=["game", "id"], name="history_record_game"),
        ]

    def __str__(self) -> str:
        """The hand by its public hand id (the hand's own id; docs/HAND_HISTORY.md)."""
        return gettext("Hand %(id)s (%(game)s)") % {"id": self.hand_id, "game": gettext(engine_for(self.game).label)}

    @property
    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.canonical)
        return data


class HandRecordSeat(AppendOnlyModel):
    """Who sat where in a recorded hand and their net coins: for "my hands" and player filters."""

    record = models.ForeignKey(HandRecord, on_delete=models.PROTECT, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hand_record_seats")
    seat = models.PositiveSmallIntegerField()
    coins = models.BigIntegerField()

    class Meta:
        ordering = ("record", "seat")
        constraints = [models.UniqueConstraint(fields=["record", "seat"], name="history_one_player_per_seat")]
        indexes = [models.Index(fields=["user", "record"], name="history_seat_user")]

    def __str__(self) -> str:
        return f"{self.record_id}#{self.seat}: {self.user_id}"


class VoidedHandSeat(AppendOnlyModel):
    """A player's row for a hand the platform voided (docs/HAND_HISTORY.md "Voided hands"): the
    hand settled nothing, so it has no record in the hash chain and every stake stayed in its
    seat's table money; this row is what the player's history shows of it and what a complaint
    about it names. Written once by :func:`history.services.hand_void_seats_write`."""

    hand = models.ForeignKey("games.Hand", on_delete=models.PROTECT, related_name="voided_seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="voided_hand_seats")
    seat = models.PositiveSmallIntegerField()
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    stake_level = models.ForeignKey("tables.StakeLevel", on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("hand number"))
    voided_at = models.DateTimeField(_("voided"))
    reason = models.CharField(_("reason"), max_length=200)

    class Meta:
        ordering = ("-voided_at", "-id")
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="history_one_voided_row_per_seat")]
        indexes = [models.Index(fields=["user", "voided_at"], name="history_voided_user")]

    def __str__(self) -> str:
        return f"hand {self.hand_id}#{self.seat} voided: {self.user_id}"
