"""Connection handling in the browser: reload mid-hand, a dropped socket, error messages."""

from __future__ import annotations

import pytest

from games.engine.cards import cards_str
from games.services.hands import hand_start_if_ready
from tests.browser.conftest import call
from tests.browser.helpers import category_text, row_cards, tap_rows, text, wait_showdown

pytestmark = pytest.mark.browser

CLOSE_SOCKET = "Alpine.$data(document.querySelector('[data-testid=table-page]')).socket.ws.close()"


def test_a_reloaded_page_resumes_the_hand_from_the_snapshot(player, make_table):
    table = make_table("thirteen")
    alice, bob = player("阿丽"), player("Bob", lang="en")
    bob.open(f"/tables/{table.pk}/")
    bob.page.wait_for_selector("[data-testid=connection].conn-online")
    bob.page.fill("[data-testid=buy-in]", "1")
    bob.page.click("[data-testid=join]")
    toast = bob.page.locator("[data-testid=toast]").first
    toast.wait_for()
    assert toast.inner_text().startswith("The buy-in of ")  # the server's one message, in the page's language
    bob.page.fill("[data-testid=buy-in]", "20")
    bob.page.click("[data-testid=join]")
    alice.open(f"/tables/{table.pk}/")
    alice.page.click("[data-testid=join]")
    for p in (alice, bob):
        p.page.wait_for_selector("[data-testid=my-table-money]")
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    alice.page.wait_for_selector("[data-testid=board]", state="visible")
    front = cards_str(hand.state["seats"][hand.seat_of(alice.user.pk)]["cards"][:3])
    tap_rows(alice.page, {"front": front, "middle": [], "back": []})
    assert row_cards(alice.page, "front") == sorted(front)

    alice.page.reload()
    alice.page.wait_for_selector("[data-testid=board]", state="visible")
    assert row_cards(alice.page, "front") == sorted(front)  # the rows survive the reload
    assert alice.page.locator("[data-testid=cat-front]").inner_text().startswith(category_text(front, "zh-hans"))

    alice.page.evaluate(CLOSE_SOCKET)
    status = alice.page.locator("[data-testid=connection]")
    alice.page.wait_for_selector("[data-testid=connection].conn-reconnecting")
    retry = text("conn_retry", "zh-hans").split("{s}")[0]
    assert status.inner_text() == text("conn_reconnecting", "zh-hans") or status.inner_text().startswith(retry)
    alice.page.wait_for_selector("[data-testid=connection].conn-online", timeout=10_000)
    assert status.inner_text() == text("conn_online", "zh-hans")

    for p in (alice, bob):
        p.page.click("[data-testid=hint]")
        p.page.wait_for_function("() => document.querySelectorAll('[data-testid=hand] .card-btn').length === 0")
        p.page.click("[data-testid=submit]")
    for p in (alice, bob):
        wait_showdown(p.page)
        assert not p.errors
    alice.shot("thirteen-after-reconnect")


def test_row_labels_and_the_foul_check_match_the_engine(player, make_table):
    """The browser's row evaluation against games.engine.poker on rows rich in every category."""
    import random

    from games.engine import poker
    from games.engine.cards import cards_str, parse_cards

    table = make_table("thirteen")
    p = player("阿丽").open(f"/tables/{table.pk}/")
    p.page.wait_for_selector("[data-testid=connection].conn-online")
    rng = random.Random(7)
    cases = []
    for n in range(600):
        ranks = rng.sample(range(13), rng.choice((3, 4, 5, 7, 13)))
        suits = rng.sample(range(4), rng.choice((1, 2, 4)))
        pool = [r * 4 + s for r in ranks for s in suits]
        if len(pool) < 13:
            pool = list(range(52))
        c = cards_str(rng.sample(pool, 13))
        cases.append({"front": c[:3], "middle": c[3:8], "back": c[8:13], "suits": n % 2 == 0})
    for top in range(3, 13):  # straight flushes, the wheel and royals included, in both suit modes
        run = [12, 0, 1, 2, 3] if top == 3 else list(range(top - 4, top + 1))
        suit = top % 4
        flush = cards_str([r * 4 + suit for r in run])
        rest = [c for c in cards_str(range(52)) if c not in flush]
        cases.append({"front": rest[:3], "middle": rng.sample(rest[3:], 5), "back": flush, "suits": top % 2 == 0})
    got = p.page.evaluate(
        """cases => cases.map(c => [CTEval.rank3(c.front), CTEval.rank5(c.middle, c.suits),
             CTEval.rank5(c.back, c.suits), CTEval.isFoul(c, c.suits)])""",
        cases,
    )
    for case, answer in zip(cases, got, strict=True):
        keys = [poker.rank3(parse_cards(case["front"]), suits=case["suits"]),
                poker.rank5(parse_cards(case["middle"]), suits=case["suits"]),
                poker.rank5(parse_cards(case["back"]), suits=case["suits"])]
        assert answer == [*keys, not keys[0] <= keys[1] <= keys[2]], case
    categories = {poker.category(k) for a in got for k in a[:3]}
    assert categories == set(range(9))  # every category was exercised
