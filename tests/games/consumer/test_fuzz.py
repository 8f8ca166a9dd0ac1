"""No frame closes a socket (docs/PROTOCOL.md): generated frames of every kind — random JSON of
any depth, huge numbers, wrong types, unknown types, truncated JSON, binary, oversize, unicode —
sent to the real table and lobby consumers on the real database. The socket stays open, every
bad frame gets exactly one ``error`` frame, and a ``ping`` still gets its ``pong``."""

from __future__ import annotations

import json
from typing import Any

import pytest
import pytest_asyncio
from django.utils import translation
from django.utils.translation import gettext as in_language
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.protocol import MAX_MESSAGE_BYTES, MESSAGES
from tests.games.live.helpers import WsPlayer, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FUZZ = settings(
    max_examples=60, deadline=None, database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

FIELDS = ["type", "id", "action", "buy_in", "amount", "out", "seat", "front", "bets", "say", "name"]
scalars = (
    st.none() | st.booleans() | st.floats(allow_nan=True, allow_infinity=True)
    | st.integers(min_value=-(10**30), max_value=10**30) | st.text(max_size=20)
    | st.sampled_from(list(MESSAGES) + ["As", "arrange", "", "\u0000", "十三张", "\ud83c\udccf", "hurry", "smile"])
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), inner, max_size=6),
    max_leaves=25,
)
typed = st.fixed_dictionaries(
    {"type": st.sampled_from(list(MESSAGES)) | values},
    optional={name: values for name in FIELDS[1:]},
)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


huge_numbers = st.integers(min_value=16, max_value=5000).map(
    lambda n: f'{{"type":"join","id":"j1","buy_in":{"9" * n}}}'
)
deep = st.integers(min_value=7, max_value=5000).flatmap(
    lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, '{"type":"action","id":"a","action":' + "[" * n])
)
truncated = st.tuples(typed.map(_dumps), st.floats(min_value=0, max_value=0.99)).map(lambda t: t[0][: int(len(t[0]) * t[1])])
oversize = st.integers(min_value=MAX_MESSAGE_BYTES + 1, max_value=4 * MAX_MESSAGE_BYTES).map(
    lambda n: '{"type":"ping","pad":"' + "é" * (n // 2) + '"}'
)
text_frames = (
    values.map(_dumps) | typed.map(_dumps) | huge_numbers | deep | truncated | oversize
    | st.text(max_size=200) | st.sampled_from(["", "null", "NaN", '{"type":"ping"', "[" * 4000 + "]" * 4000])
)
frames = text_frames.map(lambda t: ("text", t)) | st.binary(max_size=MAX_MESSAGE_BYTES * 2).map(lambda b: ("bytes", b))


def _is_ping_or_sync(kind: str, frame: Any) -> str | None:
    """The one reply that is not an error: a well-formed ping or sync (anything else this
    player sends is refused: no coins, no seat, no hand)."""
    if kind != "text":
        return None
    try:
        raw = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    if isinstance(raw, dict) and raw.get("type") in ("ping", "sync") and "id" not in raw:
        return {"ping": "pong", "sync": "state"}[raw["type"]] if len(frame.encode("utf-8", "surrogatepass")) <= MAX_MESSAGE_BYTES else None
    return None


async def _send_raw(comm: Any, kind: str, frame: Any) -> None:
    """As the server hands a frame to the consumer (empty frames included)."""
    await comm.send_input({"type": "websocket.receive", kind: frame})


async def _send(player: WsPlayer, kind: str, frame: Any) -> None:
    await _send_raw(player.comm, kind, frame)


async def _exactly_one_answer(player: WsPlayer, kind: str, frame: Any) -> dict[str, Any]:
    await _send(player, kind, frame)
    reply = await player.recv(timeout=10)
    expected = _is_ping_or_sync(kind, frame)
    if expected is not None and reply["type"] == expected:
        return reply
    assert reply["type"] == "error", (frame, reply)
    assert reply["code"] not in ("server_error",) and reply["message"], (frame, reply)
    await player.comm.send_to(text_data='{"type":"ping"}')  # nothing else came for that frame
    assert (await player.recv(timeout=10))["type"] == "pong", frame
    return reply


@pytest_asyncio.fixture
async def penniless(funded: Any, table_for: Any, fast_socket: Any) -> Any:
    """A signed-in player without coins watching a table: whatever it sends is refused."""
    table = await db(table_for)("thirteen")
    player = await WsPlayer(table.pk, await db(funded)(coins=1)).connect()
    yield player
    await player.close()


@FUZZ
@given(batch=st.lists(frames, min_size=1, max_size=6))
async def test_every_bad_frame_gets_one_error_and_the_socket_stays_open(penniless: WsPlayer, batch: list) -> None:
    for kind, frame in batch:
        await _exactly_one_answer(penniless, kind, frame)


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("[" * 4000 + "]" * 4000, "too_large"),  # once a RecursionError that closed the socket
        ('{"type":"join","id":"j1","buy_in":' + "9" * 5000 + "}", "too_large"),  # once a ValueError
        ('{"type":"join","id":"j1","buy_in":' + "9" * 3000 + "}", "bad_message"),
        ('{"type":"join","id":"j1","buy_in":1e999}', "bad_message"),
        ('{"type":"join","id":"j1","buy_in":NaN}', "bad_message"),
        ('{"type":"join","id":"j1","buy_in":100000000000000}', "bad_message"),
        ('{"type":"join","id":"j1","buy_in":3000,"seat":-1}', "bad_message"),
        ('{"type":"join","id":"no spaces","buy_in":3000}', "bad_message"),
        ('{"type":"join","id":"' + "x" * 65 + '","buy_in":3000}', "bad_message"),
        ('{"type":"ping","pad":"' + "x" * MAX_MESSAGE_BYTES + '"}', "too_large"),
        ('{"type":"join","id":"j2","buy_in":3000}', "insufficient_funds"),
    ],
)
async def test_the_reported_frames_are_refused_with_a_reason(penniless: WsPlayer, frame: str, code: str) -> None:
    reply = await _exactly_one_answer(penniless, "text", frame)
    assert reply["code"] == code, reply


async def test_a_binary_frame_is_refused_with_a_reason(penniless: WsPlayer) -> None:
    reply = await _exactly_one_answer(penniless, "bytes", b'{"type":"ping"}')
    with translation.override("zh-hans"):  # the player's language: the default
        reason = in_language("binary frames are not accepted; send JSON text")
    assert reply["code"] == "bad_message" and reply["message"] == reason


@pytest_asyncio.fixture
async def at_a_hand(funded: Any, table_for: Any, fast_socket: Any) -> Any:
    """Two seated players with a hand of 十三张 in play; the first one fuzzes its moves."""
    from games.services.hands import hand_start_if_ready

    table = await db(table_for)("thirteen")
    players = [await WsPlayer(table.pk, await db(funded)()).connect() for _ in range(2)]
    for p in players:
        assert (await p.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    await players[0].next("state", where=lambda f: f["hand"] and f["hand"]["id"] == hand.pk)
    await players[0].drain(0.2)
    yield players[0]
    for p in players:
        await p.close()


moves = st.fixed_dictionaries(
    {"type": st.sampled_from(["arrange", "declare", "bet", "disconnect", "reconnect"]) | values},
    optional={"front": values, "middle": values, "back": values, "multiplier": values},
) | values


@FUZZ
@given(batch=st.lists(st.tuples(st.text(alphabet="abcdef0123456789", min_size=1, max_size=64), moves), min_size=1, max_size=5))
async def test_random_moves_at_a_hand_in_play_are_answered_once_and_never_fail(at_a_hand: WsPlayer, batch: list) -> None:
    for request_id, move in batch:
        await at_a_hand.comm.send_to(text_data=json.dumps({"type": "action", "id": request_id, "action": move}))
        reply = await at_a_hand.next_any(("ack", "error"), 10, lambda m: True)
        assert reply["type"] == "ack" or reply["code"] in ("illegal", "bad_message", "too_large", "duplicate_id"), (move, reply)
    await at_a_hand.comm.send_to(text_data='{"type":"ping"}')
    assert (await at_a_hand.next("pong"))["type"] == "pong"


# --- the lobby -------------------------------------------------------------------------------

@pytest_asyncio.fixture
async def lobby(funded: Any, fast_socket: Any) -> Any:
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from tables.routing import websocket_urlpatterns

    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_json_from(timeout=10))["type"] == "lobby"
    yield comm
    await comm.disconnect()


@FUZZ
@given(batch=st.lists(frames, min_size=1, max_size=6))
async def test_the_lobby_answers_every_frame_with_one_error_and_stays_open(lobby: Any, batch: list) -> None:
    for kind, frame in batch:
        await _send_raw(lobby, kind, frame)
        reply = await _lobby_next(lobby)
        assert reply is not None and reply["type"] == "error", (frame, reply)
        assert reply["code"] in ("read_only", "bad_message", "too_large"), reply
    assert await _lobby_next(lobby, wait=0.05) is None  # no frame got a second answer


async def _lobby_next(lobby: Any, wait: float = 10) -> dict[str, Any] | None:
    """The next message that is not a table summary (other tests' tables may still report)."""
    while not await lobby.receive_nothing(timeout=wait, interval=0.005):
        message = await lobby.receive_json_from()
        if message["type"] != "table":
            return message
    return None
