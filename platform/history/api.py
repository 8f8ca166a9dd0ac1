"""Hand history API: a player's hands and their export; auditors' streamed exports.

* ``GET /api/history/hands/`` — the player's hands (auditors and staff allowed to view hand
  records: every hand, filterable);
* ``GET /api/history/hands/<hand id>/`` — one record: complete for those, the player's copy for
  a player of the hand, 404 for anyone else;
* ``GET /api/history/hands/export/`` — the player's own hands as a streamed download;
* ``GET /api/history/export/`` — auditors and permitted staff: complete records, streamed, filtered by
  date range, game, stake level, table and player;
* ``GET /api/history/chains/`` — auditors and permitted staff: each table's last record and hash.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import HttpRequest, StreamingHttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from accounts.permissions import CanReadHands, can_read_hands
from accounts.requests import AuthenticatedRequest
from games.engine.registry import GAMES
from history.exports.stream import FORMATS, export_lines, export_response
from history.selectors import (
    RecordFilter,
    chain_heads,
    hand_record_filter,
    hand_record_for_viewer,
    hand_record_list_for_player,
    parse_moment,
    user_lookup,
)
from kernel.bounds import ID_MAX

FILTER_PARAMETERS = [
    OpenApiParameter("format", str, enum=list(FORMATS), description="jsonl (default), text or csv"),
    OpenApiParameter("since", str, description="ISO date or date-time, inclusive"),
    OpenApiParameter("until", str, description="ISO date-time exclusive, or a date (that whole day included)"),
    OpenApiParameter("game", str, enum=list(GAMES)),
    OpenApiParameter("stake_level", int), OpenApiParameter("table", int),
    OpenApiParameter("player", str, description="user id or username"),
]


class FilterSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=list(FORMATS), default="jsonl")
    since = serializers.CharField(required=False, allow_blank=True)  # blank (an empty form field): no limit
    until = serializers.CharField(required=False, allow_blank=True)
    game = serializers.ChoiceField(choices=list(GAMES), required=False)
    stake_level = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
    table = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
    player = serializers.CharField(required=False)

    def validate_since(self, value: str) -> Any:
        return self._moment(value, end=False)

    def validate_until(self, value: str) -> Any:
        return self._moment(value, end=True)

    def validate_player(self, value: str) -> int:
        user = user_lookup(value)
        if user is None:
            raise ValidationError(_("No such player."))
        return user.pk

    @staticmethod
    def _moment(value: str, *, end: bool) -> Any:
        if not value.strip():
            return None
        try:
            return parse_moment(value, end=end)
        except ValueError as exc:
            raise ValidationError(str(exc)) from exc


def read_filters(request: Request) -> tuple[str, RecordFilter]:
    data = FilterSerializer(data=request.query_params)
    data.is_valid(raise_exception=True)
    values = dict(data.validated_data)
    fmt = values.pop("format")
    return fmt, RecordFilter(**values)


class ExportNegotiation(DefaultContentNegotiation):
    """``?format=`` names the export format here, not a DRF renderer: the first renderer serves errors."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers))
        return first, first.media_type


class HandRecordListApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="HandRecordSummary")
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField(source="hand_id", help_text="the hand id")
        game = serializers.CharField()
        table = serializers.IntegerField(source="table_id")
        table_name = serializers.CharField(source="table.name")
        stake_level = serializers.CharField(source="stake_level.name")
        number = serializers.IntegerField()
        finished_at = serializers.DateTimeField()
        hash = serializers.CharField()
        seat = serializers.IntegerField(source="my_seat", required=False)
        coins = serializers.IntegerField(source="my_coins", required=False)

    @extend_schema(responses=OutputSerializer(many=True), parameters=FILTER_PARAMETERS[1:])
    def get(self, request: AuthenticatedRequest) -> Response:
        if can_read_hands(request.user):
            _fmt, filters = read_filters(request)
            records = hand_record_filter(filters).select_related("table", "stake_level").order_by("-id")
        else:
            records = hand_record_list_for_player(user=request.user)
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(records, request, view=self)
        return paginator.get_paginated_response(self.OutputSerializer(page, many=True).data)


class HandRecordDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, hand_id: int) -> Response:
        _record, body = hand_record_for_viewer(user=request.user, hand_id=hand_id)
        return Response(body)


class HandRecordMyExportApi(APIView):
    """The player's own hands (their copies), streamed; filters as the auditors' export."""

    permission_classes = [IsAuthenticated]
    content_negotiation_class = ExportNegotiation

    @extend_schema(parameters=FILTER_PARAMETERS[:5], responses={(200, "application/x-ndjson"): OpenApiTypes.STR})
    def get(self, request: AuthenticatedRequest) -> StreamingHttpResponse:
        fmt, filters = read_filters(request)
        return my_export_response(request, fmt=fmt, filters=filters)


def my_export_response(request: HttpRequest | Request, *, fmt: str, filters: RecordFilter) -> StreamingHttpResponse:
    """The signed-in player's own hands (their copies) in ``fmt``, of the days and game ``filters``
    name (its other fields are the auditors' and are ignored); raises
    ``history.exports.budget.ExportRefused`` past the exports' budget."""
    mine = RecordFilter(since=filters.since, until=filters.until, game=filters.game)
    user = request.user
    assert isinstance(user, User)  # the API's IsAuthenticated, the page's LoginRequiredMixin
    return export_response(request, export_lines(hand_record_filter(mine), fmt, viewer=user), fmt=fmt,
                           filename="my-hands")


class HandRecordExportApi(APIView):
    """Complete records for auditors and permitted staff (``accounts.permissions``), streamed in id
    order (each table's chain in order)."""

    permission_classes = [CanReadHands]
    content_negotiation_class = ExportNegotiation

    @extend_schema(parameters=FILTER_PARAMETERS, responses={(200, "application/x-ndjson"): OpenApiTypes.STR})
    def get(self, request: Request) -> StreamingHttpResponse:
        fmt, filters = read_filters(request)
        return export_response(request, export_lines(hand_record_filter(filters), fmt), fmt=fmt, filename="hands")


class HandChainListApi(APIView):
    permission_classes = [CanReadHands]

    @extend_schema_serializer(component_name="HandChainHead")
    class OutputSerializer(serializers.Serializer):
        table = serializers.IntegerField()
        seq = serializers.IntegerField()
        hash = serializers.CharField()
        finished_at = serializers.DateTimeField()

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(chain_heads(), many=True).data)
