"""Lobby API: stake levels and open tables with free seats and players."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.models import StakeLevel
from tables.selectors import stake_level_list, table_list_open, table_summary
from tables.titles import level_title, stake_title, table_number


class LobbyFilterSerializer(serializers.Serializer):
    """The lobby's query: a game and a mode, as text without NUL bytes (a refused one is a 400)."""

    game = serializers.CharField(required=False, allow_blank=True, max_length=40)
    mode = serializers.CharField(required=False, allow_blank=True, max_length=40)


def lobby_filters(request: Request) -> dict[str, str]:
    data = LobbyFilterSerializer(data=request.query_params)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


class StakeLevelListApi(APIView):
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        game = serializers.CharField()
        mode = serializers.CharField()
        name = serializers.CharField()
        title = serializers.SerializerMethodField(help_text="game, mode and stake in the request's language")
        unit = serializers.IntegerField()
        commission_percent = serializers.IntegerField()
        min_buy_in = serializers.IntegerField()
        min_table_money = serializers.IntegerField()
        seats = serializers.IntegerField()

        def get_title(self, level: StakeLevel) -> str:
            return level_title(level)

    @extend_schema(responses=OutputSerializer(many=True), parameters=[OpenApiParameter("game", str)])
    def get(self, request: Request) -> Response:
        levels = stake_level_list(game=lobby_filters(request).get("game") or None)
        return Response(self.OutputSerializer(levels, many=True).data)


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()


class TableListApi(APIView):
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        game = serializers.CharField()
        mode = serializers.CharField()
        stake_level = serializers.IntegerField()
        stake_name = serializers.CharField()
        unit = serializers.IntegerField()
        commission_percent = serializers.IntegerField()
        min_buy_in = serializers.IntegerField()
        seats = serializers.IntegerField()
        free_seats = serializers.ListField(child=serializers.IntegerField())
        players = PlayerSerializer(many=True)
        hands_played = serializers.IntegerField()
        title = serializers.SerializerMethodField(help_text="stake and table number in the request's language")

        def get_title(self, row: dict[str, Any]) -> str:
            return f"{stake_title(row['game'], row['mode'], row['unit'])} · {table_number(row['id'])}"

    @extend_schema(
        responses=OutputSerializer(many=True),
        parameters=[OpenApiParameter("game", str), OpenApiParameter("mode", str)],
    )
    def get(self, request: Request) -> Response:
        filters = lobby_filters(request)
        tables = table_list_open(game=filters.get("game") or None, mode=filters.get("mode"))
        return Response(self.OutputSerializer([table_summary(t) for t in tables], many=True).data)
