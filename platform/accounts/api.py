"""Accounts API."""

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthenticatedRequest
from accounts.roles import is_auditor


class MeApi(APIView):
    class OutputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField()
        display_name = serializers.CharField()
        language = serializers.CharField()
        is_staff = serializers.BooleanField()
        is_auditor = serializers.BooleanField()

    @extend_schema(responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest) -> Response:
        user = request.user
        data = {
            "username": user.username,
            "display_name": user.shown_name,
            "language": user.language,
            "is_staff": user.is_staff,
            "is_auditor": is_auditor(user),
        }
        return Response(self.OutputSerializer(data).data)
