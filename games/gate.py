"""The table socket's gate: a signed-out socket from an address this server told within
``GAMES_WS_REFUSAL_QUIET`` seconds that it is past its connection limit, and still at it (one Redis
read, or none while the gate found it full within ``GAMES_WS_FULL_REMEMBER`` seconds: a slot freed
meanwhile waits that long), is refused as its handshake arrives (close 4429 before accepting: HTTP
403), before a consumer, a channel-layer channel, a claim or a frame is made for it
(docs/PROTOCOL.md "Limits"). Every other socket goes on to the consumer, which counts it and tells
the first one refused why; one the gate let by because a slot was free as it looked, and that finds
the slot taken when it claims it (a flood's sockets arrive together when a slot frees), is refused
before the handshake there too.
"""

from __future__ import annotations

from typing import Any, cast

from games.services.limits import (
    address_owner,
    connection_full_async,
    full_note,
    full_seen_recently,
    refusal_told_recently,
)
from kernel.client_ip import scope_client_ip

#: The close a refused socket gets (docs/PROTOCOL.md "Close codes").
CLOSE_TOO_MANY_CONNECTIONS = 4429


def gate_guard(application: Any) -> Any:
    """``application`` behind the gate."""

    async def gate(scope: Any, receive: Any, send: Any) -> Any:
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            owner = address_owner(scope_client_ip(cast("dict[str, Any]", scope)))
            if refusal_told_recently(owner=owner) and await _full(owner):
                if (await receive())["type"] == "websocket.connect":
                    await send({"type": "websocket.close", "code": CLOSE_TOO_MANY_CONNECTIONS})
                return None
        return await application(scope, receive, send)

    return gate


async def _full(owner: str) -> bool:
    """Whether the address is at its limit: as found within ``GAMES_WS_FULL_REMEMBER`` seconds,
    or read now (and remembered when full)."""
    if full_seen_recently(owner=owner):
        return True
    full = await connection_full_async(user_id=owner)
    if full:
        full_note(owner=owner)
    return full
