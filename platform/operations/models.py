"""The staff trail and the four-eyes requests (docs/OPERATIONS.md "Staff trail", "Four eyes").

:class:`StaffAction` is one row per staff act from any page (who, when, why, on what, the values
before and after, and every ledger transaction it caused, :class:`StaffActionTransaction`).
Rows are written only by :func:`operations.trail.staff_act` and never changed: on PostgreSQL
triggers refuse UPDATE and DELETE of both tables (migration 0002), as they do for the ledger.

:class:`ApprovalRequest` is a grant, an adjustment or a dispute compensation above the approval
threshold, waiting for a second staff member: it is decided once (pending → approved or
rejected, never by the staff member who asked) and otherwise never changed, which the database
also enforces.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from wallet.models import LedgerTransaction


class StaffAction(models.Model):
    class Kind(models.TextChoices):
        GRANT = "grant", _("coins granted")
        ADJUST = "adjust", _("coins adjusted")
        TABLE_CORRECT = "table_correct", _("table corrected (hand voided)")
        TABLE_CLOSE = "table_close", _("table closed")
        BAN = "ban", _("player banned")
        UNBAN = "unban", _("player ban lifted")
        STAKE_LEVEL = "stake_level", _("stake level edited")
        WELCOME = "welcome", _("welcome coins edited")
        ACCOUNT = "account", _("account edited")
        LIMIT = "limit", _("play limit changed")
        DISPUTE = "dispute", _("dispute decision")
        CASE = "case", _("case action")
        APPROVAL_ASKED = "approval_asked", _("approval asked")
        APPROVED = "approved", _("approval given")
        REJECTED = "rejected", _("approval refused")

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
    #: What else the act was on, by name and id (a stake level, a dispute, a case, an approval).
    subject_type = models.CharField(_("subject"), max_length=30, blank=True, default="")
    subject_id = models.BigIntegerField(_("subject id"), null=True, blank=True)
    amount = models.BigIntegerField(_("amount (minor units)"), null=True, blank=True)
    #: The coins' own transaction of a grant, an adjustment or a compensation.
    ledger_transaction = models.ForeignKey(
        "wallet.LedgerTransaction", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("ledger transaction"),
    )
    #: Every ledger transaction the act caused (a close's or a ban's cash-outs among them).
    transactions: models.ManyToManyField[LedgerTransaction, StaffActionTransaction] = models.ManyToManyField(
        "wallet.LedgerTransaction", through="StaffActionTransaction", related_name="+",
        verbose_name=_("ledger transactions"),
    )
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
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


class StaffActionTransaction(models.Model):
    """A ledger transaction a staff act caused (append-only, like the act)."""

    action = models.ForeignKey(StaffAction, on_delete=models.PROTECT, related_name="links")
    transaction = models.ForeignKey("wallet.LedgerTransaction", on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["action", "transaction"], name="operations_link_once")]

    def __str__(self) -> str:
        return f"{self.action_id} → {self.transaction_id}"


class ApprovalRequest(models.Model):
    class Kind(models.TextChoices):
        GRANT = "grant", _("grant")
        ADJUST = "adjust", _("adjustment")
        COMPENSATION = "compensation", _("dispute compensation")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("refused")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("asked by"),
    )
    requested_at = models.DateTimeField(_("asked"), default=timezone.now)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"),
    )
    amount = models.BigIntegerField(_("amount (minor units)"))
    reason = models.TextField(_("reason"))
    dispute = models.ForeignKey(
        "disputes.Dispute", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("dispute"),
    )
    request_key = models.CharField(_("request"), max_length=100, unique=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decision_reason = models.TextField(_("reason for the decision"), blank=True, default="")
    ledger_transaction = models.ForeignKey(
        "wallet.LedgerTransaction", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("ledger transaction"),
    )

    class Meta:
        ordering = ("-requested_at", "-id")
        verbose_name = _("approval request")
        verbose_name_plural = _("approval requests")
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="operations_approval_amount_not_zero"),
            models.CheckConstraint(condition=~Q(reason=""), name="operations_approval_has_reason"),
            models.CheckConstraint(condition=~Q(decided_by=F("requested_by")),
                                   name="operations_approval_not_by_the_asker"),
            models.CheckConstraint(
                condition=Q(status="pending", decided_by__isnull=True, decided_at__isnull=True)
                | (~Q(status="pending") & Q(decided_by__isnull=False, decided_at__isnull=False)),
                name="operations_approval_decided_once",
            ),
            models.CheckConstraint(
                condition=Q(kind="compensation", dispute__isnull=False, amount__gt=0)
                | (~Q(kind="compensation") & Q(dispute__isnull=True)),
                name="operations_approval_compensation_names_its_dispute",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.amount} ({self.status})"


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
