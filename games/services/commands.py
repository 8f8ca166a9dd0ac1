"""One entry point from the WebSocket: a parsed message to one service call, at most once per id.

A request with an effect that carries a client ``id`` spends the id for the user
(docs/PROTOCOL.md "Ids"): the id, a fingerprint of the request and its reply are written as a
``ClientRequest`` (``games.services.requests``) in the same transaction as the effect. The same id again
gets the first reply and changes nothing; the same id for a different request is refused
with ``duplicate_id``. A refused request changes nothing and spends nothing.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.protocol import Message
from games.services import hands, rooms, seating
from games.services.errors import PlayError
from games.services.requests import request_earlier_reply, request_fingerprint, request_record
from games.services.retry import with_retries
from kernel.errors import AppError
from tables.rooms import room_invite, user_by_shown_name

#: Requests with an effect: an id is spent by the first of them that takes effect.
EFFECTS = frozenset({"action", "join", "top_up", "sit_out", "leave"})


@with_retries
def dispatch(table_id: int, user: User, message: Message, signed_in: str | None = None) -> dict[str, Any]:
    """Run one request (``signed_in``: the key of the session it came through, whose log-out
    refuses a join or a top-up); any other refusal (the wallet's) becomes a :class:`PlayError`
    with the same code and its message in the player's language."""
    try:
        if message.id and message.type in EFFECTS:
            return _once(table_id, user, message, signed_in)
        return _dispatch(table_id, user, message, signed_in)
    except PlayError:
        raise
    except AppError as exc:
        raise PlayError(exc.localized(), code=exc.code) from exc


def _once(table_id: int, user: User, message: Message, signed_in: str | None) -> dict[str, Any]:
    """Optimistic: a new id (the usual case) costs one insert, beside the effect. A spent id
    shows itself when the effect is refused (a resend of what has been applied) or when its
    insert fails (any other resend, or a concurrent one that committed first); either way
    ours is rolled back whole and the first reply, or ``duplicate_id``, is the answer."""
    fingerprint = request_fingerprint(table_id=table_id, type=message.type, data=message.data)
    try:
        return _run_once(table_id, user, message, fingerprint, signed_in)
    except (IntegrityError, AppError):
        earlier = request_earlier_reply(user=user, client_id=str(message.id), fingerprint=fingerprint)
        if earlier is None:
            raise
        return earlier


@transaction.atomic
def _run_once(table_id: int, user: User, message: Message, fingerprint: str, signed_in: str | None) -> dict[str, Any]:
    reply = _dispatch(table_id, user, message, signed_in)
    request_record(user=user, client_id=str(message.id), type=message.type, fingerprint=fingerprint, reply=reply)
    return reply


def _dispatch(table_id: int, user: User, message: Message, signed_in: str | None = None) -> dict[str, Any]:
    data = message.data
    if message.type == "action":
        return hands.hand_act(table_id=table_id, user=user, action=data["action"], client_id=message.id)
    if message.type == "join":
        seat = seating.seat_join(
            table_id=table_id, user=user, buy_in=data["buy_in"], request_id=str(message.id),
            seat_index=data.get("seat"), signed_in=signed_in,
        )
        return {"seat": seat.index}
    if message.type == "top_up":
        money = seating.seat_top_up(table_id=table_id, user=user, amount=data["amount"], request_id=str(message.id),
                                    signed_in=signed_in)
        return {"table_money": money}
    if message.type == "sit_out":
        seat = seating.seat_sit_out(table_id=table_id, user=user, out=data["out"])
        return {"status": seat.status}
    if message.type == "leave":
        return {"left": seating.seat_leave(table_id=table_id, user=user)}
    if message.type.startswith("room_"):
        return _room(table_id, user, message)
    raise PlayError(_("unsupported message %(type)s") % {"type": repr(message.type)}, code="bad_message")


def _room(table_id: int, user: User, message: Message) -> dict[str, Any]:
    """A private room's requests (docs/RULES.md "Private rooms")."""
    if message.type == "room_start":
        return rooms.room_start(table_id=table_id, user=user)
    if message.type == "room_remove":
        return rooms.room_remove(table_id=table_id, user=user, seat_index=message.data["seat"])
    if message.type == "room_close":
        return rooms.room_close(table_id=table_id, user=user)
    if message.type == "room_invite":
        invitee = user_by_shown_name(name=message.data["name"])
        if invitee is None:
            raise PlayError(_("No player has that name."), code="no_player")
        room_invite(room_id=table_id, inviter=user, invitee=invitee)
        return {"invited": invitee.shown_name}
    raise PlayError(_("unsupported message %(type)s") % {"type": repr(message.type)}, code="bad_message")
