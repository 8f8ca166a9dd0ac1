"""Disputes API.

* ``GET /api/disputes/`` — the player's disputes (auditors and staff allowed to view disputes: all);
* ``POST /api/disputes/`` — open one: ``{"hand": hand id, "category": ..., "text": ...}`` (the
  hand record's row id as ``record`` is still accepted);
* ``GET /api/disputes/<id>/`` — one dispute with its log (reviewers' notes only for those who may
  read every dispute);
* ``POST /api/disputes/<id>/review/`` — reviewers (``disputes.change_dispute``): take it under
  review (``{"note": ...}``);
* ``POST /api/disputes/<id>/resolve/`` — reviewers: ``{"outcome": "upheld"|"rejected", "reason": ...,
  "compensation": minor units}``.
Who may do what is ``accounts.permissions``: what the admin grants. Auditors read everything and
change nothing (403 on every write). The services' refusals
answer through the API's one exception handler (``kernel.api``): 403 when not allowed, else 400,
with the reason as ``detail``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import CanReviewDisputes, can_read_disputes
from accounts.requests import AuthenticatedRequest
from accounts.roles import is_auditor
from disputes.models import Dispute
from disputes.selectors import dispute_events_for, dispute_get_for, dispute_list_for
from disputes.services import dispute_open, dispute_resolve, dispute_review_start
from history.models import HandRecord, VoidedHandSeat
from kernel.bounds import AMOUNT_MAX, ID_MAX

PUBLIC_NOTES = ("upheld", "rejected")


class EventSerializer(serializers.Serializer):
    kind = serializers.CharField()
    at = serializers.DateTimeField()
    actor = serializers.IntegerField(source="actor_id", allow_null=True)
    from_status = serializers.CharField()
    to_status = serializers.CharField()
    note = serializers.CharField()

    def get_fields(self) -> dict[str, serializers.Field]:
        """The fields above and ``data`` last. Declared in the class body, a field named ``data`` would
        shadow, for type checkers, the serializer's own ``data`` (DRF moves declared fields off the class)."""
        return {**super().get_fields(), "data": serializers.JSONField()}


class DisputeOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    hand = serializers.IntegerField(source="hand_id", help_text="the hand id (recorded or voided)")
    player = serializers.IntegerField(source="player_id")
    category = serializers.CharField()
    text = serializers.CharField()
    status = serializers.CharField()
    reason = serializers.CharField()
    compensation = serializers.IntegerField()
    compensation_transaction = serializers.IntegerField(source="compensation_transaction_id", allow_null=True)
    opened_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)


def _detail(dispute: Dispute, request: Request) -> dict[str, Any]:
    data = dict(DisputeOutputSerializer(dispute).data)
    # many=True: a list serializer, its data a list of events (the stubs type a serializer's data only).
    events: list[dict[str, Any]] = list(EventSerializer(dispute_events_for(dispute=dispute, user=request.user),
                                                        many=True).data)
    if not can_read_disputes(request.user):  # the reviewers' working notes stay internal; the reason is shown
        events = [{**e, "note": e["note"] if e["kind"] in PUBLIC_NOTES else ""} for e in events]
    data["events"] = events
    return data


class DisputeListApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="DisputeOpen")
    class InputSerializer(serializers.Serializer):
        hand = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX, help_text="the hand id")
        record = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX,
                                          help_text="deprecated: the hand record's row id")

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "hand" not in attrs and "record" not in attrs:
                raise serializers.ValidationError({"hand": _("Name the hand by its hand id.")})
            return attrs
        category = serializers.ChoiceField(choices=Dispute.Category.choices)
        text = serializers.CharField(max_length=4000)

    @extend_schema(responses=DisputeOutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(dispute_list_for(user=request.user), request, view=self)
        return paginator.get_paginated_response(DisputeOutputSerializer(page, many=True).data)

    @extend_schema(request=InputSerializer, responses={201: DisputeOutputSerializer})
    def post(self, request: AuthenticatedRequest) -> Response:
        if is_auditor(request.user):
            raise PermissionDenied(_("Auditors read disputes; they do not open them."))
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        named = data.validated_data
        lookup = {"hand_id": named["hand"]} if "hand" in named else {"pk": named["record"]}
        record = HandRecord.objects.filter(**lookup).first()
        voided = (VoidedHandSeat.objects.filter(hand_id=named["hand"], user=request.user).first()
                  if record is None and "hand" in named else None)
        if record is None and voided is None:
            raise NotFound()
        dispute = dispute_open(player=request.user, record=record, voided=voided,
                               category=data.validated_data["category"], text=data.validated_data["text"])
        return Response(_detail(dispute, request), status=status.HTTP_201_CREATED)


class DisputeDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=DisputeOutputSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(_detail(dispute_get_for(user=request.user, pk=pk), request))


class DisputeReviewApi(APIView):
    permission_classes = [CanReviewDisputes]

    @extend_schema_serializer(component_name="DisputeReview")
    class InputSerializer(serializers.Serializer):
        note = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema(request=InputSerializer, responses=DisputeOutputSerializer)
    def post(self, request: AuthenticatedRequest, pk: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        dispute = dispute_get_for(user=request.user, pk=pk)
        dispute = dispute_review_start(dispute=dispute, actor=request.user, note=data.validated_data["note"])
        return Response(_detail(dispute, request))


class DisputeResolveApi(APIView):
    permission_classes = [CanReviewDisputes]

    @extend_schema_serializer(component_name="DisputeResolve")
    class InputSerializer(serializers.Serializer):
        outcome = serializers.ChoiceField(choices=["upheld", "rejected"])
        reason = serializers.CharField(max_length=4000)
        compensation = serializers.IntegerField(min_value=0, max_value=AMOUNT_MAX, default=0)

    @extend_schema(request=InputSerializer, responses=DisputeOutputSerializer)
    def post(self, request: AuthenticatedRequest, pk: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        dispute = dispute_resolve(
            dispute=dispute_get_for(user=request.user, pk=pk), actor=request.user,
            upheld=values["outcome"] == "upheld", reason=values["reason"], compensation=values["compensation"],
        )
        return Response(_detail(dispute, request))
