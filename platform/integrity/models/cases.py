"""Cases (docs/INTEGRITY.md "Cases"): what a flag opens, worked by staff and read by auditors.
A case goes open → investigating → closed, as cleared or as actioned; its notes and the actions
taken from it (a ban, a void, coins confiscated through the ledger) are kept for good: their rows
refuse UPDATE and DELETE (in Python and, on PostgreSQL, by a trigger)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from history.models import AppendOnlyModel


class Case(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        INVESTIGATING = "investigating", _("investigating")
        CLEARED = "cleared", _("closed: cleared")
        ACTIONED = "actioned", _("closed: actioned")

    class Signal(models.TextChoices):
        PAIR = "pair", _("pair of players")
        WELCOME = "welcome", _("welcome coins passed on")

    signal = models.CharField(_("signal"), max_length=10, choices=Signal.choices)
    flags = models.JSONField(_("flags"), default=list, blank=True)
    summary = models.JSONField(_("figures when opened"), default=dict, blank=True)
    pair = models.ForeignKey("integrity.PairSignal", on_delete=models.PROTECT, null=True, blank=True,
                             related_name="cases", verbose_name=_("pair"))
    accounts = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="integrity_cases",
                                      verbose_name=_("linked accounts"))
    hand_ids = models.JSONField(_("hands"), default=list, blank=True)
    status = models.CharField(_("status"), max_length=14, choices=Status.choices, default=Status.OPEN)
    assignee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="+", verbose_name=_("assignee"))
    opened_at = models.DateTimeField(_("opened"), default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+", verbose_name=_("closed by"))
    #: What opened it: ``pair:<a>:<b>:<n>`` or ``welcome:<user>:<n>``, once.
    key = models.CharField(max_length=80, unique=True)

    class Meta:
        verbose_name = _("case")
        verbose_name_plural = _("cases")
        ordering = ("-opened_at", "-id")
        permissions = [("confiscate_coins", "Can confiscate coins from a case")]
        constraints = [
            models.CheckConstraint(
                condition=(Q(status__in=["cleared", "actioned"], closed_at__isnull=False, closed_by__isnull=False)
                           | Q(status__in=["open", "investigating"], closed_at__isnull=True)),
                name="integrity_case_closed_with_who_and_when",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_signal_display()}"

    @property
    def is_closed(self) -> bool:
        return self.status in (self.Status.CLEARED, self.Status.ACTIONED)


class CaseNote(AppendOnlyModel):
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("staff member"))
    at = models.DateTimeField(_("time"), default=timezone.now)
    #: What the note records: a note, or a change of status or assignee.
    event = models.CharField(_("event"), max_length=20, default="note")
    text = models.TextField(_("note"))

    class Meta:
        verbose_name = _("case note")
        verbose_name_plural = _("case notes")
        ordering = ("at", "id")

    def __str__(self) -> str:
        return f"#{self.case_id} {self.at:%Y-%m-%d %H:%M} {self.event}"


class CaseAction(AppendOnlyModel):
    class Kind(models.TextChoices):
        BAN = "ban", _("account banned")
        VOID = "void", _("hand in play voided")
        CONFISCATE = "confiscate", _("coins confiscated")

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="actions")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                              verbose_name=_("staff member"))
    at = models.DateTimeField(_("time"), default=timezone.now)
    reason = models.TextField(_("reason"))
    target_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+", verbose_name=_("player"))
    target_table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+", verbose_name=_("table"))
    amount = models.BigIntegerField(_("amount (minor units)"), null=True, blank=True)
    ledger_transaction = models.ForeignKey("wallet.LedgerTransaction", on_delete=models.PROTECT, null=True,
                                           blank=True, related_name="+", verbose_name=_("ledger transaction"))
    staff_action = models.ForeignKey("operations.StaffAction", on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+", verbose_name=_("staff action"))
    request_key = models.CharField(max_length=100, unique=True)

    class Meta:
        verbose_name = _("case action")
        verbose_name_plural = _("case actions")
        ordering = ("at", "id")
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="integrity_case_action_has_reason"),
            models.CheckConstraint(condition=~Q(kind="confiscate") | Q(amount__gt=0, ledger_transaction__isnull=False),
                                   name="integrity_confiscation_posted"),
        ]

    def __str__(self) -> str:
        return f"#{self.case_id} {self.kind}"
