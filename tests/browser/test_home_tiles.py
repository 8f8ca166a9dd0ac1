"""The home page shows a tile for every registered game, from the registry, in the page's
language, on a desktop and on a phone (375×667); a tile opens the lobby at its game. The
contract's example game, registered by the test, gets its tile like the others."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from games.engine import registry
from tests.browser.conftest import ARTIFACTS
from tests.games.toy_game import plugin as toy

pytestmark = pytest.mark.browser
SIZES = {"desktop": (1280, 800), "phone": (375, 667)}


@pytest.fixture
def with_toy() -> Iterator[Any]:
    registry.register(toy)
    yield toy
    registry.unregister(toy.name)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh-hans", "zh-hant"])
def test_every_registered_game_has_a_tile_that_opens_its_lobby(
    browser: Any, server: str, with_toy: Any, size: str, lang: str
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server}/")
        tiles = page.locator("a.game-tile")
        assert tiles.count() == len(registry.game_codes())
        for engine in registry.games():
            tile = page.locator(f"[data-testid=game-tile-{engine.name}]")
            with translation.override(lang):
                assert tile.locator("h2").inner_text() == translation.gettext(engine.label)
                assert tile.locator("p").inner_text() == translation.gettext(engine.blurb)
            box = tile.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"home-tiles-{lang}-{size}.png"), full_page=True)
        page.locator(f"[data-testid=game-tile-{toy.name}]").click()
        page.wait_for_url(f"**/lobby/?game={toy.name}")
        page.wait_for_function("() => document.querySelector('.tab[aria-pressed=true]') !== null")
        with translation.override(lang):
            assert page.locator(".tab[aria-pressed=true]").inner_text() == translation.gettext(toy.label)
        assert errors == []
    finally:
        context.close()
