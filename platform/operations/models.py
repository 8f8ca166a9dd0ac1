"""The staff's audit trail: one row per staff action (who, when, why, on what, and for coins the
ledger transaction). Rows are written only by :mod:`operations.services` and never changed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class StaffAction(models.Model):
    class Kind(models.TextChoices):
        GRANT = "grant", _("coins granted")
        TABLE_CORRECT = "table_correct", _("table corrected (hand voided)")
        TABLE_CLOSE = "table_close", _("table closed")
        BAN = "ban", _("player banned")
        UNBAN = "unban", _("player ban lifted")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("staff member"),
    )
    at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)
    reason = models.TextField(_("reason"))
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("player"),
    )
    target_table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("table"),
    )
    amount = models.BigIntegerField(_("amount (minor units)"), null=True, blank=True)
    ledger_transaction = models.ForeignKey(
        "wallet.LedgerTransaction", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("ledger transaction"),
    )
    request_key = models.CharField(_("request"), max_length=100, unique=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ("-at", "-id")
        verbose_name = _("staff action")
        verbose_name_plural = _("staff activity")
        permissions = [
            ("grant_coins", "Can grant coins"),
            ("correct_table", "Can correct a table"),
            ("close_table", "Can close a table"),
            ("ban_player", "Can ban a player"),
            ("export_activity", "Can export the staff activity"),
            ("view_dashboard", "Can see the house dashboard"),
        ]
        constraints = [
            models.CheckConstraint(condition=~models.Q(reason=""), name="operations_action_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.kind} by {self.actor_id}"
