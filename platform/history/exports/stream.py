"""Streaming exports from the database: iterator queries in chunks, never the whole result set.

:func:`export_lines` yields the text of an export line by line (a server-side cursor on
PostgreSQL, ``QuerySet.iterator(chunk_size)``); :func:`export_response` wraps it in a
``StreamingHttpResponse`` — an async iterator under ASGI (a sync one would be read into
memory whole by Django there), a sync one under WSGI and in the test client.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse

from accounts.models import User
from games.engine.record import canonical_json, player_copy
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
        rows = records.values_list("canonical", "hash").iterator(chunk_size=CHUNK_ROWS)
        for canonical, digest in rows:
            yield jsonl_fast(canonical, digest) if fmt == "jsonl" else render(fmt, body_of(canonical, digest))
        return
    mine = records.filter(seats__user=viewer).values_list("canonical", "hash", "seats__seat")
    for canonical, digest, seat in mine.iterator(chunk_size=CHUNK_ROWS):
        yield render(fmt, player_copy(body_of(canonical, digest), seat))


def chunks(lines: Iterator[str], size: int = CHUNK_LINES) -> Iterator[str]:
    while True:
        piece = "".join(itertools.islice(lines, size))
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
    """A streamed download of ``lines``."""
    raw = getattr(request, "_request", request)  # a DRF Request wraps Django's
    content: Iterator[str] | AsyncIterator[str] = (
        _async_chunks(lines) if isinstance(raw, ASGIRequest) else chunks(lines)
    )
    content_type, extension = FORMATS[fmt]
    response = StreamingHttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}.{extension}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
