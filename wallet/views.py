"""Player pages: balance and statement (filtered, paginated) and the statement as streamed CSV.
A player only ever sees their own accounts: every query is keyed by ``request.user``."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from django.views import View
from django.views.generic import TemplateView

from accounts.requests import AuthenticatedHttpRequest
from wallet.forms import StatementFilterForm
from wallet.models import Entry
from wallet.money import format_coins
from wallet.presenters import entry_account_label, entry_label, spreadsheet_safe, statement_account
from wallet.selectors import table_money_list, wallet_balance, wallet_statement

PAGE_SIZE = 25
# Machine columns (kind, reference, account, table) for reconciling; "description" in the player's language.
CSV_HEADER = ["created_at", "transaction", "kind", "reference", "account", "table", "amount", "balance_after", "memo",
              "description"]


def _filtered_statement(request: AuthenticatedHttpRequest) -> tuple[StatementFilterForm, QuerySet[Entry]]:
    form = StatementFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_bound and form.is_valid() else {}
    statement = wallet_statement(
        user=request.user, kind=filters.get("kind") or None, since=filters.get("since"), until=filters.get("until")
    )
    return form, statement


class WalletView(LoginRequiredMixin, TemplateView):
    template_name = "wallet/wallet.html"
    request: AuthenticatedHttpRequest

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        form, statement = _filtered_statement(self.request)
        page = Paginator(statement, PAGE_SIZE).get_page(self.request.GET.get("page"))
        query = self.request.GET.copy()
        query.pop("page", None)
        return {
            **super().get_context_data(**kwargs),
            "balance": wallet_balance(user=self.request.user),
            "tables": table_money_list(user=self.request.user),
            "form": form,
            "page": page,
            "rows": [(entry, entry_account_label(entry)) for entry in page.object_list],
            "query": query.urlencode(),
        }


class _Echo:
    """A file-like object whose write returns the line, for csv.writer in a streamed response."""

    def write(self, value: str) -> str:
        return value


def _csv_rows(statement: QuerySet[Entry]) -> Iterator[list[str]]:
    yield CSV_HEADER
    for entry in statement.iterator(chunk_size=500):
        txn, account = entry.transaction, statement_account(entry)
        yield [
            txn.created_at.isoformat(), str(txn.pk), txn.kind, spreadsheet_safe(txn.reference), account.kind,
            spreadsheet_safe(account.table_ref), format_coins(entry.amount),
            "" if entry.balance_after is None else format_coins(entry.balance_after), spreadsheet_safe(txn.memo),
            spreadsheet_safe(entry_label(entry)),
        ]


class StatementCsvView(LoginRequiredMixin, View):
    def get(self, request: AuthenticatedHttpRequest) -> StreamingHttpResponse:
        _, statement = _filtered_statement(request)
        writer = csv.writer(_Echo())
        response = StreamingHttpResponse((writer.writerow(row) for row in _csv_rows(statement)),
                                         content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="statement.csv"'
        return response
