"""Client messages of the table WebSocket (docs/PROTOCOL.md): parsing and validation.

Every problem becomes a :class:`BadMessage` whose text says what is wrong; the consumer
answers it with an error frame and keeps the connection open.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

MAX_MESSAGE_BYTES = 8192
MAX_ID_LENGTH = 64

#: type -> (needs an "id", required fields with their kinds)
MESSAGES: dict[str, tuple[bool, dict[str, str]]] = {
    "ping": (False, {}),
    "sync": (False, {}),
    "action": (True, {"action": "object"}),
    "join": (True, {"buy_in": "amount"}),
    "top_up": (True, {"amount": "amount"}),
    "sit_out": (False, {"out": "bool"}),
    "leave": (False, {}),
    "hint": (False, {}),
}


class BadMessage(ValueError):
    def __init__(self, message: str, *, client_id: str | None = None) -> None:
        super().__init__(message)
        self.client_id = client_id


@dataclass
class Message:
    type: str
    id: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


def _check_kind(name: str, value: Any, kind: str, client_id: str | None) -> None:
    if kind == "object" and not isinstance(value, dict):
        raise BadMessage(f"'{name}' must be an object", client_id=client_id)
    if kind == "bool" and not isinstance(value, bool):
        raise BadMessage(f"'{name}' must be true or false", client_id=client_id)
    if kind == "amount" and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
        raise BadMessage(f"'{name}' must be a positive whole number of minor units", client_id=client_id)


def parse(text: str | None) -> Message:
    """Parse one text frame into a :class:`Message` or raise :class:`BadMessage`."""
    if text is None:
        raise BadMessage("binary frames are not accepted; send JSON text")
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message too large (over {MAX_MESSAGE_BYTES} bytes)")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadMessage(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    if not isinstance(raw, dict):
        raise BadMessage("a message must be a JSON object with a 'type'")
    client_id = raw.get("id") if isinstance(raw.get("id"), str) else None
    kind = raw.get("type")
    if kind not in MESSAGES:
        raise BadMessage(f"unknown message type {kind!r}; expected one of {', '.join(MESSAGES)}", client_id=client_id)
    needs_id, fields = MESSAGES[kind]
    if needs_id and (not client_id or len(client_id) > MAX_ID_LENGTH):
        raise BadMessage(f"'{kind}' needs an 'id': a string of 1-{MAX_ID_LENGTH} characters", client_id=None)
    for name, field_kind in fields.items():
        if name not in raw:
            raise BadMessage(f"'{kind}' needs '{name}'", client_id=client_id)
        _check_kind(name, raw[name], field_kind, client_id)
    data = {k: v for k, v in raw.items() if k not in ("type", "id")}
    return Message(type=kind, id=client_id, data=data)
