"""The lobby WebSocket: the open tables on connect, then one message per changed table.

Live play (``games.broadcast``) sends each changed table's summary to :data:`LOBBY_GROUP`;
this module owns the group's name, so live play imports it from here and nothing here
imports live play."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

#: The channel-layer group every lobby socket listens on.
LOBBY_GROUP = "lobby"


def _tables() -> list[dict[str, Any]]:
    from tables.selectors import table_list_open, table_summary

    return [table_summary(t) for t in table_list_open()]


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        tables = await database_sync_to_async(_tables)()
        await self.send(text_data=json.dumps({"type": "lobby", "tables": tables}))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        error = {"type": "error", "code": "read_only", "message": "The lobby only sends."}
        await self.send(text_data=json.dumps(error))

    async def lobby_table(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "table", "table": event["table"]}))
