"""What the settlement records for the welcome-coins signal (docs/INTEGRITY.md "Welcome coins
passed on"): the coins that moved between players in a hand where one of them was grant-funded,
and the players flagged for receiving them. Written by ``integrity.services`` only."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class GrantFlow(models.Model):
    """Coins ``payer`` paid ``receiver`` in one settled hand (the pair netting of
    ``integrity.selectors``), kept where either was grant-funded at the time: an account younger
    than ``GRANT_FLOW_ACCOUNT_DAYS`` that was given welcome coins."""

    hand_id = models.BigIntegerField(_("hand"))
    payer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    receiver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    amount = models.BigIntegerField(_("coins (minor units)"))
    payer_funded = models.BooleanField(_("payer grant-funded"))
    receiver_funded = models.BooleanField(_("receiver grant-funded"))
    created_at = models.DateTimeField(_("settled"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("coins between players")
        verbose_name_plural = _("coins between players")
        constraints = [
            models.UniqueConstraint(fields=["hand_id", "payer", "receiver"], name="integrity_grant_flow_once"),
            models.CheckConstraint(condition=Q(amount__gt=0) & ~Q(payer=F("receiver")),
                                   name="integrity_grant_flow_positive"),
        ]
        indexes = [models.Index(fields=["receiver", "created_at"]), models.Index(fields=["payer", "created_at"])]

    def __str__(self) -> str:
        return f"hand {self.hand_id}: {self.payer_id} → {self.receiver_id} {self.amount}"


class GrantFlowFlag(models.Model):
    """A player who received welcome coins from grant-funded players past the thresholds, with
    the figures of the window when the last hand was recorded."""

    receiver = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                    related_name="grant_flow_flag")
    flagged_at = models.DateTimeField(_("flagged"))
    flagged_hand_id = models.BigIntegerField(_("flagged at hand"))
    updated_at = models.DateTimeField(_("updated"))
    hands = models.PositiveIntegerField(_("hands"))
    payers = models.PositiveIntegerField(_("grant-funded payers"))
    received = models.BigIntegerField(_("received"))
    paid = models.BigIntegerField(_("paid back"))

    class Meta:
        verbose_name = _("welcome coins passed on")
        verbose_name_plural = _("welcome coins passed on")
        ordering = ["-flagged_at"]

    def __str__(self) -> str:
        return f"{self.receiver} +{self.received - self.paid}"

    @property
    def net(self) -> int:
        return self.received - self.paid
