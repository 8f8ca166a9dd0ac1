"""The thirteen_trio state machine (games/engine/protocol.py) against docs/RULES.md section 2."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.engine import thirteen_trio as trio
from games.engine.errors import EngineError, IllegalAction
from games.engine.thirteen_trio.scoring import is_foul
from tests.games.engine.thirteen_trio.helpers import (
    BASE,
    MIDDLING,
    NOW,
    STRONG,
    WEAK,
    action,
    play,
    seats,
    start,
    with_hands,
)

State = dict[str, Any]


def golden(**kw: Any) -> State:
    """A game dealt STRONG / WEAK / MIDDLING with the 6c turned up: STRONG's home run."""
    return with_hands(start(**kw), [STRONG, WEAK, MIDDLING], "6c")


def carry_for(head: int = 0, next_game: int = 2, disconnected: list[str] | None = None) -> dict[str, Any]:
    return {
        "game": "thirteen_trio",
        "players": ["a", "b", "c"],
        "head": head,
        "next_game": next_game,
        "disconnected": disconnected or [],
    }


# -- dealing, minimums, the set -------------------------------------------------------------------


def test_a_new_table_starts_with_seat_0_as_head_and_30_seconds_to_arrange() -> None:
    state = start()
    assert state["phase"] == "arrange" and state["head"] == 0 and state["game_in_set"] == 1
    assert trio.plugin.deadline(state) == NOW + 30
    assert [len(s["cards"]) for s in state["seats"]] == [17, 17, 17]
    assert json.loads(json.dumps(state)) == state


def test_new_hand_refuses_a_seat_below_the_minimum_and_names_it() -> None:
    with pytest.raises(EngineError, match=r"seat 1 \(b\).*set minimum.*300000"):
        start(
            seats=[
                {"player": "a", "stack": 300_000},
                {"player": "b", "stack": 299_999},
                {"player": "c", "stack": 10**6},
            ]
        )
    # mid-set, 11 × base is enough
    mid = [{"player": p, "stack": 110_000} for p in "abc"]
    assert start(seats=mid, carry=carry_for(next_game=3))["game_in_set"] == 3
    mid[2]["stack"] = 109_999
    with pytest.raises(EngineError, match=r"seat 2 \(c\).*this game's minimum.*110000"):
        start(seats=mid, carry=carry_for(next_game=3))


def test_new_hand_checks_the_seats() -> None:
    with pytest.raises(EngineError, match="exactly 3"):
        start(seats=seats()[:2])
    with pytest.raises(EngineError, match=r"seats\[0\].stack"):
        start(seats=[{"player": "a", "stack": "lots"}, *seats()[1:]])


def test_a_set_is_6_games_then_a_new_set_needs_30_bases_again() -> None:
    carry = None
    numbers = []
    for _ in range(7):
        state = start(carry=carry)
        numbers.append(state["game_in_set"])
        state, _ = trio.plugin.on_deadline(state, now=NOW + 30)
        state, _ = trio.plugin.on_deadline(state, now=NOW + 60)
        carry = trio.plugin.carry_over(state)
    assert numbers == [1, 2, 3, 4, 5, 6, 1]
    assert carry["next_game"] == 2
    six = {**carry, "next_game": 1}
    with pytest.raises(EngineError, match="set minimum"):
        start(seats=[{"player": p, "stack": 200_000} for p in "abc"], carry=six)


def test_the_next_head_is_the_strongest_back_and_moves_the_deal() -> None:
    state, _ = play(golden(), [STRONG, WEAK, MIDDLING])
    carry = trio.plugin.carry_over(state)
    assert carry["head"] == 0  # STRONG's full house
    state, _ = play(with_hands(start(), [WEAK, MIDDLING, STRONG], "6c"), [WEAK, MIDDLING, STRONG])
    carry = trio.plugin.carry_over(state)
    assert carry["head"] == 2 and carry["next_game"] == 2
    following = start(carry=carry)
    assert following["head"] == 2 and following["game_in_set"] == 2
    value = trio.plugin.view(following, None)["jackpot"]
    assert following["start_seat"] == (2 - ((_value(value) - 1) % 3)) % 3


def _value(text: str) -> int:
    return "A23456789TJQK".index(text[0]) + 1


def test_new_players_start_a_new_set_and_the_head_stays_with_its_player() -> None:
    state = start(seats=[{"player": p, "stack": 10**6} for p in "cxy"], carry=carry_for(head=2, next_game=5))
    assert state["head"] == 0 and state["game_in_set"] == 1
    assert trio.end_set(carry_for(next_game=5))["next_game"] == 1


# -- submitting rows -----------------------------------------------------------------------------


def test_the_game_settles_when_all_three_have_submitted() -> None:
    state = golden()
    state, events = trio.plugin.apply(state, 0, action(STRONG), now=NOW + 1)
    assert events == [{"type": "arranged", "seat": 0, "auto": False}] and state["phase"] == "arrange"
    assert trio.plugin.legal_actions(state, 0) == [] and trio.plugin.legal_actions(state, 1)[0]["type"] == "arrange"
    state, _ = trio.plugin.apply(state, 1, action(WEAK), now=NOW + 2)
    state, events = trio.plugin.apply(state, 2, action(MIDDLING), now=NOW + 3)
    assert events[-1]["type"] == "settled" and state["phase"] == "settled" and trio.plugin.deadline(state) is None
    res = trio.plugin.result(state)
    assert res is not None
    assert res["units"] == [4, -3, -1] and res["home_run"] == 0
    assert res["coins"] == [38_000, -30_000, -10_000] and res["commission"] == 2_000 and res["house"] == 2_000
    assert sum(res["coins"]) + res["house"] == 0 and res["penalty"] is None


def test_a_fouled_submission_is_accepted_and_loses() -> None:
    fouled = {
        "front": WEAK["back"][:3],
        "middle": WEAK["front"] + WEAK["middle"][:2],
        "back": WEAK["middle"][2:] + WEAK["back"][3:],
    }
    assert is_foul(fouled)
    state, _ = play(golden(), [STRONG, fouled, MIDDLING])
    res = trio.plugin.result(state)
    assert res is not None and res["fouled"] == [False, True, False]


@pytest.mark.parametrize(
    ("act", "reason"),
    [
        ({"type": "arrange", "front": ["Qc", "Qd"], "middle": [], "back": []}, "front: expected a list of 3"),
        (
            {
                "type": "arrange",
                "front": ["Qc", "Qd", "As"],
                "middle": ["3s", "3h", "4s", "4c", "Kh"],
                "back": ["Jd", "Js", "Jh", "6s", "6h"],
            },
            "As is not one of your cards",
        ),
        (
            {
                "type": "arrange",
                "front": ["Qc", "Qd", "2h"],
                "middle": ["3s", "3h", "4s", "4c", "2h"],
                "back": ["Jd", "Js", "Jh", "6s", "6h"],
            },
            "2h is used twice",
        ),
        ({"type": "arrange", "front": ["Qc", "Qd", "Zz"], "middle": [], "back": []}, "front: bad card"),
        ({"type": "fold"}, "type: expected arrange"),
    ],
)
def test_bad_actions_are_refused_and_leave_the_state_untouched(act: dict[str, Any], reason: str) -> None:
    state = golden()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=reason):
        trio.plugin.apply(state, 0, act, now=NOW + 1)
    assert state == before


def test_rows_cannot_be_submitted_twice_or_after_the_game() -> None:
    state, _ = trio.plugin.apply(golden(), 0, action(STRONG), now=NOW + 1)
    with pytest.raises(IllegalAction, match="already submitted"):
        trio.plugin.apply(state, 0, action(STRONG), now=NOW + 2)
    state, _ = play(golden(), [STRONG, WEAK, MIDDLING])
    with pytest.raises(IllegalAction, match="over"):
        trio.plugin.apply(state, 0, {"type": "disconnect"}, now=NOW + 5)
    with pytest.raises(IllegalAction, match="seat"):
        trio.plugin.apply(golden(), 3, action(STRONG), now=NOW)


# -- the timer: 30 s, one automatic 30 s extension, then auto-play ---------------------------


def test_time_runs_out_extends_once_then_auto_plays_every_seat_still_arranging() -> None:
    state, _ = trio.plugin.apply(golden(), 1, action(WEAK), now=NOW + 1)
    assert trio.plugin.on_deadline(state, now=NOW + 29) == (state, [])  # early: nothing
    extended, events = trio.plugin.on_deadline(state, now=NOW + 30)
    assert events == [{"type": "extended", "deadline": NOW + 60}]
    assert trio.plugin.deadline(extended) == NOW + 60 and extended["phase_seq"] == state["phase_seq"] + 1
    assert trio.plugin.on_deadline(extended, now=NOW + 59)[1] == []
    done, events = trio.plugin.on_deadline(extended, now=NOW + 60)
    assert events[:2] == [{"type": "arranged", "seat": 0, "auto": True}, {"type": "arranged", "seat": 2, "auto": True}]
    assert events[2]["type"] == "settled" and done["phase"] == "settled"
    assert [s["auto"] for s in done["seats"]] == [True, False, True]
    assert done["seats"][1]["rows"] == WEAK  # the submitted rows stand
    res = trio.plugin.result(done)
    assert res is not None and res["fouled"][0] is False and res["fouled"][2] is False
    assert trio.plugin.on_deadline(done, now=NOW + 999) == (done, [])  # a late timer does nothing


def test_timer_durations_come_from_the_rules() -> None:
    state = start(rules={"arrange_seconds": 45, "extend_seconds": 15})
    assert trio.plugin.deadline(state) == NOW + 45
    state, events = trio.plugin.on_deadline(state, now=NOW + 45)
    assert events[0]["deadline"] == NOW + 60


def test_auto_action_is_a_legal_unfouled_arrangement_of_the_seats_cards() -> None:
    state = start()
    for seat in range(3):
        act = trio.plugin.auto_action(state, seat)
        state2, _ = trio.plugin.apply(state, seat, act, now=NOW + 1)
        assert not is_foul(state2["seats"][seat]["rows"])


# -- disconnection: ½ base from the first seat to disconnect, 40 / 40 / 20 ---------------------


def _timeout(state: State) -> State:
    state, _ = trio.plugin.on_deadline(state, now=trio.plugin.deadline(state) or 0.0)
    state, _ = trio.plugin.on_deadline(state, now=trio.plugin.deadline(state) or 0.0)
    return state


def test_the_first_seat_to_disconnect_pays_half_a_base_on_top_of_its_result() -> None:
    state = golden()
    state, events = trio.plugin.apply(state, 1, {"type": "disconnect"}, now=NOW + 1)
    assert events == [{"type": "disconnected", "seat": 1, "server_fault": False, "penalized": True}]
    assert trio.plugin.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="disconnected"):
        trio.plugin.apply(state, 1, action(WEAK), now=NOW + 2)
    state, events = trio.plugin.apply(state, 2, {"type": "disconnect"}, now=NOW + 2)  # second: not charged
    assert events[0]["penalized"] is False
    state, _ = trio.plugin.apply(state, 0, action(STRONG), now=NOW + 3)
    state = _timeout(state)  # seats 1 and 2 are auto-played, their results count
    res = trio.plugin.result(state)
    assert res is not None
    assert res["penalty"] == {"seat": 1, "amount": 5_000, "coins": [2_000, -5_000, 2_000], "house": 1_000}
    game, commission = _game_coins(res["units"])
    assert res["coins"] == [game[0] + 2_000, game[1] - 5_000, game[2] + 2_000]  # no commission on the receipts
    assert res["commission"] == commission and res["house"] == commission + 1_000
    assert sum(res["coins"]) + res["house"] == 0


def test_a_penalty_charged_for_leaving_the_table_says_the_player_left() -> None:
    state, events = trio.plugin.apply(golden(), 1, {"type": "disconnect", "leave": True}, now=NOW + 1)
    assert events == [{"type": "disconnected", "seat": 1, "server_fault": False, "penalized": True, "left": True}]
    state, _ = trio.plugin.apply(state, 2, {"type": "disconnect"}, now=NOW + 2)
    res = trio.plugin.result(_timeout(trio.plugin.apply(state, 0, action(STRONG), now=NOW + 3)[0]))
    assert res is not None
    assert res["penalty"] == {"seat": 1, "amount": 5_000, "coins": [2_000, -5_000, 2_000], "house": 1_000, "left": True}
    with pytest.raises(IllegalAction, match="leave"):
        trio.plugin.apply(golden(), 1, {"type": "disconnect", "leave": "yes"}, now=NOW + 1)


def test_a_leave_after_the_charged_disconnection_leaves_the_penalty_a_disconnection() -> None:
    state, _ = trio.plugin.apply(golden(), 2, {"type": "disconnect"}, now=NOW + 1)
    state, _ = trio.plugin.apply(state, 1, {"type": "disconnect", "leave": True}, now=NOW + 2)
    res = trio.plugin.result(_timeout(trio.plugin.apply(state, 0, action(STRONG), now=NOW + 3)[0]))
    assert res is not None and res["penalty"]["seat"] == 2 and "left" not in res["penalty"]


def _game_coins(units: list[int]) -> tuple[list[int], int]:
    coins = [u * BASE - (u * BASE * 5 // 100 if u > 0 else 0) for u in units]
    return coins, sum(u * BASE for u in units) - sum(coins)


def test_a_server_fault_disconnection_carries_no_penalty() -> None:
    state, events = trio.plugin.apply(golden(), 0, {"type": "disconnect", "server_fault": True}, now=NOW + 1)
    assert events[0]["penalized"] is False
    state, events = trio.plugin.apply(state, 2, {"type": "disconnect"}, now=NOW + 2)
    assert events[0]["penalized"] is True  # the first disconnection that is the player's own
    res = trio.plugin.result(_timeout(state))
    assert res is not None and res["penalty"]["seat"] == 2


def test_a_seat_that_stays_disconnected_is_not_charged_again_in_later_games() -> None:
    state, _ = trio.plugin.apply(golden(), 2, {"type": "disconnect"}, now=NOW + 1)
    state = _timeout(state)
    carry = trio.plugin.carry_over(state)
    assert carry["disconnected"] == ["c"]
    nxt = start(carry=carry)
    assert [s["connected"] for s in nxt["seats"]] == [True, True, False]
    res = trio.plugin.result(_timeout(nxt))
    assert res is not None and res["penalty"] is None
    assert sum(res["coins"]) + res["house"] == 0


def test_a_seat_that_reconnects_plays_again_and_is_charged_if_it_disconnects_again() -> None:
    nxt = start(carry=trio.plugin.carry_over(_timeout(trio.plugin.apply(golden(), 2, {"type": "disconnect"}, now=NOW)[0])))
    assert trio.plugin.legal_actions(nxt, 2) == []
    nxt, events = trio.plugin.apply(nxt, 2, {"type": "reconnect"}, now=NOW + 1)
    assert events == [{"type": "reconnected", "seat": 2}] and trio.plugin.legal_actions(nxt, 2)
    with pytest.raises(IllegalAction, match="connected"):
        trio.plugin.apply(nxt, 2, {"type": "reconnect"}, now=NOW + 1)
    nxt, events = trio.plugin.apply(nxt, 2, {"type": "disconnect"}, now=NOW + 2)
    assert events[0]["penalized"] is True
    with pytest.raises(IllegalAction, match="already disconnected"):
        trio.plugin.apply(nxt, 2, {"type": "disconnect"}, now=NOW + 2)


def test_penalty_leftovers_follow_the_intro_rounding() -> None:
    state = golden(rules={"base": 107})
    state, _ = trio.plugin.apply(state, 0, {"type": "disconnect"}, now=NOW + 1)
    res = trio.plugin.result(_timeout(state))
    assert res is not None and res["penalty"] == {"seat": 0, "amount": 53, "coins": [-53, 22, 21], "house": 10}
    assert sum(res["coins"]) + res["house"] == 0


# -- void: our own servers' fault, stakes returned -----------------------------------------------


def test_void_ends_the_game_with_all_coins_zero_and_no_penalty() -> None:
    state, _ = trio.plugin.apply(golden(carry=carry_for(head=1, next_game=3)), 1, {"type": "disconnect"}, now=NOW)
    state, events = trio.plugin.void(state)
    res = trio.plugin.result(state)
    assert events[0]["type"] == "void" and state["phase"] == "void" and trio.plugin.deadline(state) is None
    assert res is not None and res["coins"] == [0, 0, 0] and res["house"] == 0 and res["penalty"] is None
    assert res["units"] == [0, 0, 0] and res["void"] is True
    carry = trio.plugin.carry_over(state)
    assert carry["next_game"] == 3 and carry["head"] == 1  # replayed: not counted, head unchanged
    with pytest.raises(IllegalAction):
        trio.plugin.void(state)
    settled, _ = play(golden(), [STRONG, WEAK, MIDDLING])
    with pytest.raises(IllegalAction):
        trio.plugin.void(settled)


def test_carry_over_needs_a_finished_game() -> None:
    with pytest.raises(EngineError):
        trio.plugin.carry_over(golden())


def test_no_function_mutates_its_input() -> None:
    state = golden()
    before = copy.deepcopy(state)
    trio.plugin.apply(state, 0, action(STRONG), now=NOW)
    trio.plugin.apply(state, 0, {"type": "disconnect"}, now=NOW)
    trio.plugin.on_deadline(state, now=NOW + 30)
    trio.plugin.void(state)
    trio.plugin.view(state, 0)
    trio.plugin.auto_action(state, 1)
    assert state == before
    extended, _ = trio.plugin.on_deadline(state, now=NOW + 30)
    frozen = copy.deepcopy(extended)
    trio.plugin.on_deadline(extended, now=NOW + 60)
    assert extended == frozen


def test_the_settled_state_stays_json() -> None:
    state, _ = play(golden(), [STRONG, WEAK, MIDDLING])
    assert json.loads(json.dumps(state)) == state
    assert state["seats"][0]["rows"] == STRONG  # rows are stored as card ints
