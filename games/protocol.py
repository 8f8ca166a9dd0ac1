"""Client messages of the table WebSocket (docs/PROTOCOL.md): parsing and validation.

The parser is total: whatever a client sends (any bytes, any size, any JSON), :func:`parse`
returns a :class:`Message` or raises :class:`BadMessage` whose text says what is wrong; the
consumer answers it with one error frame and keeps the connection open. Limits are checked
before the work they bound: the size before decoding, the digits of a number before it is
converted, the nesting depth while the JSON is still text.
"""

from __future__ import annotations

import json
import logging
import math
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

#: The largest text frame accepted, in bytes of UTF-8 (a move of 十三张 is about 150).
MAX_MESSAGE_BYTES = 4096
#: Client ids: 1-64 characters of this alphabet (a UUID, hex or with dashes, fits).
MAX_ID_LENGTH = 64
ID_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
#: Objects and lists nested deeper than this are refused (a move needs 3).
MAX_DEPTH = 6
#: Whole numbers: at most this many digits; amounts at most MAX_AMOUNT minor units.
MAX_DIGITS = 15
MAX_AMOUNT = 10**12
MAX_SEAT = 99
MAX_MOVE_TYPE = 32
#: A saying of table talk is named by an id of at most this many characters.
MAX_SAY = 32
#: A player's name, as a room invitation names the invitee (accounts: display names of 40).
MAX_NAME = 40

#: type -> (needs an "id", required fields with their kinds, optional fields with their kinds)
MESSAGES: dict[str, tuple[bool, dict[str, str], dict[str, str]]] = {
    "ping": (False, {}, {}),
    "sync": (False, {}, {}),
    "action": (True, {"action": "move"}, {}),
    "join": (True, {"buy_in": "amount"}, {"seat": "seat"}),
    "top_up": (True, {"amount": "amount"}, {}),
    "sit_out": (False, {"out": "bool"}, {}),
    "leave": (False, {}, {}),
    "hint": (False, {}, {}),
    "talk": (False, {"say": "say"}, {}),
    # a private room's owner (docs/RULES.md "Private rooms"); an invitation also by a seated player
    "room_start": (False, {}, {}),
    "room_remove": (False, {"seat": "seat"}, {}),
    "room_close": (False, {}, {}),
    "room_invite": (False, {"name": "name"}, {}),
}


class BadMessage(ValueError):
    """A frame the parser refuses: ``code`` is the error frame's (``too_large`` for a frame over
    the size limit, ``bad_message`` for everything else)."""

    def __init__(self, message: str, *, client_id: str | None = None, code: str = "bad_message") -> None:
        super().__init__(message)
        self.client_id = client_id
        self.code = code


@dataclass
class Message:
    type: str
    id: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_DIGITS:
        raise BadMessage(_("numbers may have at most %(n)d digits") % {"n": MAX_DIGITS})
    return int(text)


def _float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        raise BadMessage(_("numbers may have at most %(n)d digits") % {"n": MAX_DIGITS})
    value = float(text)
    if math.isinf(value):
        raise BadMessage(_("%(value)s is not a JSON number") % {"value": text})
    return value


def _constant(text: str) -> Any:
    raise BadMessage(_("%(value)s is not a JSON number") % {"value": text})


def _depth(text: str) -> int:
    """The deepest nesting of objects and lists in JSON text (brackets inside strings skipped),
    computed before decoding so that no depth can exhaust the decoder's stack."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def decode(text: str | None) -> Any:
    """One frame to a JSON value, within the size, depth and number limits."""
    if text is None:
        raise BadMessage(_("binary frames are not accepted; send JSON text"))
    # A character is at most 4 bytes of UTF-8: the cheap test first, the exact one after.
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise BadMessage(_("message too large (over %(n)d bytes)") % {"n": MAX_MESSAGE_BYTES}, code="too_large")
    if _depth(text) > MAX_DEPTH:
        raise BadMessage(_("message nested too deeply (over %(n)d levels)") % {"n": MAX_DEPTH})
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise BadMessage(
            _("invalid JSON at line %(line)d column %(column)d") % {"line": exc.lineno, "column": exc.colno}
        ) from exc
    except BadMessage:
        raise
    except (ValueError, RecursionError, OverflowError, UnicodeError) as exc:
        raise BadMessage(_("invalid JSON")) from exc


def _check_kind(name: str, value: Any, kind: str, client_id: str | None) -> None:
    if kind in ("object", "move") and not isinstance(value, dict):
        raise BadMessage(_("'%(name)s' must be an object") % {"name": name}, client_id=client_id)
    if kind == "move" and not (isinstance(value.get("type"), str) and 0 < len(value["type"]) <= MAX_MOVE_TYPE):
        raise BadMessage(_("'%(name)s' needs a 'type': the name of the move") % {"name": name}, client_id=client_id)
    if kind == "say" and not (isinstance(value, str) and 0 < len(value) <= MAX_SAY):
        raise BadMessage(_("'%(name)s' must name a phrase or an emote") % {"name": name}, client_id=client_id)
    if kind == "bool" and not isinstance(value, bool):
        raise BadMessage(_("'%(name)s' must be true or false") % {"name": name}, client_id=client_id)
    whole = isinstance(value, int) and not isinstance(value, bool)
    if kind == "amount" and not (whole and 0 < value <= MAX_AMOUNT):
        raise BadMessage(
            _("'%(name)s' must be a positive whole number of minor units, at most %(max)d")
            % {"name": name, "max": MAX_AMOUNT},
            client_id=client_id,
        )
    if kind == "seat" and not (whole and 0 <= value <= MAX_SEAT):
        raise BadMessage(_("'%(name)s' must be a seat number") % {"name": name}, client_id=client_id)
    if kind == "name" and not (isinstance(value, str) and 0 < len(value.strip()) <= MAX_NAME):
        raise BadMessage(
            _("'%(name)s' must be a player's name of 1-%(n)d characters") % {"name": name, "n": MAX_NAME},
            client_id=client_id,
        )


def _client_id(raw: dict[str, Any]) -> str | None:
    value = raw.get("id")
    return value if isinstance(value, str) and ID_PATTERN.fullmatch(value) else None


def parse(text: str | None) -> Message:
    """Parse one frame into a :class:`Message` or raise :class:`BadMessage`; never anything else."""
    try:
        return _parse(text)
    except BadMessage:
        raise
    except Exception as exc:  # the parser is total: a bug here must not close the socket
        log.exception("a frame could not be parsed")
        raise BadMessage(_("message could not be read")) from exc


def _parse(text: str | None) -> Message:
    raw = decode(text)
    if not isinstance(raw, dict):
        raise BadMessage(_("a message must be a JSON object with a 'type'"))
    client_id = _client_id(raw)
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        shown = kind if isinstance(kind, str | int | float | bool | None) else type(kind).__name__
        raise BadMessage(
            _("unknown message type %(type)s; expected one of %(types)s")
            % {"type": repr(shown)[:40], "types": ", ".join(MESSAGES)},
            client_id=client_id,
        )
    needs_id, required, optional = MESSAGES[kind]
    if "id" in raw and client_id is None:
        raise BadMessage(_("'id' must be 1-%(n)d letters, digits or _ . : -") % {"n": MAX_ID_LENGTH})
    if needs_id and client_id is None:
        raise BadMessage(
            _("'%(type)s' needs an 'id': a string of 1-%(n)d characters") % {"type": kind, "n": MAX_ID_LENGTH}
        )
    for name, field_kind in required.items():
        if name not in raw:
            raise BadMessage(_("'%(type)s' needs '%(name)s'") % {"type": kind, "name": name}, client_id=client_id)
        _check_kind(name, raw[name], field_kind, client_id)
    for name, field_kind in optional.items():
        if raw.get(name) is not None:
            _check_kind(name, raw[name], field_kind, client_id)
    data = {k: v for k, v in raw.items() if k not in ("type", "id")}
    return Message(type=kind, id=client_id, data=data)
