"""Every error frame is in its user's language (docs/PROTOCOL.md "Errors"): the signed-in player's
saved language, else the language cookie or ``Accept-Language`` of an anonymous spectator."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from config.routing import websocket_urlpatterns
from kernel.websocket import scope_language
from tests.games.live.helpers import WsPlayer, db

pytestmark = [pytest.mark.django_db(transaction=True)]


def _set_language(user: Any, language: str) -> Any:
    user.language = language
    user.save(update_fields=["language"])
    return user


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "is below this table's minimum"), ("zh-hans", "低于本桌最低买入"), ("zh-hant", "低於本桌最低買入")],
)
async def test_a_refusal_is_in_the_players_own_language(funded, table_for, language, expected):
    user = await db(_set_language)(await db(funded)(), language)
    table = await db(table_for)("thirteen")
    player = await WsPlayer(table.pk, user).connect()
    await player.comm.send_to(text_data=json.dumps({"type": "join", "id": uuid.uuid4().hex, "buy_in": 1}))
    error = await player.next("error")
    assert error["code"] == "below_minimum_buy_in"
    assert expected in error["message"], error["message"]
    await player.close()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([(b"cookie", b"django_language=en")], "Log in to play."),
        ([(b"cookie", b"django_language=zh-hant")], "請登入後再玩。"),
        ([(b"accept-language", b"en-GB,en;q=0.8")], "Log in to play."),
        ([(b"cookie", b"django_language=xx; broken"), (b"accept-language", b"fr")], "请登录后再玩。"),
    ],
)
async def test_a_spectator_is_answered_in_the_language_of_the_page(table_for, headers, expected):
    table = await db(table_for)("thirteen")
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tables/{table.pk}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    assert json.loads(await comm.receive_from(timeout=10))["type"] == "state"
    await comm.send_to(text_data=json.dumps({"type": "action", "id": "a1", "action": {"type": "arrange"}}))
    error = json.loads(await comm.receive_from(timeout=10))
    assert (error["code"], error["message"]) == ("login_required", expected)
    await comm.disconnect()


def test_the_saved_language_of_a_signed_in_user_comes_first():
    class Signed:
        is_authenticated, language = True, "en"

    scope = {"user": Signed(), "headers": [(b"cookie", b"django_language=zh-hant"), (b"accept-language", b"zh-CN")]}
    assert scope_language(scope) == "en"
    assert scope_language({"headers": [(b"accept-language", b"zh-TW,zh;q=0.9")]}) == "zh-hant"
    assert scope_language({"headers": []}) == "zh-hans"
