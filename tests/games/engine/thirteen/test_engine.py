"""The thirteen state machine (games/engine/protocol.py) against docs/RULES.md section 1."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.engine import thirteen
from games.engine.cards import card_str, cards_str, parse_cards
from games.engine.deck import commitment
from games.engine.errors import EngineError, IllegalAction
from games.engine.thirteen.arrange import arrange
from games.engine.thirteen.naturals import NATURAL_VALUES
from games.engine.thirteen.rules import STAKE_LEVELS, eligible, resolve_rules

SEED = "ab" * 32
NOW = 1_000_000.0


def seats(n: int, stack: int = 10_000) -> list[dict[str, Any]]:
    return [{"player": f"p{i}", "stack": stack} for i in range(n)]


def start(n: int = 4, **kw: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"rules": {}, "seats": seats(n), "carry": None, "server_seed": SEED, "now": NOW}
    args.update(kw)
    return thirteen.plugin.new_hand(**args)


def arrange_action(state: dict[str, Any], seat: int) -> dict[str, Any]:
    best = arrange(state["seats"][seat]["cards"])
    return {"type": "arrange", **{r: cards_str(best[r]) for r in ("front", "middle", "back")}}


# -- stakes and eligibility ------------------------------------------------------------------


def test_stake_levels_are_the_rules_table_in_minor_units() -> None:
    assert [(s["unit"], s["commission_percent"], s["min_buy_in"]) for s in STAKE_LEVELS] == [
        (50, 5, 1500),
        (100, 5, 3000),
        (250, 4, 7500),
        (500, 3, 15000),
        (1000, 3, 30000),
        (2000, 3, 60000),
        (5000, 2, 250000),
    ]


def test_rules_follow_the_stake_level_of_the_unit() -> None:
    assert resolve_rules({"unit": 5000})["commission_percent"] == 2
    assert resolve_rules({"unit": 500})["min_buy_in"] == 15000
    assert resolve_rules({"unit": 500, "commission_percent": 1})["commission_percent"] == 1
    assert resolve_rules()["arrange_seconds"] == 60
    with pytest.raises(EngineError, match="rules: unknown field 'colour'"):
        resolve_rules({"colour": "red"})
    with pytest.raises(EngineError, match="rules.unit"):
        resolve_rules({"unit": 0})


def test_five_units_of_table_money_are_needed_to_be_dealt_in() -> None:
    assert eligible({"unit": 100}, 500) and not eligible({"unit": 100}, 499)
    assert eligible({"unit": 50}, 250) and not eligible({"unit": 50}, 249)


def test_new_hand_refuses_an_ineligible_seat_by_name() -> None:
    table = seats(3)
    table[1]["stack"] = 499
    with pytest.raises(EngineError, match=r"seat 1 \(p1\).*499"):
        start(seats=table)


@pytest.mark.parametrize("n", [1, 5])
def test_new_hand_refuses_a_bad_seat_count(n: int) -> None:
    with pytest.raises(EngineError, match="2-4 players"):
        start(n)


# -- dealing ---------------------------------------------------------------------------------


def test_the_deal_gives_thirteen_distinct_cards_each_from_the_committed_seed() -> None:
    state = start(4, client_seeds=["x"])
    dealt = [s["cards"] for s in state["seats"]]
    assert all(len(h) == 13 for h in dealt)
    assert len({c for h in dealt for c in h}) == 52
    assert state["commitment"] == commitment(SEED)
    assert thirteen.deal(SEED, ["x"], 4, state["dealer"]) == dealt
    assert state["phase"] == "arrange" and state["deadline"] == NOW + 60


def test_cards_go_one_at_a_time_from_the_dealers_left() -> None:
    from games.engine.deck import shuffle

    deck = shuffle(SEED)
    hands = thirteen.deal(SEED, [], 3, 1)
    assert hands[2][:2] == [deck[0], deck[3]] and hands[0][0] == deck[1] and hands[1][0] == deck[2]


def test_the_state_is_plain_json() -> None:
    state = start(3)
    assert json.loads(json.dumps(state)) == state


def test_the_arranging_time_is_a_rule() -> None:
    assert start(2, rules={"arrange_seconds": 90})["deadline"] == NOW + 90


# -- the dealer button -----------------------------------------------------------------------


def test_the_button_moves_one_seat_clockwise_every_game() -> None:
    state = start(3)
    dealers = []
    for _ in range(4):
        dealers.append(state["dealer"])
        state = start(3, carry=thirteen.plugin.carry_over(state))
    assert dealers == [0, 1, 2, 0]


def test_the_button_skips_to_the_next_player_still_seated() -> None:
    state = start(4)  # dealer p0: next is p1, who leaves
    carry = thirteen.plugin.carry_over(state)
    table = [s for s in seats(4) if s["player"] != "p1"]
    assert start(3, seats=table, carry=carry)["dealer"] == 1  # p2, now at index 1


# -- submissions -----------------------------------------------------------------------------


def test_arranging_is_accepted_once_and_then_refused() -> None:
    state = start(2)
    before = copy.deepcopy(state)
    after, events = thirteen.plugin.apply(state, 0, arrange_action(state, 0), now=NOW + 1)
    assert state == before  # input untouched
    assert events == [{"type": "submitted", "seat": 0, "auto": False}]
    assert thirteen.plugin.legal_actions(after, 0) == []
    with pytest.raises(IllegalAction, match="already submitted"):
        thirteen.plugin.apply(after, 0, arrange_action(state, 0), now=NOW + 2)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda a: a.update(type="fold"), "expected"),
        (lambda a: a.update(front=a["front"][:2]), "action.front: expected 3 cards"),
        (lambda a: a.update(back=a["back"][:4] + ["Zz"]), "bad card"),
        (lambda a: a.update(colour=1), "unknown field 'colour'"),
        (lambda a: a.update(front=[a["middle"][0]] + a["front"][1:]), "placed in two rows"),
    ],
)
def test_bad_arrangements_are_refused_with_a_reason(change: Any, message: str) -> None:
    state = start(2)
    action = arrange_action(state, 0)
    change(action)
    with pytest.raises(IllegalAction, match=message):
        thirteen.plugin.apply(state, 0, action, now=NOW)


def test_cards_of_another_seat_are_refused() -> None:
    state = start(2)
    action = arrange_action(state, 0)
    action["back"] = action["back"][:4] + [card_str(state["seats"][1]["cards"][0])]
    with pytest.raises(IllegalAction, match="not one of this seat's 13 cards"):
        thirteen.plugin.apply(state, 0, action, now=NOW)


def test_the_last_submission_settles_the_hand() -> None:
    state = start(3)
    for seat in range(3):
        assert thirteen.plugin.result(state) is None
        state, events = thirteen.plugin.apply(state, seat, arrange_action(state, seat), now=NOW + 1)
    assert state["phase"] == "settled" and thirteen.plugin.deadline(state) is None
    assert [e["type"] for e in events] == ["submitted", "showdown", "settled"]
    res = thirteen.plugin.result(state)
    assert res is not None and sum(res["coins"]) + res["house"] == 0 and res["house"] == res["commission"]
    assert set(res) >= {"units", "coins", "commission", "house", "fouled", "natural", "pairs", "trimmed"}
    with pytest.raises(IllegalAction, match="settled"):
        thirteen.plugin.apply(state, 0, {"type": "declare"}, now=NOW + 2)


def test_declaring_without_a_natural_fouls() -> None:
    state = start(2)
    assert thirteen.best_natural(state["seats"][0]["cards"]) is None
    state, _ = thirteen.plugin.apply(state, 0, {"type": "declare"}, now=NOW)
    state, _ = thirteen.plugin.apply(state, 1, arrange_action(state, 1), now=NOW)
    res = thirteen.plugin.result(state)
    assert res is not None and res["fouled"] == [True, False] and res["units"][0] < 0


# -- time ------------------------------------------------------------------------------------


def test_nothing_happens_before_the_deadline() -> None:
    state = start(2)
    assert thirteen.plugin.on_deadline(state, now=NOW + 59) == (state, [])


def test_the_deadline_auto_plays_every_seat_still_arranging() -> None:
    state = start(3)
    mine = arrange_action(state, 1)
    state, _ = thirteen.plugin.apply(state, 1, mine, now=NOW + 5)
    state, events = thirteen.plugin.on_deadline(state, now=NOW + 60)
    assert state["phase"] == "settled"
    submitted = [e for e in events if e["type"] == "submitted"]
    assert submitted == [{"type": "submitted", "seat": 0, "auto": True}, {"type": "submitted", "seat": 2, "auto": True}]
    assert cards_str(state["seats"][1]["submission"]["front"]) == mine["front"]
    res = thirteen.plugin.result(state)
    assert res is not None and not any(res["fouled"])
    assert thirteen.plugin.on_deadline(state, now=NOW + 120) == (state, [])


# -- views -----------------------------------------------------------------------------------


def dealt(cards: str) -> dict[str, Any]:
    """A two-seat hand whose seat 0 holds ``cards`` and seat 1 thirteen of the others (no natural)."""
    state = start(2)
    own = parse_cards(cards.split())
    state["seats"][0]["cards"] = own
    state["seats"][1]["cards"] = random.Random(1).sample([c for c in range(52) if c not in own], 13)
    assert thirteen.best_natural(state["seats"][1]["cards"]) is None
    return state


@pytest.mark.parametrize(
    ("cards", "declared"),
    [
        ("Ks Kh Kd Kc Qs Qh 7s 7h 5s 5d 3c 3h 2c", False),  # six pairs (3) below quad kings' rows
        ("2s 2h 3s 3h 4c 4d 5s 5h 6c 6d 7s 7h 9d", True),  # six low pairs: the rows are worth less
        ("2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ad", True),  # a dragon (13)
    ],
)
def test_a_timed_out_seat_declares_only_a_natural_worth_its_rows(cards: str, declared: bool) -> None:
    state = dealt(cards)
    assert thirteen.best_natural(state["seats"][0]["cards"]) is not None
    hints = thirteen.plugin.suggestions(state, 0)
    assert hints and all(h["type"] == ("declare" if declared else "arrange") for h in hints)
    assert thirteen.plugin.auto_action(state, 0) == hints[0]
    state, _ = thirteen.plugin.on_deadline(state, now=NOW + 60)
    res = state["result"]
    assert state["seats"][0]["submission"]["declare"] is declared
    assert res["fouled"] == [False, False]
    assert (res["natural"][0] is not None) is declared
    if declared:
        assert res["units"][0] == NATURAL_VALUES[res["natural"][0]]


def test_a_seat_sees_only_its_own_cards_until_settlement() -> None:
    state = start(3)
    state, _ = thirteen.plugin.apply(state, 2, arrange_action(state, 2), now=NOW)
    v = thirteen.plugin.view(state, 0)
    assert v["seats"][0]["cards"] == cards_str(state["seats"][0]["cards"])
    assert v["seats"][1]["cards"] is None and v["seats"][2]["cards"] is None
    assert v["seats"][2]["submitted"] and v["seats"][2]["submission"] is None
    assert v["server_seed"] is None and v["legal_actions"]
    spectator = thirteen.plugin.view(state, None)
    assert all(s["cards"] is None and s["submission"] is None for s in spectator["seats"])
    assert spectator["legal_actions"] == []
    state, _ = thirteen.plugin.on_deadline(state, now=NOW + 60)
    shown = thirteen.plugin.view(state, None)
    assert [s["cards"] for s in shown["seats"]] == [cards_str(s["cards"]) for s in state["seats"]]
    assert shown["server_seed"] == SEED and shown["result"] == thirteen.plugin.result(state)


def test_legal_actions_offer_arranging_and_declaring() -> None:
    state = start(2)
    kinds = [a["type"] for a in thirteen.plugin.legal_actions(state, 0)]
    assert kinds == ["arrange", "declare"]
    assert thirteen.plugin.legal_actions(state, 7) == []
