"""Streaming exports from the database: chunks of rows, never the whole result set.

:func:`export_lines` yields the text of an export line by line, reading ``CHUNK_ROWS`` records
at a time in id order (each chunk one query after the last id seen, on the exports' own database
alias, its connection handed back at once: history/exports/budget.py); :func:`export_response`
takes the export's place in the budget and wraps the lines in a ``StreamingHttpResponse`` — an
async iterator under ASGI (a sync one would be read into memory whole by Django there), a sync
one under WSGI and in the test client.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse

from accounts.models import User
from games.engine.record import canonical_json, player_copy
from history.exports.budget import BudgetedExport, export_alias, export_connection_done, export_start
from history.exports.phh import text_record
from history.exports.summary import HEADER, csv_text, summary_rows
from history.models import HandRecord
from history.selectors import body_of

#: format -> (content type, file extension)
FORMATS: dict[str, tuple[str, str]] = {
    "jsonl": ("application/x-ndjson; charset=utf-8", "jsonl"),
    "text": ("text/plain; charset=utf-8", "txt"),
    "csv": ("text/csv; charset=utf-8", "csv"),
}
CHUNK_ROWS = 2000  # rows fetched per round trip
CHUNK_LINES = 200  # lines joined per piece of the response


def render(fmt: str, body: dict[str, Any]) -> str:
    if fmt == "text":
        return text_record(body)
    if fmt == "csv":
        return csv_text(summary_rows(body))
    return canonical_json(body) + "\n"


def jsonl_fast(canonical: str, digest: str) -> str:
    """The stored canonical text with its hash appended: no JSON decoding on the hot path."""
    return f'{canonical[:-1]},"hash":"{digest}"}}\n'


def export_lines(records: QuerySet[HandRecord], fmt: str, *, viewer: User | None = None) -> Iterator[str]:
    """The export of ``records`` in ``fmt``: complete records, or with ``viewer`` that
    player's copies of their own hands only (opponents' hidden cards redacted)."""
    if fmt == "csv":
        yield csv_text([HEADER])
    if viewer is None:
        for canonical, digest in _rows(records, "canonical", "hash"):
            yield jsonl_fast(canonical, digest) if fmt == "jsonl" else render(fmt, body_of(canonical, digest))
        return
    for canonical, digest, seat in _rows(records.filter(seats__user=viewer), "canonical", "hash", "seats__seat"):
        yield render(fmt, player_copy(body_of(canonical, digest), seat))


def _rows(records: QuerySet[HandRecord], *fields: str) -> Iterator[tuple[Any, ...]]:
    """``fields`` of ``records`` in id order, ``CHUNK_ROWS`` at a time: each chunk one query
    (after the last id seen) on the exports' alias, whose connection goes back before the chunk's
    lines are yielded, so a client that reads slowly, or not at all, holds none."""
    last = 0
    while True:
        alias = export_alias()
        chunk = list(records.using(alias).filter(pk__gt=last).order_by("pk").values_list("pk", *fields)[:CHUNK_ROWS])
        export_connection_done(alias)
        yield from (row[1:] for row in chunk)
        if len(chunk) < CHUNK_ROWS:
            return
        last = chunk[-1][0]


def chunks(lines: Iterator[str]) -> Iterator[str]:
    while True:
        piece = "".join(itertools.islice(lines, CHUNK_LINES))
        if not piece:
            return
        yield piece


async def _async_chunks(lines: Iterator[str]) -> AsyncIterator[str]:
    take = sync_to_async(lambda: "".join(itertools.islice(lines, CHUNK_LINES)), thread_sensitive=True)
    while True:
        piece = await take()
        if not piece:
            return
        yield piece


def export_response(
    request: HttpRequest | Any, lines: Iterator[str], *, fmt: str, filename: str
) -> StreamingHttpResponse:
    """A streamed download of ``lines``, within the exports' budget (raises
    ``history.exports.budget.ExportRefused`` past it)."""
    raw = getattr(request, "_request", request)  # a DRF Request wraps Django's
    user_id = int(raw.user.pk or 0)  # the export views and admin let in signed-in users only
    budgeted = BudgetedExport(lines, member=export_start(user_id=user_id))
    lines = iter(budgeted)
    content: Iterator[str] | AsyncIterator[str] = (
        _async_chunks(lines) if isinstance(raw, ASGIRequest) else chunks(lines)
    )
    content_type, extension = FORMATS[fmt]
    response = _Download(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}.{extension}"'
    response["X-Content-Type-Options"] = "nosniff"
    # Read or not, the request's end (which closes the response) frees the export's place.
    response._resource_closers.append(budgeted.close)
    return response


class _Download(StreamingHttpResponse):
    """A streamed response with Django's list of what its ``close`` calls declared (untyped)."""

    _resource_closers: list[Callable[[], object]]
