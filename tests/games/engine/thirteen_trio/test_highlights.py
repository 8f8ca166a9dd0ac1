"""The showdown's special events in the view: 全壘打, 打槍 (doubled by the home run), 彩金."""

from __future__ import annotations

import doctest

from games.engine import thirteen_trio as trio
from games.engine.thirteen_trio import highlights as module
from tests.games.engine.thirteen_trio.helpers import MIDDLING, STRONG, WEAK, hand, play, start, with_hands


def test_the_worked_example_holds() -> None:
    assert doctest.testmod(module).failed == 0


def test_a_home_run_doubles_each_shoot_and_every_event_says_what_it_paid() -> None:
    state, _ = play(with_hands(start(), [STRONG, WEAK, MIDDLING], "6c"), [STRONG, WEAK, MIDDLING])
    view = trio.plugin.view(state, None)
    base = view["base"]
    events = view["highlights"]
    assert events[0] == {"kind": "home_run", "seat": 0, "units": 4, "coins": 4 * base}
    shoots = [e for e in events if e["kind"] == "shoot"]
    assert {(e["seat"], e["from"], e["units"], e["doubled"]) for e in shoots} == {(0, 1, 2, True), (0, 2, 2, True), (2, 1, 1, False)}
    assert all(e["coins"] == e["units"] * base for e in shoots)
    # the events add up to the units the game paid (no specials here)
    assert sum(e["units"] for e in shoots if e["seat"] == 0) == state["result"]["units"][0]


def test_the_jackpot_special_pays_one_from_each_other_player() -> None:
    jackpot_holder = hand("Qc Qd 2h", "3s 3h 4s 4c Kh", "9c 9d 9h Js Jh")  # the other three 9s in the back
    state, _ = play(with_hands(start(), [jackpot_holder, WEAK, MIDDLING], "9s"), [jackpot_holder, WEAK, MIDDLING])
    events = [e for e in trio.plugin.view(state, 1)["highlights"] if e["kind"] == "jackpot"]
    assert events == [{"kind": "jackpot", "seat": 0, "row": "back", "units": 2, "coins": 2 * state["rules"]["base"]}]


def test_a_game_in_play_or_voided_has_no_events() -> None:
    state = with_hands(start(), [STRONG, WEAK, MIDDLING], "6c")
    assert trio.plugin.view(state, 0)["highlights"] == []
    voided, _ = trio.plugin.void(state)
    assert trio.plugin.view(voided, 0)["highlights"] == []
