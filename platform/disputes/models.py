"""Disputes about a hand a player played — a recorded hand, or one the platform voided (its
player's ``history.VoidedHandSeat`` row): open → under review → upheld / rejected.

A dispute never edits the hand's history: an upheld dispute may pay a compensation through
the wallet (its own transaction kind, referencing the dispute). Every change is a
:class:`DisputeEvent` with its actor and time; events are append-only. Rows change only
through :mod:`disputes.services`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from history.models import AppendOnlyModel


class Dispute(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        UNDER_REVIEW = "under_review", _("under review")
        UPHELD = "upheld", _("upheld")
        REJECTED = "rejected", _("rejected")

    class Category(models.TextChoices):
        RESULT = "result", _("wrong result or payout")
        CARDS = "cards", _("cards or deal")
        AUTO_PLAY = "auto_play", _("automatic play or disconnection")
        TIMING = "timing", _("timer")
        OTHER = "other", _("other")

    record = models.ForeignKey(
        "history.HandRecord", on_delete=models.PROTECT, related_name="disputes", verbose_name=_("hand"),
        null=True, blank=True,
    )
    #: A voided hand has no record: the dispute names the player's voided row instead.
    voided = models.ForeignKey(
        "history.VoidedHandSeat", on_delete=models.PROTECT, related_name="disputes", verbose_name=_("voided hand"),
        null=True, blank=True,
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="disputes", verbose_name=_("player")
    )
    category = models.CharField(_("category"), max_length=20, choices=Category.choices)
    text = models.TextField(_("what happened"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.OPEN)
    #: Shown to the player once the dispute is resolved.
    reason = models.TextField(_("reason"), blank=True, default="")
    compensation = models.BigIntegerField(_("compensation (minor units)"), default=0)
    compensation_transaction_id = models.BigIntegerField(_("compensation transaction"), null=True, blank=True)
    opened_at = models.DateTimeField(_("opened"), default=timezone.now)
    resolved_at = models.DateTimeField(_("resolved"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("resolved by"),
    )

    class Meta:
        ordering = ("-id",)
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        constraints = [
            models.UniqueConstraint(fields=["record", "player"], name="disputes_one_per_player_and_hand"),
            models.UniqueConstraint(fields=["voided"], name="disputes_one_per_voided_row"),
            models.CheckConstraint(
                condition=Q(record__isnull=False, voided__isnull=True) | Q(record__isnull=True, voided__isnull=False),
                name="disputes_names_a_record_or_a_voided_hand",
            ),
            models.CheckConstraint(condition=Q(compensation__gte=0), name="disputes_compensation_not_negative"),
            models.CheckConstraint(
                condition=Q(compensation=0) | Q(status="upheld"), name="disputes_compensation_only_when_upheld"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_status_display()}"

    @property
    def hand_id(self) -> int:
        """The hand disputed, recorded or voided."""
        return self.record.hand_id if self.record is not None else self._voided.hand_id

    @property
    def hand_table(self) -> Any:
        return self.record.table if self.record is not None else self._voided.table

    @property
    def _voided(self) -> Any:
        assert self.voided is not None  # the CHECK constraint: a record or a voided row
        return self.voided

    @property
    def resolved(self) -> bool:
        return self.status in (self.Status.UPHELD, self.Status.REJECTED)


class DisputeEvent(AppendOnlyModel):
    class Kind(models.TextChoices):
        OPENED = "opened", _("opened")
        REVIEW = "review", _("review started")
        NOTE = "note", _("note")
        UPHELD = "upheld", _("upheld")
        REJECTED = "rejected", _("rejected")
        COMPENSATED = "compensated", _("compensation paid")

    dispute = models.ForeignKey(Dispute, on_delete=models.PROTECT, related_name="events", verbose_name=_("dispute"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("actor")
    )
    at = models.DateTimeField(_("time"), default=timezone.now)
    from_status = models.CharField(_("from"), max_length=20, blank=True, default="")
    to_status = models.CharField(_("to"), max_length=20, blank=True, default="")
    note = models.TextField(_("note"), blank=True, default="")
    data = models.JSONField(_("data"), default=dict, blank=True)

    class Meta:
        ordering = ("dispute", "id")
        verbose_name = _("dispute event")
        verbose_name_plural = _("dispute events")

    def __str__(self) -> str:
        return f"{self.dispute_id} {self.kind}"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "actor": self.actor_id, "at": self.at.isoformat(), "from": self.from_status,
                "to": self.to_status, "note": self.note, "data": self.data}
