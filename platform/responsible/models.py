"""A player's own limits: loss limits, a session reminder, self-exclusion, and their history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Setting(models.TextChoices):
    DAILY = "daily", _("Daily loss limit")
    WEEKLY = "weekly", _("Weekly loss limit")
    REMINDER = "reminder", _("Session reminder (minutes)")
    EXCLUSION = "exclusion", _("Self-exclusion")
    COOL_OFF = "cool_off", _("Cool-off")


class PlayLimits(models.Model):
    """The values in force (``None``: no limit). Its row is locked by every buy-in and top-up of
    the player, so two at once are checked one after the other."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="play_limits"
    )
    daily_loss_limit = models.BigIntegerField(_("daily loss limit"), null=True, blank=True)
    weekly_loss_limit = models.BigIntegerField(_("weekly loss limit"), null=True, blank=True)
    reminder_minutes = models.PositiveIntegerField(_("session reminder (minutes)"), null=True, blank=True)
    excluded_until = models.DateTimeField(_("self-excluded until"), null=True, blank=True)
    #: A short break from play (hours), ended by time only, like a self-exclusion.
    cooling_until = models.DateTimeField(_("cooling off until"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)

    class Meta:
        verbose_name = _("play limits")
        verbose_name_plural = _("play limits")
        constraints = [
            models.CheckConstraint(
                condition=(Q(daily_loss_limit__isnull=True) | Q(daily_loss_limit__gt=0))
                & (Q(weekly_loss_limit__isnull=True) | Q(weekly_loss_limit__gt=0))
                & (Q(reminder_minutes__isnull=True) | Q(reminder_minutes__gt=0)),
                name="responsible_limits_positive",
            ),
        ]

    def __str__(self) -> str:
        return str(self.user)


class PendingChange(models.Model):
    """A raised or removed loss limit, waiting for its 24 hours (``value`` ``None``: removal)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pending_limits")
    setting = models.CharField(_("setting"), max_length=12, choices=Setting.choices)
    value = models.BigIntegerField(_("new value"), null=True, blank=True)
    applies_at = models.DateTimeField(_("applies at"))

    class Meta:
        verbose_name = _("pending limit change")
        verbose_name_plural = _("pending limit changes")
        constraints = [models.UniqueConstraint(fields=["user", "setting"], name="responsible_one_pending_per_setting")]

    def __str__(self) -> str:
        return f"{self.user} {self.setting} → {self.value} @ {self.applies_at:%Y-%m-%d %H:%M}"


class LimitChange(models.Model):
    """One change asked for or applied, kept for good (``applies_at`` later than ``created_at``
    for a change that waits its 24 hours)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="limit_changes")
    setting = models.CharField(_("setting"), max_length=12, choices=Setting.choices)
    old_value = models.BigIntegerField(_("old value"), null=True, blank=True)
    new_value = models.BigIntegerField(_("new value"), null=True, blank=True)
    until = models.DateTimeField(_("excluded until"), null=True, blank=True)  # a self-exclusion's or cool-off's end
    applies_at = models.DateTimeField(_("applies at"))
    created_at = models.DateTimeField(_("created"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("limit change")
        verbose_name_plural = _("limit changes")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} {self.setting}: {self.old_value} → {self.new_value}"


class Refusal(models.TextChoices):
    LOSS_LIMIT = "loss_limit", _("Loss limit")
    SELF_EXCLUDED = "self_excluded", _("Self-exclusion")
    COOLING_OFF = "cooling_off", _("Cool-off")


class LimitRefusal(models.Model):
    """A buy-in or top-up the player's own limits refused, kept for staff (the per-player page,
    the limits admin): what was asked, at which table, and why."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="limit_refusals")
    reason = models.CharField(_("reason"), max_length=16, choices=Refusal.choices)
    amount = models.BigIntegerField(_("amount asked"))
    table_id = models.BigIntegerField(_("table"))
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("limit refusal")
        verbose_name_plural = _("limit refusals")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"], name="responsible_refusal_user")]

    def __str__(self) -> str:
        return f"{self.user} {self.reason} {self.amount} @ {self.created_at:%Y-%m-%d %H:%M}"
