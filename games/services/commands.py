"""One entry point from the WebSocket: a parsed message to one service call."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from config.errors import AppError
from games.protocol import Message
from games.services import hands, seating
from games.services.errors import PlayError
from games.services.retry import with_retries


@with_retries
def dispatch(table_id: int, user: User, message: Message) -> dict[str, Any]:
    """Run one request; any other refusal (the wallet's) becomes a :class:`PlayError` with the
    same code and its message in the player's language."""
    try:
        return _dispatch(table_id, user, message)
    except PlayError:
        raise
    except AppError as exc:
        raise PlayError(exc.localized(), code=exc.code) from exc


def _dispatch(table_id: int, user: User, message: Message) -> dict[str, Any]:
    data = message.data
    if message.type == "action":
        return hands.hand_act(table_id=table_id, user=user, action=data["action"], client_id=message.id)
    if message.type == "join":
        seat_index = data.get("seat")
        if seat_index is not None and (isinstance(seat_index, bool) or not isinstance(seat_index, int)):
            raise PlayError("'seat' must be a seat number", code="bad_message")
        seat = seating.seat_join(
            table_id=table_id, user=user, buy_in=data["buy_in"], request_id=str(message.id), seat_index=seat_index
        )
        return {"seat": seat.index}
    if message.type == "top_up":
        money = seating.seat_top_up(table_id=table_id, user=user, amount=data["amount"], request_id=str(message.id))
        return {"table_money": money}
    if message.type == "sit_out":
        seat = seating.seat_sit_out(table_id=table_id, user=user, out=data["out"])
        return {"status": seat.status}
    if message.type == "leave":
        return {"left": seating.seat_leave(table_id=table_id, user=user)}
    if message.type == "hint":
        return {"hints": hands.hand_hints(table_id=table_id, user=user)}
    raise PlayError(f"unsupported message {message.type!r}", code="bad_message")
