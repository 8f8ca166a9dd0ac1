"""Table talk (games/services/talk.py): only a seated player talks, only from the catalogue, and
no faster than the per-player limit; what is said goes to the table's group, and nothing of it
touches the database (these tests have none: a query would fail them)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from games.broadcast import table_group
from games.services.errors import NotSeated
from games.services.talk import EMOTES, PHRASES, TalkRefused, TalkTooFast, talk_known, talk_say

SAYINGS = [*PHRASES, *EMOTES]


@pytest.fixture(autouse=True)
def _own_limits(settings: Any) -> Any:
    """Counts of this test's own (a user id repeats across tests), the limit as configured."""
    settings.GAMES_ABUSE_LIMITS = True
    settings.GAMES_LIMITS_PREFIX = f"test:{uuid.uuid4().hex}"
    settings.GAMES_TALK_LIMIT = 3
    settings.GAMES_TALK_WINDOW = 10
    return settings


def _user() -> int:
    return uuid.uuid4().int % 10**9


def _say(*, user_id: int, seat: int | None, say: str, table_id: int = 7) -> dict[str, Any]:
    return async_to_sync(talk_say)(table_id=table_id, user_id=user_id, seat=seat, say=say)


def test_the_catalogue_holds_eight_to_ten_phrases_and_about_six_emotes_under_distinct_ids() -> None:
    assert 8 <= len(PHRASES) <= 10 and 5 <= len(EMOTES) <= 8
    assert len(set(SAYINGS)) == len(SAYINGS)
    assert all(len(key) <= 32 for key in SAYINGS)  # the parser's bound on an id (games.protocol.MAX_SAY)


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant", "en"])
def test_every_phrase_and_emote_label_is_translated(language: str) -> None:
    with translation.override(language):
        texts = [str(text) for text in PHRASES.values()] + [str(label) for _glyph, label in EMOTES.values()]
    with translation.override("en"):
        english = [str(text) for text in PHRASES.values()] + [str(label) for _glyph, label in EMOTES.values()]
    if language != "en":
        assert all(a != b for a, b in zip(texts, english, strict=True)), texts
    assert len(set(texts)) == len(texts)


def test_a_seated_players_saying_goes_to_the_tables_group_once_as_one_frame() -> None:
    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(table_group(41), channel)
        reply = await talk_say(table_id=41, user_id=5, seat=2, say="hurry")
        event = await layer.receive(channel)
        await layer.group_discard(table_group(41), channel)
        return reply, event

    reply, event = async_to_sync(run)()
    assert reply == {"say": "hurry"}
    assert event["type"] == "table.talk" and event["table"] == 41
    assert json.loads(event["text"]) == {"type": "talk", "seat": 2, "user": 5, "say": "hurry"}


def test_a_player_not_seated_may_not_talk_and_spends_nothing() -> None:
    user = _user()
    with pytest.raises(NotSeated):
        _say(user_id=user, seat=None, say="hurry")
    for _ in range(3):  # the refusal took nothing of the allowance
        _say(user_id=user, seat=0, say="hurry")


def test_the_limit_refuses_the_next_saying_in_the_window_with_the_wait_in_the_players_language() -> None:
    user = _user()
    for say in ("hello", "smile", "nice_hand"):
        _say(user_id=user, seat=1, say=say)
    with translation.override("zh-hans"), pytest.raises(TalkTooFast) as refused:
        _say(user_id=user, seat=1, say="thanks")
    assert refused.value.code == "rate_limited"
    assert 0 < refused.value.retry_after <= 10
    assert "每 10 秒最多 3 条" in str(refused.value)
    _say(user_id=_user(), seat=1, say="thanks")  # another player's allowance is their own


def test_the_limit_counts_a_player_over_every_table() -> None:
    user = _user()
    for table_id in (1, 2, 3):
        _say(user_id=user, seat=0, say="hello", table_id=table_id)
    with pytest.raises(TalkTooFast):
        _say(user_id=user, seat=0, say="hello", table_id=4)


def test_with_the_abuse_limits_off_nobody_is_limited(settings: Any) -> None:
    settings.GAMES_ABUSE_LIMITS = False
    user = _user()
    for _ in range(10):
        _say(user_id=user, seat=0, say="laugh")


@settings(max_examples=200, deadline=None)
@given(say=st.text(max_size=40))
def test_only_a_catalogue_id_is_said_and_anything_else_is_refused_as_a_bad_message(say: str) -> None:
    if talk_known(say):
        assert say in SAYINGS
        return
    with pytest.raises(TalkRefused) as refused:
        _say(user_id=_user(), seat=0, say=say)
    assert refused.value.code == "bad_message"


@settings(max_examples=50, deadline=None)
@given(say=st.sampled_from(SAYINGS), seat=st.integers(min_value=0, max_value=9))
def test_every_catalogue_id_is_said_from_any_seat(say: str, seat: int) -> None:
    assert _say(user_id=_user(), seat=seat, say=say) == {"say": say}
