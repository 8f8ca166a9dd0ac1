"""What the browser tests compare the pages with: the engine's answers, in each page's language."""

from __future__ import annotations

import random
from typing import Any

from django.utils import translation

from games.engine import poker
from games.engine.cards import parse_cards
from tables import ui_showdown, ui_strings
from wallet.money import format_coins

ROWS = ("front", "middle", "back")
SIZES = {"front": 3, "middle": 5, "back": 5}


def text(key: str, lang: str, **params: Any) -> str:
    """A page string as the browser shows it (ui_strings with {name} filled in)."""
    with translation.override(lang):
        value = str({**ui_strings.COMMON, **ui_strings.game_strings(), **ui_strings.TABLE, **ui_showdown.SHOWDOWN}[key])
    for name, param in params.items():
        value = value.replace("{" + name + "}", str(param))
    return value


def natural_seed(seats: int) -> str:
    """The first server seed (of 64 hex digits, counting up) whose 十三张 deal to ``seats`` players
    gives seat 0 a natural: the board then shows the most it can (the natural's note and 报到)."""
    from games.engine import thirteen
    from games.engine.thirteen.naturals import best_natural

    return next(f"{i:064x}" for i in range(10_000) if best_natural(thirteen.deal(f"{i:064x}", [], seats, 0)[0]))


def money(minor: int) -> str:
    """The pages' coin format, the site's: two decimals, thousands grouped ("1,234.50", "30.00")."""
    return format_coins(minor, grouping=True)


def signed(minor: int) -> str:
    return ("+" if minor > 0 else "") + money(minor)


def category(cards: list[str], *, suits: bool) -> int:
    key = poker.rank_row(parse_cards(cards), suits=suits)
    return -1 if poker.is_royal(key) else poker.category(key)


def category_text(cards: list[str], lang: str, *, suits: bool = True) -> str:
    cat = category(cards, suits=suits)
    return text("royal" if cat == -1 else f"cat_{cat}", lang)


def is_foul(rows: dict[str, list[str]], *, suits: bool) -> bool:
    keys = [poker.rank_row(parse_cards(rows[r]), suits=suits) for r in ROWS]
    return not keys[0] <= keys[1] <= keys[2]


def card_button(page: Any, card: str) -> Any:
    return page.locator(f'.board .card-btn[data-card="{card}"]')


def tap_rows(page: Any, rows: dict[str, list[str]]) -> None:
    """Place the rows by tapping: select each row's cards in the hand, then tap the row."""
    for row in ROWS:
        free = page.locator(f"[data-testid=row-{row}] .row-cards .card-btn").count()
        if free == SIZES[row]:
            continue  # filled already (十三张 fills the last row by itself)
        for card in rows[row]:
            card_button(page, card).click()
        page.click(f"[data-testid=row-{row}] .row-label")


def key_rows(page: Any, rows: dict[str, list[str]]) -> None:
    """Place the rows with the keyboard: focus a card, Enter selects it, 1/2/3 places them."""
    for index, row in enumerate(ROWS):
        if page.locator(f"[data-testid=row-{row}] .row-cards .card-btn").count() == SIZES[row]:
            continue
        for card in rows[row]:
            card_button(page, card).focus()
            page.keyboard.press("Enter")
        page.keyboard.press(str(index + 1))


def row_cards(page: Any, row: str) -> list[str]:
    cards = page.locator(f"[data-testid=row-{row}] .row-cards .card-btn")
    return sorted(cards.nth(i).get_attribute("data-card") for i in range(cards.count()))


def wait_showdown(page: Any) -> None:
    """The showdown panel, after its row-by-row reveal has finished."""
    page.wait_for_selector("[data-testid=showdown] [data-testid=result-0] [data-testid=coins]", state="visible", timeout=20_000)


def sit_down(p: Any, table: Any) -> None:
    """Open the table page, wait for the socket, sit down with the default buy-in (the stake
    level's minimum) and wait for the table money to show."""
    p.open(f"/tables/{table.pk}/")
    p.page.wait_for_selector("[data-testid=connection].conn-online")
    assert p.page.input_value("[data-testid=buy-in]") == money(table.stake_level.min_buy_in).replace(",", "")
    p.page.click("[data-testid=join]")
    p.page.wait_for_selector("[data-testid=my-table-money]")


#: Resolves once the page's finite CSS transitions and animations have ended (a blinking timer
#: runs forever and is left out). Two frames first: a transition that a click just asked for
#: (Alpine's ``x-transition`` sets its end state a frame later) is running by then.
_SETTLED = """async () => {
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const finite = document.getAnimations().filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity);
  await Promise.all(finite.map(a => a.finished.catch(() => null)));
}"""


def settled(page: Any) -> None:
    """Wait until nothing on the page is mid-transition: what a check measures (contrast,
    widths) is then what the reader sees, not a frame of a fade or a slide."""
    page.evaluate(_SETTLED)


def fouled_rows(cards: list[str]) -> dict[str, list[str]]:
    """Rows of these 13 cards that foul (a fouled hand is shot by every hand that does not)."""
    rng = random.Random(7)
    while True:
        picked = rng.sample(cards, 13)
        rows = {"front": picked[:3], "middle": picked[3:8], "back": picked[8:]}
        if is_foul(rows, suits=True):
            return rows


def shot_by_one(hand: Any, users: list[Any], shooter: Any) -> None:
    """Every player of a 十三张 hand but ``shooter`` submits fouled rows, and ``shooter`` its best
    rows, never a natural declared: it shoots every other seat, whatever it was dealt (run it
    with ``call``)."""
    from games.adapters import engine
    from games.engine.cards import cards_str
    from games.services.hands import hand_act

    hand.refresh_from_db()
    for user in users:
        seat = hand.seat_of(user.pk)
        if user.pk == shooter.pk:
            action = {**dict(engine(hand.game).auto_action(hand.state, seat)), "type": "arrange"}
        else:
            action = {"type": "arrange", **fouled_rows(cards_str(hand.state["seats"][seat]["cards"]))}
        reply = hand_act(table_id=hand.table_id, user=user, action=action)
        assert reply["status"] == "applied", reply
