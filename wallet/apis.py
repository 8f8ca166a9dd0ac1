"""Wallet API for players: their balance and their paginated statement (read-only)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthenticatedRequest
from wallet.models import Entry, TransactionKind
from wallet.money import format_coins
from wallet.presenters import entry_account_label, entry_label, reference_hand_id
from wallet.selectors import table_money_list, wallet_balance, wallet_statement


@extend_schema_serializer(component_name="WalletTableMoney")
class _TableMoneySerializer(serializers.Serializer[Any]):
    table_ref = serializers.CharField()
    amount = serializers.IntegerField(help_text="minor units (1 coin = 100)")
    amount_display = serializers.CharField()


@extend_schema_serializer(component_name="WalletStatementEntry")
class _EntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    transaction = serializers.IntegerField(source="transaction_id")
    created_at = serializers.DateTimeField(source="transaction.created_at")
    kind = serializers.CharField(source="transaction.kind")
    reference = serializers.CharField(source="transaction.reference")
    hand = serializers.SerializerMethodField(help_text="the hand id of a hand's settlement (its replay's id)")
    memo = serializers.CharField(source="transaction.memo")
    account = serializers.SerializerMethodField()
    description = serializers.SerializerMethodField()
    table_ref = serializers.CharField(source="account.table_ref")
    amount = serializers.IntegerField(help_text="minor units, negative takes coins out")
    amount_display = serializers.SerializerMethodField()
    balance_after = serializers.IntegerField(allow_null=True)

    def get_hand(self, entry: Entry) -> int | None:
        return reference_hand_id(entry.transaction.reference)

    def get_account(self, entry: Entry) -> str:
        return entry_account_label(entry)

    def get_description(self, entry: Entry) -> str:
        return entry_label(entry)

    def get_amount_display(self, entry: Entry) -> str:
        return format_coins(entry.amount)


class WalletBalanceApi(APIView):
    @extend_schema_serializer(component_name="WalletBalance")
    class OutputSerializer(serializers.Serializer[Any]):
        balance = serializers.IntegerField(help_text="minor units (1 coin = 100)")
        balance_display = serializers.CharField(help_text="coins with two decimals")
        table_money = _TableMoneySerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest) -> Response:
        balance = wallet_balance(user=request.user)
        tables = [{"table_ref": a.table_ref, "amount": a.balance, "amount_display": format_coins(a.balance)}
                  for a in table_money_list(user=request.user)]
        data = {"balance": balance, "balance_display": format_coins(balance), "table_money": tables}
        return Response(self.OutputSerializer(data).data)


class WalletStatementApi(APIView):
    class Pagination(PageNumberPagination):
        page_size = 50
        page_size_query_param = "page_size"
        max_page_size = 500

    class InputSerializer(serializers.Serializer[Any]):
        kind = serializers.ChoiceField(choices=TransactionKind.choices, required=False)
        since = serializers.DateField(required=False, help_text="first day included")
        until = serializers.DateField(required=False, help_text="last day included")

    @extend_schema_serializer(component_name="WalletStatementPage")
    class OutputSerializer(serializers.Serializer[Any]):
        count = serializers.IntegerField()
        next = serializers.URLField(allow_null=True)
        previous = serializers.URLField(allow_null=True)
        results = _EntrySerializer(many=True)

    @extend_schema(
        parameters=[
            InputSerializer,
            OpenApiParameter("page", OpenApiTypes.INT, description="page number, from 1"),
            OpenApiParameter("page_size", OpenApiTypes.INT, description="entries per page (at most 500)"),
        ],
        responses=OutputSerializer,
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        filters = self.InputSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        statement = wallet_statement(user=request.user, **filters.validated_data)
        paginator = self.Pagination()
        page = paginator.paginate_queryset(statement, request, view=self)
        return paginator.get_paginated_response(_EntrySerializer(page, many=True).data)
