"""Client request ids, spent at most once per user (docs/PROTOCOL.md "Ids").

``games.services.commands`` records a request with an effect here, in the same transaction as
the effect, and answers a resent id from here; the sweeper forgets ids after
GAMES_CLIENT_ID_RETENTION seconds.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine.canonical import canonical_json
from games.models import ClientRequest
from games.services.errors import PlayError
from games.services.sql import statements
from kernel.rows import execute, json_param


def request_fingerprint(*, table_id: int, type: str, data: dict[str, Any]) -> str:
    """What makes a resend the same request: its type, its table and its fields."""
    body = {"type": type, "table": table_id, "data": data}
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def request_earlier_reply(*, user: User, client_id: str, fingerprint: str) -> dict[str, Any] | None:
    """The reply the id got the first time, marked ``duplicate``; None for a new id;
    ``duplicate_id`` when the id was spent on another request."""
    earlier = ClientRequest.objects.filter(user=user, client_id=client_id).values("fingerprint", "reply").first()
    if earlier is None:
        return None
    if earlier["fingerprint"] != fingerprint:
        raise PlayError(
            _("This request id was already used for another request; send each request with a new id."),
            code="duplicate_id",
        )
    reply: dict[str, Any] = {**earlier["reply"], "duplicate": True}
    if reply.get("status") == "applied":  # an action: "duplicate", the status clients know for a replayed action
        reply["status"] = "duplicate"
    return reply


def request_record(*, user: User, client_id: str, type: str, fingerprint: str, reply: dict[str, Any]) -> None:
    """Spend the id (inside the effect's transaction: a second spend fails the unique constraint)."""
    created = _CREATED.get_db_prep_save(timezone.now(), connection)
    execute(statements().request_insert, [user.pk, client_id, type, fingerprint, json_param(reply), created])


_CREATED = ClientRequest._meta.get_field("created")


def client_requests_prune(*, now: datetime | None = None) -> int:
    """Forget ids older than GAMES_CLIENT_ID_RETENTION seconds (no client resends that late)."""
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.GAMES_CLIENT_ID_RETENTION)
    deleted, _rows = ClientRequest.objects.filter(created__lt=cutoff).delete()
    return deleted
