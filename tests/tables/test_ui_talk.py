"""The talk catalogue and labels the table page hands its scripts (tables/ui_talk.py): every
phrase and emote of games.services.talk, in the page's language, and the ping interval of
GAMES_PING_EVERY."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.services.talk import EMOTES, PHRASES
from tables.ui_talk import TALK, ping_every_ms, talk_page_data


@pytest.mark.parametrize(("language", "hurry", "none"), [
    ("zh-hans", "快点吧！", "不通"), ("zh-hant", "快點吧！", "不通"), ("en", "Hurry up, please!", "No connection"),
])
def test_the_page_gets_every_phrase_and_emote_in_its_language(language: str, hurry: str, none: str) -> None:
    with translation.override(language):
        data = talk_page_data()
    assert [key for key, _text in data["phrases"]] == list(PHRASES)
    assert [key for key, _glyph, _label in data["emotes"]] == list(EMOTES)
    assert dict(data["phrases"])["hurry"] == hurry
    assert data["strings"]["link_none"] == none
    assert set(data["strings"]) == set(TALK)


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_the_connection_levels_are_the_players_words(language: str) -> None:
    with translation.override(language):
        levels = [str(TALK[f"link_{level}"]) for level in ("good", "fair", "poor", "none")]
    assert levels == ["好", "一般", "差", "不通"]


@pytest.mark.parametrize(("seconds", "ms"), [(5.0, 5000), (0.5, 500), (0.01, 100)])
def test_the_ping_interval_comes_from_the_setting_and_never_floods(settings: Any, seconds: float, ms: int) -> None:
    settings.GAMES_PING_EVERY = seconds
    assert ping_every_ms() == ms
