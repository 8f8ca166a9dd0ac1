"""Phone layout: at 375×667 (portrait) and 667×375 (landscape), what a player needs after the
deal is on the first screen without scrolling, for every game and mode; the top bar keeps one
line; a four-player showdown fits one screen; the arranging help names no keys on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from games.services.hands import hand_start_if_ready
from tests.browser.conftest import ARTIFACTS, call
from tests.browser.helpers import settled, sit_down, text, wait_showdown
from tests.factories import hand_play_out

pytestmark = pytest.mark.browser

PORTRAIT = (375, 667)
LANDSCAPE = (667, 375)
DESKTOP = (1280, 800)

BOXES = """(selectors) => {
  const out = [];
  for (const sel of selectors) {
    const els = [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null || e.getClientRects().length);
    out.push({sel, n: els.length, boxes: els.map(e => { const r = e.getBoundingClientRect();
      return {x: r.left, y: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height}; })});
  }
  return {out, scrollY: window.scrollY, innerW: window.innerWidth, innerH: window.innerHeight,
          scrollW: document.documentElement.scrollWidth, scrollH: document.documentElement.scrollHeight};
}"""


WORST_ROWS = """([name, bonus]) => {
  for (const cat of document.querySelectorAll('.board .row-cat')) {
    const [label, badge] = cat.querySelectorAll('span');
    label.textContent = name;
    badge.textContent = bonus;
    badge.style.display = '';
  }
}"""


LONG_NAME = "Bartholomew_of_Guangzhou_the_Magnificent"  # 40 characters, the longest display name, unbroken
WORST_RESULTS = """([name, scoops]) => {
  for (const result of document.querySelectorAll('[data-testid=showdown] .result')) {
    result.querySelector('.result-head strong').textContent = name;
    for (const badge of result.querySelectorAll('.badges .badge')) {
      badge.style.display = '';
      if (badge.classList.contains('badge-ok')) badge.textContent = scoops;
    }
    result.querySelector('.badges').style.display = '';
  }
}"""


def on_first_screen(page: Any, selectors: dict[str, int], name: str) -> None:
    """Every element of each selector (at least the given count) is visible inside the viewport
    with the page scrolled to the top, and the page is no wider than the screen."""
    page.evaluate("() => window.scrollTo(0, 0)")
    settled(page)  # a card on its way to a row is measured where it lands
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phone-{name}.png"))
    got = page.evaluate(BOXES, list(selectors))
    width, height = got["innerW"], got["innerH"]
    assert got["scrollW"] <= width, f"{name}: the page scrolls sideways ({got['scrollW']} > {width})"
    for entry, (sel, least) in zip(got["out"], selectors.items(), strict=True):
        assert entry["n"] >= least, f"{name}: {sel} shows {entry['n']}, expected at least {least}"
        for box in entry["boxes"]:
            assert box["w"] > 0 and box["h"] > 0, f"{name}: {sel} has no size"
            inside = box["x"] >= -0.5 and box["y"] >= -0.5 and box["r"] <= width + 0.5 and box["b"] <= height + 0.5
            assert inside, f"{name}: {sel} at {box} is outside the {width}×{height} screen"


def topbar_one_line(page: Any, name: str) -> None:
    tops = page.evaluate("""() => [...document.querySelectorAll('.topbar .brand, .topbar .nav > *, .topbar .langswitch')]
        .filter(e => e.getClientRects().length).map(e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })""")
    assert tops, name
    centres = [(t + b) / 2 for t, b in tops]
    assert max(centres) - min(centres) < 12, f"{name}: the top bar wraps ({tops})"


def phones(player: Any, lang: str = "zh-hans") -> list[Any]:
    return [player("竖屏", lang=lang, width=PORTRAIT[0], height=PORTRAIT[1]),
            player("横屏", lang=lang, width=LANDSCAPE[0], height=LANDSCAPE[1])]


def seated(table: Any, players: list[Any]) -> Any:
    for p in players:
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    return hand


@pytest.mark.parametrize(("game", "cards"), [("thirteen", 13), ("thirteen_trio", 17)])
def test_after_the_deal_cards_rows_countdown_and_submit_are_on_the_first_screen(player, make_table, game, cards):
    table = make_table(game)
    others = [player("阿丽"), player("Bob", lang="en")][: (2 if game == "thirteen" else 1)]
    phone = phones(player)
    hand = seated(table, [*phone, *others])
    for p, size in zip(phone, ("portrait", "landscape"), strict=True):
        p.page.wait_for_selector("[data-testid=board]", state="visible")
        p.page.wait_for_selector("[data-testid=timer]", state="visible")
        on_first_screen(p.page, {
            "[data-testid=hand] .card-btn": cards, "[data-testid=row-front] .row-label": 1,
            "[data-testid=row-middle] .row-cards": 1, "[data-testid=row-back] .row-cards": 1,
            "[data-testid=timer]": 1, "[data-testid=submit]": 1, "[data-testid=hint]": 1,
        }, f"{game}-deal-{size}")
        topbar_one_line(p.page, f"{game}-{size}")
        help_keys = p.page.locator("[data-testid=help-keys]")
        assert not help_keys.is_visible(), "a phone is told to press keys"
        assert p.page.locator("[data-testid=help-touch]").inner_text() == text("place_help_touch", "zh-hans")
        # A placed card moves from the hand to a row: every card is still on the first screen.
        p.page.click("[data-testid=hint]")
        p.page.wait_for_function("(n) => document.querySelectorAll('[data-testid=hand] .card-btn').length < n", arg=cards)
        on_first_screen(p.page, {".board .card-btn": cards, "[data-testid=timer]": 1, "[data-testid=submit]": 1},
                        f"{game}-hinted-{size}")
        # Whatever the deal: every row named by the longest category with the largest bonus.
        longest = max((text(f"cat_{i}", "zh-hans") for i in range(9)), key=len)
        p.page.evaluate(WORST_ROWS, [longest, text("bonus", "zh-hans", n=10)])
        on_first_screen(p.page, {".board .card-btn": cards, "[data-testid=submit]": 1}, f"{game}-bonus-{size}")
        assert not p.errors
    call(hand_play_out, hand, [p.user for p in [*phone, *others]])


def test_a_four_player_showdown_fits_one_phone_screen(player, make_table):
    table = make_table("thirteen")
    phone = phones(player)
    desk = player("阿丽", width=DESKTOP[0], height=DESKTOP[1])
    everyone = [*phone, desk, player("Bob", lang="en")]
    hand = seated(table, everyone)
    for p in everyone:
        p.page.wait_for_selector("[data-testid=board]", state="visible")
    call(hand_play_out, hand, [p.user for p in everyone])
    for p, size in zip(phone, ("portrait", "landscape"), strict=True):
        wait_showdown(p.page)
        p.page.wait_for_selector("[data-testid=showdown] [data-testid=result-3] [data-testid=coins]", state="visible")
        on_first_screen(p.page, {
            "[data-testid=showdown] .result": 4, "[data-testid=showdown] .pcard": 52, "[data-testid=coins]": 4,
        }, f"thirteen-showdown-{size}")
        topbar_one_line(p.page, f"showdown-{size}")
        # Whatever the hand and the names: the longest display name, unbroken, and every badge
        # showing at once, a scoop naming three such players, may grow the page but never widen it.
        scoops = text("scoops", "zh-hans", names="、".join([LONG_NAME] * 3))
        p.page.evaluate(WORST_RESULTS, [LONG_NAME, scoops])
        on_first_screen(p.page, {}, f"thirteen-showdown-names-{size}")  # the width only
        assert not p.errors
    wait_showdown(desk.page)
    desk.page.wait_for_timeout(300)
    assert desk.page.locator("[data-testid=help-keys]").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    desk.page.screenshot(path=str(ARTIFACTS / "phone-thirteen-showdown-desktop.png"), full_page=True)


SAMGONG_FIRST = {
    "all_compare": ("[data-testid=bet-1]", {"[data-testid=bet-1]": 1, "[data-testid=bet-5]": 1}),
    "banker_bid": ("[data-testid=bid]", {"[data-testid=bid]": 1, "[data-testid=pass]": 1, ".my-cards .pcard": 2}),
    "house": ("[data-testid=spot-player]", {"[data-testid=spot-player]": 1, "[data-testid=spot-banker]": 1,
                                          "[data-testid=place-bets]": 1, ".chip": 1}),
}


@pytest.mark.parametrize("mode", ["all_compare", "banker_bid", "house"])
def test_a_samgong_table_shows_its_cards_countdown_and_actions_on_the_first_screen(player, make_table, mode):
    table = make_table("samgong", mode)
    phone = phones(player, lang="en")
    others = [player("阿丽"), player("小凯", lang="zh-hant")] if mode != "house" else []
    hand = seated(table, [*phone, *others])
    ready, boxes = SAMGONG_FIRST[mode]
    for p, size in zip(phone, ("portrait", "landscape"), strict=True):
        p.page.wait_for_selector(ready, state="visible")
        p.page.wait_for_selector("[data-testid=timer]", state="visible")
        on_first_screen(p.page, {**boxes, "[data-testid=timer]": 1, ".felt .seat": 2}, f"samgong-{mode}-{size}")
        topbar_one_line(p.page, f"samgong-{mode}-{size}")
        assert not p.errors
    everyone = [*phone, *others]
    call(hand_play_out, hand, [p.user for p in everyone])
    if mode != "house":  # four players: the results fit one screen too
        for p, size in zip(phone, ("portrait", "landscape"), strict=True):
            p.page.wait_for_selector("[data-testid=showdown] [data-testid=result-3] [data-testid=coins]", state="visible",
                                     timeout=15_000)
            on_first_screen(p.page, {"[data-testid=showdown] [data-testid=coins]": 4},
                            f"samgong-{mode}-showdown-{size}")
            p.page.evaluate("(name) => document.querySelectorAll('.sg-table td:first-child strong')"
                            ".forEach(e => { e.textContent = name; })", LONG_NAME)
            # and the widest hand, bet and coins a row may show, whatever this hand dealt
            p.page.evaluate("() => document.querySelectorAll('[data-testid=showdown] tr').forEach(r => {"
                            " const set = (q, text) => r.querySelectorAll(q).forEach(e => { e.textContent = text; });"
                            " set('[data-testid=hand-name]', 'Mixed three faces'); set('.sg-bet', '×5');"
                            " set('[data-testid=coins]', '-12,345.00'); })")
            on_first_screen(p.page, {}, f"samgong-{mode}-showdown-names-{size}")  # the width only
            rights = p.page.evaluate("() => [...document.querySelectorAll('[data-testid=showdown] [data-testid=coins]')]"
                                     ".map(e => e.getBoundingClientRect().right)")
            width = PORTRAIT[0] if size == "portrait" else LANDSCAPE[0]
            cells = p.page.evaluate("() => [...document.querySelector('[data-testid=showdown] tr').cells]"
                                    ".map(e => Math.round(e.getBoundingClientRect().width))")
            assert len(rights) == 4 and max(rights) <= width, \
                f"samgong-{mode}-{size}: the widest row pushes the coins off the screen ({rights}, cells {cells})"
