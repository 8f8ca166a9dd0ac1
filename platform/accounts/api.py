"""Accounts API."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.roles import is_auditor


class MeApi(APIView):
    class OutputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        username = serializers.CharField()
        display_name = serializers.CharField()
        language = serializers.CharField()
        is_staff = serializers.BooleanField()
        is_auditor = serializers.BooleanField()

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        user = request.user
        data = {
            "username": user.username,
            "display_name": user.shown_name,
            "language": user.language,
            "is_staff": user.is_staff,
            "is_auditor": is_auditor(user),
        }
        return Response(self.OutputSerializer(data).data)
