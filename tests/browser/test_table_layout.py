"""The table's layout at 375×667, 667×375, 1280×800 and 1366×768, in every game and mode, with the
longest display names and the largest banners: nothing of the result, the hand, the countdown,
the action buttons or the banners is covered (by a seat, a banner, the sound switch or a message),
cut off or off the first screen;
on a phone the opponents' seats, the suit sort and the sound switch stay in reach while a player
arranges; a house table's results name the bets that won."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Hand
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from tests.browser.conftest import call
from tests.browser.helpers import shot_by_one, text, wait_showdown
from tests.browser.layout import LONG_NAMES, PHONES, WIDE_NAMES, at_every_size, worst_case
from tests.factories import funded_user, hand_play_out

pytestmark = pytest.mark.browser


def _bench(table: Any, count: int) -> list[Any]:
    """``count`` players seated through the services, without a browser."""
    users = []
    for i in range(count):
        user = funded_user(f"bench{table.pk}_{i}", 2_000_000, display_name=f"座{table.pk}-{i}")
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 4, request_id=f"bench-{user.pk}")
        users.append(user)
    return users


def _seat_browser(p: Any, table: Any) -> None:
    p.open(f"/tables/{table.pk}/")
    p.page.wait_for_selector("[data-testid=connection].conn-online")
    p.page.fill("[data-testid=buy-in]", str(table.stake_level.min_buy_in * 4 // 100))
    p.page.click("[data-testid=join]")
    p.page.wait_for_selector("[data-testid=my-table-money]")


def _deal(table: Any, players: list[Any], benched: int) -> tuple[Hand, list[Any]]:
    for p in players:
        _seat_browser(p, table)
    bench = call(_bench, table, benched)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    return hand, [p.user for p in players] + bench


def _shoot(seat: int, other: int, coins: int = 300) -> dict[str, Any]:
    return {"kind": "shoot", "seat": seat, "from": other, "units": 3, "coins": coins, "doubled": False}


WORST_THIRTEEN = [
    {"kind": "home_run", "seat": 0, "units": 9, "coins": 90_000},
    _shoot(0, 1), _shoot(0, 2), _shoot(0, 3), _shoot(1, 2),
    {"kind": "natural", "seat": 3, "natural": "dragon", "units": 13, "coins": 130_000},
]
WORST_TRIO = [
    {"kind": "home_run", "seat": 0, "units": 4, "coins": 40_000},
    {**_shoot(0, 1, 20_000), "doubled": True}, {**_shoot(0, 2, 20_000), "doubled": True},
    {"kind": "jackpot", "seat": 2, "row": "back", "units": 2, "coins": 20_000},
]


def _arranging_keep(cards: int, seats: int) -> Any:
    def keep(size: str) -> dict[str, int]:
        k = {"[data-testid=hand] .card-btn": cards, ".board .row-cards": 3, "[data-testid=timer]": 1,
             "[data-testid=submit]": 1, "[data-testid=phase]": 1, "[data-testid=sort-suit]": 1,
             "[data-testid=sound-toggle]": 1}
        if size in PHONES:  # the others, and whether each is still thinking
            k[".felt .seat:not(.me) .seat-name"] = seats - 1
            k[".felt .seat:not(.me) .badge-plain, .felt .seat:not(.me) .badge-ok"] = seats - 1
        else:
            k[".felt .seat"] = seats
        return k
    return keep


@pytest.mark.parametrize(("game", "seats", "cards"), [("thirteen", 4, 13), ("thirteen_trio", 3, 17)])
def test_while_arranging_nothing_is_covered_or_off_the_first_screen_and_the_others_show(player, make_table, game,
                                                                                        seats, cards):
    table = make_table(game)
    me = player("阿丽", width=375, height=667)
    hand, users = _deal(table, [me], seats - 1)
    me.page.wait_for_selector("[data-testid=board]", state="visible")
    found = at_every_size(me.page, f"{game}-arrange", _arranging_keep(cards, seats))
    worst_case(me.page, LONG_NAMES)
    found += at_every_size(me.page, f"{game}-arrange-names", _arranging_keep(cards, seats))
    assert not found, "\n".join(found)

    # The suit sort is one tap away on a phone, and gives way to the rank sort it replaces.
    me.page.set_viewport_size({"width": 375, "height": 667})
    me.page.click("[data-testid=sort-suit]")
    expect(me.page.locator("[data-testid=sort-rank]")).to_be_visible()
    suits = me.page.locator("[data-testid=hand] .card-btn").evaluate_all("(e) => e.map(b => b.dataset.card[1])")
    runs = [suit for suit, _ in itertools.groupby(suits)]
    assert len(runs) == len(set(runs)), suits  # each suit's cards side by side
    # The sound switch works from the strip.
    toggle = me.page.locator("[data-testid=sound-toggle]")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    call(hand_play_out, hand, users)
    assert not me.errors


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_largest_banners_of_a_thirteen_showdown_cover_no_result(player, make_table, motion):
    table = make_table("thirteen")
    me = player("阿丽", width=375, height=667)
    me.page.emulate_media(reduced_motion=motion)
    hand, users = _deal(table, [me], 3)
    me.page.wait_for_selector("[data-testid=board]", state="visible")
    call(shot_by_one, hand, users, me.user)  # 阿丽 shoots all three: three 打枪 and a 全垒打
    wait_showdown(me.page)
    expect(me.page.locator("[data-testid=highlight]")).to_have_count(4)

    def keep(banners: int) -> dict[str, int]:  # every banner, at every size
        return {"[data-testid=showdown] .result": 4, "[data-testid=showdown] [data-testid=coins]": 4,
                "[data-testid=phase]": 1, "[data-testid=highlights]": 1, "[data-testid=highlight]": banners,
                "[data-testid=highlight] .highlight-title": banners}

    found = at_every_size(me.page, f"thirteen-banners-{motion}", keep(4))
    worst_case(me.page, LONG_NAMES, WORST_THIRTEEN)
    found += at_every_size(me.page, f"thirteen-banners-worst-{motion}", keep(len(WORST_THIRTEEN)))
    assert not found, "\n".join(found)
    assert not me.errors


def test_the_jackpot_banner_of_a_trio_showdown_covers_neither_phase_nor_set_nor_jackpot_card(player, make_table):
    table = make_table("thirteen_trio")
    me = player("阿丽", width=375, height=667)
    hand, users = _deal(table, [me], 2)
    me.page.wait_for_selector("[data-testid=board]", state="visible")
    call(hand_play_out, hand, users)
    wait_showdown(me.page)
    worst_case(me.page, WIDE_NAMES, WORST_TRIO)
    keep = {"[data-testid=showdown] .result": 3, "[data-testid=showdown] [data-testid=coins]": 3,
            "[data-testid=phase]": 1, ".jackpot img": 1,
            "[data-testid=highlights]": 1, "[data-testid=highlight]": len(WORST_TRIO),
            "[data-testid=highlight] .highlight-title": len(WORST_TRIO)}
    found = at_every_size(me.page, "trio-jackpot", keep)
    assert not found, "\n".join(found)
    assert not me.errors


SAMGONG = {  # mode -> (seats, the first action's buttons)
    "all_compare": (5, ["[data-testid=bet-1]"]),
    "banker_bid": (4, ["[data-testid=bid]", "[data-testid=pass]"]),
    "banker_rotate": (4, []),
    "pairwise": (6, []),
    "house": (6, ["[data-testid=spot-player]", "[data-testid=spot-tie]", "[data-testid=place-bets]"]),
}


@pytest.mark.parametrize("mode", list(SAMGONG))
def test_a_full_samgong_table_covers_nothing_from_the_deal_to_the_results(player, make_table, mode):
    seats, buttons = SAMGONG[mode]
    table = make_table("samgong", mode)
    me = player("阿丽", width=375, height=667)
    hand, users = _deal(table, [me], seats - 1)
    me.page.wait_for_selector("[data-testid=timer]", state="visible")
    acting = {"[data-testid=timer]": 1, "[data-testid=phase]": 1, ".felt .seat": seats,
              **{b: 1 for b in buttons if me.page.locator(b).is_visible()}}
    found = at_every_size(me.page, f"samgong-{mode}-act", acting)
    worst_case(me.page, WIDE_NAMES)
    found += at_every_size(me.page, f"samgong-{mode}-act-names", acting)

    call(hand_play_out, hand, users)
    me.page.wait_for_selector(f"[data-testid=showdown] [data-testid=result-{seats - 1}] [data-testid=coins]",
                              state="visible", timeout=15_000)
    results = {"[data-testid=showdown] [data-testid=coins]": seats, "[data-testid=phase]": 1}
    if mode == "house":  # both hands and their points, and which bets won
        results.update({"[data-testid=house-cards] .pcard": 6, "[data-testid=house-cards] .sg-hand": 2,
                        "[data-testid=showdown] [data-testid=bets-won]": seats})
    found += at_every_size(me.page, f"samgong-{mode}-result", results)
    won = [{"kind": "sangong", "seat": s, "hand": "da_sangong", "multiplier": 5, "coins": 50_000} for s in (0, 1)]
    worst_case(me.page, WIDE_NAMES, None if mode == "house" else won)
    found += at_every_size(me.page, f"samgong-{mode}-result-names", results)
    assert not found, "\n".join(found)
    assert not me.errors


def test_a_house_result_names_each_bet_and_whether_it_won_in_every_language(player, make_table):
    table = make_table("samgong", "house")
    me = player("阿丽", width=375, height=667)
    hand, users = _deal(table, [me], 0)
    me.page.wait_for_selector("[data-testid=spot-player]", state="visible")
    me.page.click("[data-testid=spot-player]")
    me.page.click("[data-testid=spot-tie]")
    me.page.click("[data-testid=place-bets]")
    me.page.wait_for_selector("[data-testid=showdown] [data-testid=result-0] [data-testid=bets-won]", state="visible",
                              timeout=15_000)
    hand = call(Hand.objects.get, pk=hand.pk)
    outcome = hand.result["outcome"]
    line = me.page.locator("[data-testid=result-0] [data-testid=bets-won]")
    player_word = text("bet_won" if outcome == "player" else "bet_push" if outcome == "tie" else "bet_lost", "zh-hans")
    tie_word = text("bet_won" if outcome == "tie" else "bet_lost", "zh-hans")
    expect(line.locator("[data-spot=player]")).to_contain_text(text("spot_player", "zh-hans"))
    expect(line.locator("[data-spot=player]")).to_contain_text(player_word)
    expect(line.locator("[data-spot=tie]")).to_contain_text(tie_word)
    me.shot("samgong-house-bets-portrait")
    assert not me.errors
