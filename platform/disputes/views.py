"""Player pages: open a dispute on one of your hands, list your disputes, see the outcome."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, ListView, TemplateView

from accounts.requests import AuthenticatedHttpRequest
from disputes.forms import DisputeOpenForm
from disputes.models import Dispute
from disputes.selectors import dispute_events_for, dispute_get_for, dispute_list_for
from disputes.services import DisputeError, dispute_open, window
from history.models import HandRecord, VoidedHandSeat


class DisputeListView(LoginRequiredMixin, ListView[Dispute]):
    template_name = "disputes/dispute_list.html"
    context_object_name = "disputes"
    paginate_by = 30

    def get_queryset(self) -> QuerySet[Dispute]:
        return dispute_list_for(user=self.request.user)


class DisputeOpenView(LoginRequiredMixin, FormView[DisputeOpenForm]):
    template_name = "disputes/dispute_open.html"
    form_class = DisputeOpenForm
    request: AuthenticatedHttpRequest

    def subject(self) -> HandRecord | VoidedHandSeat:
        """The player's recorded hand of this id, or their row of it if the platform voided it."""
        hand_id, user = self.kwargs["hand_id"], self.request.user
        record = HandRecord.objects.filter(hand_id=hand_id, seats__user=user).select_related("table").first()
        return record or get_object_or_404(VoidedHandSeat.objects.select_related("table"), hand_id=hand_id, user=user)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        subject = self.subject()
        voided = isinstance(subject, VoidedHandSeat)
        when = subject.voided_at if isinstance(subject, VoidedHandSeat) else subject.finished_at
        return super().get_context_data(hand_id=subject.hand_id, table=subject.table, when=when, voided=voided,
                                         window_days=window().days, **kwargs)

    def form_valid(self, form: DisputeOpenForm) -> HttpResponse:
        subject = self.subject()
        voided = subject if isinstance(subject, VoidedHandSeat) else None
        record = subject if isinstance(subject, HandRecord) else None
        try:
            dispute = dispute_open(player=self.request.user, record=record, voided=voided,
                                   category=form.cleaned_data["category"], text=form.cleaned_data["text"])
        except DisputeError as exc:
            form.add_error(None, str(exc))
            return self.form_invalid(form)
        messages.success(self.request, _("Your dispute was opened. We will review it."))
        return HttpResponseRedirect(reverse("dispute-detail", args=[dispute.pk]))


class DisputeDetailView(LoginRequiredMixin, TemplateView):
    template_name = "disputes/dispute_detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        dispute = dispute_get_for(user=self.request.user, pk=kwargs["pk"])
        events = dispute_events_for(dispute=dispute, user=self.request.user)
        return super().get_context_data(dispute=dispute, events=events, **kwargs)
