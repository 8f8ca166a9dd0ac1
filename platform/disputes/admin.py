"""The dispute review queue in Django admin.

Each dispute shows the hand's replay, its record, the action timeline (automatic plays and
disconnections marked) and the hand's ledger entries. The record is complete (every card, the
seed) only for staff who may read every hand (``accounts.permissions.can_read_hands``, as the
history API grants it); other staff see the disputing player's copy of it. Reviewers act through the
form's decision field, which calls :mod:`disputes.services` (the dispute's own fields are
read-only, history is never edited); auditors see the same pages without the form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.permissions import can_read_hands, can_review_disputes
from disputes.models import Dispute
from disputes.selectors import dispute_ledger_entries, dispute_queue
from disputes.services import dispute_note, dispute_resolve, dispute_review_start
from history.admin import body_json, body_replay_html, record_json, replay_html
from history.selectors import hand_record_player_copy
from kernel.errors import AppError
from wallet.money import parse_coins

DECISIONS = [
    ("", "—"),
    ("review", _("Take under review")),
    ("note", _("Add a note")),
    ("uphold", _("Uphold")),
    ("reject", _("Reject")),
]


class DisputeDecisionForm(forms.ModelForm[Dispute]):
    decision = forms.ChoiceField(label=_("decision"), choices=DECISIONS, required=False)
    message = forms.CharField(
        label=_("reason or note"), required=False, widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Upheld or rejected: the reason the player sees. Review or note: kept in the log."),
    )
    compensation_coins = forms.CharField(
        label=_("compensation (coins)"), required=False, help_text=_("Upheld only, e.g. 12.50; paid from the bank."),
    )

    class Meta:
        model = Dispute
        fields: list[str] = []

    def clean_compensation_coins(self) -> int:
        text = (self.cleaned_data.get("compensation_coins") or "").strip()
        if not text:
            return 0
        try:
            amount = parse_coins(text)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc
        if amount < 0:
            raise forms.ValidationError(_("A compensation cannot be negative."))
        return amount


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin[Dispute]):
    form = DisputeDecisionForm
    list_display = ("id", "status", "category", "player", "record", "opened_at", "resolved_at")
    list_filter = ("status", "category")
    search_fields = ("player__username", "=record__hand__id", "=id")
    readonly = ("player", "record", "category", "text", "status", "reason", "compensation",
                "compensation_transaction_id", "opened_at", "resolved_at", "resolved_by", "event_log", "replay",
                "ledger_entries", "full_record", "player_replay", "player_record")
    readonly_fields = readonly

    def get_queryset(self, request: HttpRequest) -> QuerySet[Dispute]:
        return dispute_queue()

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return ["queue", "opened_at", "id"]  # open, then under review, then resolved; oldest first

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        decision = ("decision", "message", "compensation_coins") if can_review_disputes(request.user) else ()
        complete = can_read_hands(request.user)  # as the history API grants it
        replay, record = ("replay", "full_record") if complete else ("player_replay", "player_record")
        return (*self.readonly[:11], *decision, replay, "ledger_entries", record)

    @admin.display(description=_("log"))
    def event_log(self, obj: Dispute) -> SafeString:
        events = obj.events.select_related("actor").order_by("id")
        return render_to_string("disputes/_events.html", {"events": events})

    @admin.display(description=_("replay and timeline"))
    def replay(self, obj: Dispute) -> SafeString:
        return replay_html(obj.record) if obj.record is not None else _voided_note(obj)

    @admin.display(description=_("ledger entries"))
    def ledger_entries(self, obj: Dispute) -> SafeString:
        return render_to_string("disputes/_ledger_entries.html", {"entries": dispute_ledger_entries(dispute=obj)})

    @admin.display(description=_("complete record"))
    def full_record(self, obj: Dispute) -> SafeString:
        return record_json(obj.record) if obj.record is not None else _voided_note(obj)

    @admin.display(description=_("replay and timeline (the player's copy)"))
    def player_replay(self, obj: Dispute) -> SafeString:
        return _players_copy(obj, body_replay_html)

    @admin.display(description=_("the player's copy of the record"))
    def player_record(self, obj: Dispute) -> SafeString:
        return _players_copy(obj, body_json)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players open disputes on their hands

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_review_disputes(request.user)

    def save_model(self, request: HttpRequest, obj: Dispute, form: DisputeDecisionForm, change: bool) -> None:
        """Carry out the decision through the services; the form itself saves nothing."""
        data = form.cleaned_data
        actor, text = request.user, data.get("message") or ""
        if not isinstance(actor, User):  # never: the admin site lets in signed-in staff only
            raise PermissionDenied
        actions = {
            "review": lambda: dispute_review_start(dispute=obj, actor=actor, note=text),
            "note": lambda: dispute_note(dispute=obj, actor=actor, note=text),
            "uphold": lambda: dispute_resolve(dispute=obj, actor=actor, upheld=True, reason=text,
                                              compensation=data.get("compensation_coins") or 0),
            "reject": lambda: dispute_resolve(dispute=obj, actor=actor, upheld=False, reason=text,
                                              compensation=data.get("compensation_coins") or 0),
        }
        action = actions.get(data.get("decision") or "")
        if action is None:
            return
        try:
            action()
        except AppError as exc:  # the dispute's refusals, or the wallet's when paying a compensation
            messages.error(request, exc.localized())


def _players_copy(dispute: Dispute, show: Callable[[dict[str, Any]], SafeString]) -> SafeString:
    """The disputing player's copy of the hand's record, shown by ``show``; for a voided hand
    (no record) a note saying so."""
    if dispute.record is None:
        return _voided_note(dispute)
    body = hand_record_player_copy(record=dispute.record, user=dispute.player)
    return show(body) if body is not None else format_html("{}", _("The player was not dealt into this hand."))


def _voided_note(dispute: Dispute) -> SafeString:
    """What the admin shows for a voided hand in place of its record: it has none."""
    voided = dispute.voided
    assert voided is not None
    return format_html("{} · {}", _("Voided hand: no record, every stake returned"), voided.reason)
