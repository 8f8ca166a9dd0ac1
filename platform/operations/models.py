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


class DayFigure(models.Model):
    """One figure of the house dashboard for one closed day (docs/OPERATIONS.md "House
    dashboard"): the hands settled at a stake level, the house's lines of those hands by house
    account, or every other house entry by house account and transaction kind. Written once,
    with its day's :class:`DayClosed`, by :func:`operations.closing.day_figures_close`; a day
    that is closed never changes, since the ledger and the hands it counts are never edited."""

    class Figure(models.TextChoices):
        HANDS = "hands", _("hands settled")
        LEVEL_LINE = "level_line", _("house line of the hands")
        HOUSE_KIND = "house_kind", _("house entries by kind")

    time_zone = models.CharField(_("time zone"), max_length=64)
    day = models.DateField(_("day"))
    figure = models.CharField(_("figure"), max_length=12, choices=Figure.choices)
    level = models.BigIntegerField(_("stake level"), default=0)  # its id; 0 for figures not by level
    house = models.CharField(_("house account"), max_length=16, blank=True, default="")
    kind = models.CharField(_("transaction kind"), max_length=24, blank=True, default="")
    value = models.BigIntegerField(_("value"))  # a count of hands, or minor units

    class Meta:
        verbose_name = _("dashboard day figure")
        verbose_name_plural = _("dashboard day figures")
        constraints = [
            models.UniqueConstraint(fields=["time_zone", "day", "figure", "level", "house", "kind"],
                                    name="operations_day_figure_unique"),
            models.CheckConstraint(condition=models.Q(figure__in=["hands", "level_line", "house_kind"]),
                                   name="operations_day_figure_known"),
            models.CheckConstraint(
                condition=models.Q(figure="hands", house="", kind="", value__gt=0, level__gt=0)
                | models.Q(figure="level_line", kind="", level__gt=0) & ~models.Q(house="")
                | models.Q(figure="house_kind", level=0) & ~models.Q(house="") & ~models.Q(kind=""),
                name="operations_day_figure_shape",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.figure} {self.level} {self.house} {self.kind} {self.value}"


class DayClosed(models.Model):
    """A day (in ``time_zone``) whose figures are stored: the dashboard reads them from
    :class:`DayFigure` instead of the ledger. A day without a row is counted from the ledger."""

    time_zone = models.CharField(_("time zone"), max_length=64)
    day = models.DateField(_("day"))
    closed_at = models.DateTimeField(_("closed"), default=timezone.now)

    class Meta:
        verbose_name = _("dashboard closed day")
        verbose_name_plural = _("dashboard closed days")
        constraints = [models.UniqueConstraint(fields=["time_zone", "day"], name="operations_day_closed_unique")]

    def __str__(self) -> str:
        return f"{self.day} ({self.time_zone})"
