"""The staff trail's exports (auditors, and staff with ``operations.export_activity``): CSV and
JSON of the rows the activity page's filters show, oldest first, each with every ledger
transaction it caused."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet
from django.http import HttpResponse

from operations.models import StaffAction, StaffActionTransaction

FIELDS = ("id", "at", "kind", "staff", "player", "table", "subject", "subject_id", "amount", "ledger_transaction",
          "transactions", "before", "after", "reason", "details")
CHUNK = 2000


def trail_rows(actions: QuerySet[StaffAction]) -> Iterator[dict[str, Any]]:
    """Each act as plain data, oldest first; its linked transactions read once per chunk."""
    rows = actions.select_related("actor", "target_user").order_by("at", "id")
    chunk: list[StaffAction] = []
    for action in rows.iterator(chunk_size=CHUNK):
        chunk.append(action)
        if len(chunk) == CHUNK:
            yield from _with_links(chunk)
            chunk = []
    yield from _with_links(chunk)


def _with_links(chunk: list[StaffAction]) -> Iterator[dict[str, Any]]:
    links: dict[int, list[int]] = {}
    pairs = StaffActionTransaction.objects.filter(action__in=[a.pk for a in chunk]).order_by("transaction_id")
    for action_id, tx_id in pairs.values_list("action_id", "transaction_id"):
        links.setdefault(action_id, []).append(tx_id)
    for a in chunk:
        yield {
            "id": a.pk, "at": a.at.isoformat(), "kind": a.kind, "staff": a.actor.username,
            "player": a.target_user.username if a.target_user else None, "table": a.target_table_id,
            "subject": a.subject_type or None, "subject_id": a.subject_id, "amount": a.amount,
            "ledger_transaction": a.ledger_transaction_id, "transactions": links.get(a.pk, []),
            "before": a.before, "after": a.after, "reason": a.reason, "details": a.details,
        }


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, cls=DjangoJSONEncoder)
    return value


def trail_csv(actions: QuerySet[StaffAction]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="staff-activity.csv"'
    out = csv.writer(response)
    out.writerow(FIELDS)
    for row in trail_rows(actions):
        out.writerow([_cell(row[f]) for f in FIELDS])
    return response


def trail_json(actions: QuerySet[StaffAction]) -> HttpResponse:
    """JSON Lines: one act per line (``jq`` reads it as it is)."""
    response = HttpResponse(content_type="application/x-ndjson; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="staff-activity.jsonl"'
    for row in trail_rows(actions):
        response.write(json.dumps(row, ensure_ascii=False, sort_keys=True, cls=DjangoJSONEncoder) + "\n")
    return response
