"""Player pages: "my hands", its downloads, and the replay of one of them (opponents' hidden
cards redacted), addressed by the public hand id."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseBase, HttpResponsePermanentRedirect, HttpResponseRedirect
from django.urls import reverse
from django.views import View
from django.views.generic import ListView, TemplateView

from accounts.requests import AuthenticatedHttpRequest
from history.api import FilterSerializer, my_export_response
from history.exports.budget import ExportRefused
from history.models import HandRecord
from history.replay import replay
from history.selectors import (
    RecordFilter,
    away_stand_up_list_for_player,
    hand_id_of_record,
    hand_record_for_viewer,
    hand_record_list_for_player,
    voided_hand_list_for_player,
)


class MyHandsView(LoginRequiredMixin, ListView[HandRecord]):
    template_name = "history/hand_list.html"
    context_object_name = "records"
    paginate_by = 30
    request: AuthenticatedHttpRequest

    def get_queryset(self) -> QuerySet[HandRecord]:
        return hand_record_list_for_player(user=self.request.user)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        user = self.request.user
        return super().get_context_data(
            voided=voided_hand_list_for_player(user=user), stood_up=away_stand_up_list_for_player(user=user), **kwargs)


class HandReplayView(LoginRequiredMixin, TemplateView):
    template_name = "history/hand_detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        record, body = hand_record_for_viewer(user=self.request.user, hand_id=kwargs["hand_id"])
        context.update(record=record, replay=replay(body))
        return context


class RecordAddressView(LoginRequiredMixin, View):
    """``/history/<record row id>/``, a replay's address by its record's row id (links made with it
    keep working): a permanent redirect to ``/history/hands/<hand id>/`` for a viewer who may see it."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponsePermanentRedirect:
        hand_id = hand_id_of_record(user=request.user, record_pk=pk)
        return HttpResponsePermanentRedirect(reverse("history-hand", args=[hand_id]))


class MyHandsExportView(LoginRequiredMixin, View):
    """The download links and form of "My hands": the player's export, streamed as
    ``GET /api/history/hands/export/`` streams it. A refusal (a day that is not a date, another
    export of the account still running) leads back to My hands with the reason as a page message
    in the player's language, nothing started."""

    def get(self, request: AuthenticatedHttpRequest) -> HttpResponseBase:
        data = FilterSerializer(data=request.GET)
        if not data.is_valid():
            return _back_to_my_hands(request, _first_error(data.errors))
        values = dict(data.validated_data)
        fmt = values.pop("format")
        try:
            return my_export_response(request, fmt=fmt, filters=RecordFilter(**values))
        except ExportRefused as exc:
            return _back_to_my_hands(request, exc.localized())


def _first_error(errors: Any) -> str:
    """The first message of a serializer's ``errors`` (a field's list of messages)."""
    first = next(iter(errors.values()))
    return str(first[0] if isinstance(first, list) else first)


def _back_to_my_hands(request: HttpRequest, message: str) -> HttpResponseRedirect:
    messages.error(request, message)
    return HttpResponseRedirect(reverse("history-hands"))
