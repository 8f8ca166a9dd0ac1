"""The showdown in order and the table's feel: the rows are revealed before any stack moves, the
coins move before the summary shows; sounds for the deal, your turn, the last 5 seconds and a
win (none when muted, the switch remembered across a reload); the banner of special events and
the 打枪 pair line, doubled by a trio home run."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from games.engine.cards import cards_str, parse_cards
from games.engine.thirteen_trio.scoring import is_foul as trio_foul
from games.models import Hand
from games.services.hands import hand_act, hand_start_if_ready
from tests.browser.conftest import call
from tests.browser.helpers import is_foul, money, signed, sit_down, text, wait_showdown
from tests.browser.test_accessibility import violations

pytestmark = pytest.mark.browser

# Records, with a timestamp, every change of what the showdown shows: the seats' stacks, how many
# of the showdown's cards are still face down, and whether the summary (the results' coins) shows.
WATCH = """() => {
  window.__feel = [];
  let last = "";
  const visible = (sel) => [...document.querySelectorAll(sel)].some(e => e.offsetParent !== null);
  const snap = () => ({
    money: [...document.querySelectorAll("[data-testid=seat-money]")].map(e => e.textContent).join("|"),
    flips: document.querySelectorAll("[data-testid=showdown] .card-flip").length,
    down: document.querySelectorAll("[data-testid=showdown] .card-flip.down").length,
    delta: visible("[data-testid=seat-delta]"),
    summary: visible("[data-testid=showdown] [data-testid=coins]"),
  });
  new MutationObserver(() => {
    const s = snap(), key = JSON.stringify(s);
    if (key !== last) { last = key; window.__feel.push({t: performance.now(), ...s}); }
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
}"""

PLAYED = "() => window.CT && CT.sound ? CT.sound.played.slice() : null"


def fouled_rows(cards: list[str], *, foul: Any) -> dict[str, list[str]]:
    """Some arrangement of 13 of ``cards`` that fouls (a random one, tried until it does)."""
    rng = random.Random(7)
    for _ in range(10_000):
        picked = rng.sample(cards, 13)
        rows = {"front": picked[:3], "middle": picked[3:8], "back": picked[8:]}
        if foul(rows):
            return rows
    raise AssertionError("no fouled arrangement found")


def arrange(table: Any, user: Any, rows: dict[str, list[str]]) -> None:
    call(hand_act, table_id=table.pk, user=user, action={"type": "arrange", **rows})


def test_the_rows_show_before_the_stacks_move_and_the_summary_after_them_with_sounds(player, make_table):
    table = make_table("thirteen", arrange_seconds=12)
    alice, bob = player("阿丽"), player("Bob", lang="en")
    for p in (alice, bob):
        p.page.add_init_script(f"({WATCH})()")
    bob.page.emulate_media(reduced_motion="reduce")
    for p in (alice, bob):
        sit_down(p, table)

    # Bob mutes the table; the switch has a name, and a reload keeps it muted.
    toggle = bob.page.get_by_role("button", name=text("sound_mute", "en"))
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    bob.page.reload()
    bob.page.wait_for_selector("[data-testid=connection].conn-online")
    expect(bob.page.get_by_role("button", name=text("sound_mute", "en"))).to_have_attribute("aria-pressed", "true")
    expect(alice.page.locator("[data-testid=sound-toggle]")).to_have_attribute("aria-pressed", "false")
    before = alice.page.locator("[data-testid=seat-money]").all_inner_texts()

    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    for p in (alice, bob):
        p.page.wait_for_selector("[data-testid=board]", state="visible")
    alice.page.wait_for_function("() => CT.sound.played.indexOf('turn') >= 0")
    bob_cards = cards_str(hand.state["seats"][hand.seat_of(bob.user.pk)]["cards"])
    arrange(table, bob.user, fouled_rows(bob_cards, foul=lambda rows: is_foul(rows, suits=True)))
    alice.page.click("[data-testid=hint]")
    alice.page.wait_for_function("() => document.querySelectorAll('[data-testid=hand] .card-btn').length === 0")
    alice.page.wait_for_function("() => CT.sound.played.indexOf('clock') >= 0", timeout=15_000)  # the last 5 s
    alice.page.click("[data-testid=submit]")
    for p in (alice, bob):
        wait_showdown(p.page)

    hand = Hand.objects.get(pk=hand.pk)
    assert hand.status == Hand.Status.SETTLED
    me = hand.seat_of(alice.user.pk)
    assert hand.result["coins"][me] > 0  # a foul pays the sweep
    after = alice.page.locator("[data-testid=seat-money]").all_inner_texts()
    assert after != before

    log = alice.page.evaluate("window.__feel")
    shown = [e for e in log if e["flips"]]
    assert shown and shown[0]["down"] == shown[0]["flips"] == 26, shown[:1]  # all 26 cards face down first
    start = log.index(shown[0])
    moved = next(i for i, e in enumerate(log) if i >= start and e["money"] != log[start]["money"])
    assert log[start]["money"] == "|".join(before)
    assert all(e["money"] == log[start]["money"] for e in log[start:moved])  # no stack moves while a row is down
    assert log[moved]["down"] == 0, log[moved]  # the stacks move only once every row is face up
    revealed = next(i for i, e in enumerate(log) if i >= start and e["down"] == 0)
    assert revealed < moved and log[revealed]["money"] == log[start]["money"]
    summary = next(i for i, e in enumerate(log) if e["summary"])
    settled = next(i for i, e in enumerate(log) if e["money"] == "|".join(after))
    assert moved <= settled < summary  # the summary shows once the coins have moved
    assert log[summary]["t"] - log[moved]["t"] >= 500
    assert any(e["delta"] for e in log[moved:summary + 1])
    assert len({e["money"] for e in log[start:]}) > 2  # Alice sees the stacks count to their new amounts

    # Bob asked for reduced motion: the same order, the stacks jump straight to their new amounts.
    bob_log = bob.page.evaluate("window.__feel")
    bob_start = next(i for i, e in enumerate(bob_log) if e["flips"])
    bob_moved = next(i for i, e in enumerate(bob_log) if i > bob_start and e["money"] != bob_log[bob_start]["money"])
    assert bob_log[bob_moved - 1]["down"] == 0
    assert len({e["money"] for e in bob_log[bob_start:]}) == 2

    # Sounds: Alice heard the deal, her turn, the clock of her last seconds and her win, in order.
    played = alice.page.evaluate(PLAYED)
    assert played.index("deal") < played.index("turn") < played.index("clock") < played.index("win"), played
    assert bob.page.evaluate(PLAYED) == []  # muted: nothing asked for
    # 十三张 calls a sweep 大获全胜 (its rule text's word; 打枪 is the trio's, which pays extra): the
    # banner, the result's badge and the pair line name it so and say what the sweep paid.
    pair = hand.result["pairs"][0]
    paid = abs(pair["coins"])
    expect(alice.page.locator("[data-testid=highlight][data-kind=shoot]")).to_have_count(0)
    banner = alice.page.locator("[data-testid=highlight][data-kind=sweep]")
    expect(banner.locator(".highlight-title")).to_have_text(text("hl_sweep", "zh-hans"))
    expect(banner).to_contain_text(text("hl_collects_from", "zh-hans", name="阿丽", x=money(paid), **{"from": "Bob"}))
    expect(alice.page.locator("[data-testid=scoops]:visible")).to_have_text(text("sweeps", "zh-hans", names="Bob"))
    assert "打枪" not in alice.page.locator("[data-testid=showdown]").inner_text()
    line = alice.page.locator("[data-testid=pair-shoot]")
    expect(line.locator("[data-testid=pair-scoop]")).to_have_text(text("hl_sweep", "zh-hans"))
    expect(line.locator("[data-testid=pair-coins]")).to_have_text(signed(paid))
    expect(line.locator("[data-testid=pair-doubled]")).to_be_hidden()
    assert not alice.errors and not bob.errors


def test_a_trio_home_run_shows_its_banner_and_the_doubled_scoop_on_the_pair_lines(player, make_table):
    table = make_table("thirteen_trio")
    players = [player("阿丽"), player("Bob", lang="en"), player("小凯", lang="zh-hant")]
    for p in players:
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    alice, others = players[0], players[1:]
    for p in others:  # both others foul: 阿丽 shoots each of them, a home run
        cards = cards_str(hand.state["seats"][hand.seat_of(p.user.pk)]["cards"])
        rows = fouled_rows(cards, foul=lambda r: trio_foul({k: parse_cards(v) for k, v in r.items()}))
        arrange(table, p.user, rows)
    alice.page.wait_for_selector("[data-testid=board]", state="visible")
    alice.page.click("[data-testid=hint]")
    alice.page.wait_for_function("() => document.querySelectorAll('[data-testid=hand] .card-btn').length === 4")
    alice.page.click("[data-testid=submit]")
    for p in players:
        wait_showdown(p.page)

    hand = Hand.objects.get(pk=hand.pk)
    seat = hand.seat_of(alice.user.pk)
    assert hand.result["home_run"] == seat
    base = hand.state["rules"]["base"]
    banner = alice.page.locator("[data-testid=highlight]")
    home = alice.page.locator("[data-testid=highlight][data-kind=home_run]")
    expect(home).to_contain_text(text("home_run", "zh-hans"))
    expect(home).to_contain_text(text("hl_collects", "zh-hans", name="阿丽", x=money(4 * base)))
    shoots = alice.page.locator("[data-testid=highlight][data-kind=shoot]")
    expect(shoots).to_have_count(2)
    for i in range(2):
        expect(shoots.nth(i)).to_contain_text(money(2 * base))
        expect(shoots.nth(i)).to_contain_text(text("hl_doubled", "zh-hans"))
    assert banner.count() == 3 + sum(1 for s in hand.result["specials"] if s["kind"] == "jackpot")
    # the pair lines: 阿丽 +2 墩 from each, doubled; each of the others -2 to her
    lines = alice.page.locator("[data-testid=pair-shoot]")
    expect(lines).to_have_count(2)
    for i in range(2):
        line = lines.nth(i)
        expect(line.locator("[data-testid=pair-units]")).to_have_text(text("dun", "zh-hans", n="+2"))
        expect(line.locator("[data-testid=pair-coins]")).to_have_text(signed(2 * base))
        expect(line.locator("[data-testid=pair-doubled]")).to_be_visible()
    for p, lang in zip(others, ["en", "zh-hant"], strict=True):
        line = p.page.locator("[data-testid=pair-shoot]")
        expect(line).to_have_count(1)
        expect(line.locator("[data-testid=pair-units]")).to_have_text(text("dun", lang, n="-2"))
        expect(line.locator("[data-testid=pair-coins]")).to_have_text(signed(-2 * base))
        expect(p.page.locator("[data-testid=highlight][data-kind=home_run]")).to_contain_text(text("home_run", lang))
    for p in players:
        assert not p.errors
    assert violations(alice.page, alice.base) == []  # the banner and the pair lines pass axe-core
    alice.shot("trio-home-run-zh-hans")


def _sangong_seed(level: Any, players: int) -> str:
    """A server seed whose 三公 hand (all bets ×1, every seat auto-played) wins the hand."""
    from games.adapters import engine, engine_rules

    sg, rules = engine(level.game), engine_rules(level)
    for i in range(20_000):
        seed = f"{i:064x}"
        state = sg.new_hand(rules=rules, seats=[{"player": str(p), "stack": level.min_buy_in} for p in range(players)],
                            carry=None, server_seed=seed, now=0.0)
        while sg.result(state) is None:
            seat = sg.awaiting(state)[0]
            state, _ = sg.apply(state, seat, sg.auto_action(state, seat), now=0.0)
        if sg.view(state, None)["highlights"]:
            return seed
    raise AssertionError("no seed found")


def test_a_winning_sangong_hand_gets_its_banner_after_the_coins_move(player, make_table, monkeypatch):
    from games.services import hands as hand_services

    table = make_table("samgong", "all_compare")
    seed = _sangong_seed(table.stake_level, 2)
    monkeypatch.setattr(hand_services, "new_server_seed", lambda: seed)
    alice, bob = player("阿丽"), player("Bob", lang="en")
    alice.page.add_init_script(f"({WATCH})()")
    for p in (alice, bob):
        sit_down(p, table)
        p.page.check("[data-testid=auto-reveal]")
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None and hand.server_seed == seed
    for p in (alice, bob):
        p.page.click("[data-testid=bet-1]")
    for p in (alice, bob):
        p.page.wait_for_selector("[data-testid=showdown] [data-testid=result-1]", state="visible", timeout=15_000)
    hand = Hand.objects.get(pk=hand.pk)
    result = hand.result
    winner = result["winner"]
    assert not result["hands"][winner].startswith("point_")
    for p, lang in zip((alice, bob), ("zh-hans", "en"), strict=True):
        banner = p.page.locator("[data-testid=highlight][data-kind=sangong]")
        expect(banner).to_have_count(1)
        expect(banner).to_contain_text(text(f"hand_{result['hands'][winner]}", lang))
        name = hand.players[winner]["name"]
        expect(banner).to_contain_text(text("hl_collects", lang, name=name, x=money(result["gross"][winner])))
        assert not p.errors
    log = alice.page.evaluate("window.__feel")
    moved = next(i for i, e in enumerate(log) if e["delta"])
    summary = next(i for i, e in enumerate(log) if e["summary"])
    assert moved < summary and log[summary]["t"] - log[moved]["t"] >= 500
    assert alice.page.evaluate(PLAYED).count("win") == (1 if hand.seat_of(alice.user.pk) == winner else 0)
