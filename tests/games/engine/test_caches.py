"""What the engines work out once and then hand out as copies: the rule set resolved from a
stake level's overrides (十三张's and 三公's ``resolve_rules``), 三公's mode defaults, 十三张's bonus
row values and the natural a seat is offered. A cached answer is the answer worked out afresh,
errors are raised every time, and changing what was handed out never changes the next answer."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import thirteen
from games.engine.errors import EngineError
from games.engine.samgong import rules as samgong_rules
from games.engine.thirteen import rules as thirteen_rules
from games.engine.thirteen import sheet as thirteen_sheet
from games.engine.thirteen.naturals import best_natural

FAST = settings(max_examples=300, derandomize=True, deadline=None)
MODULES = [thirteen_rules, samgong_rules]
IDS = ["thirteen", "samgong"]
NAMES = {
    "thirteen": [*thirteen_rules.DEFAULT_RULES, "base"],
    "samgong": ["mode", "ranking", "base", "commission_bps", "min_stack", "cap_wins", "min_players", "max_players",
                "half_pay_points", "even_main_bets", "nope"],
}
VALUES = st.none() | st.booleans() | st.integers(-2, 12_000) | st.sampled_from(
    ["house", "all_compare", "banker_bid", "pairwise", "tiers", "classic", "x"])


def outcome(resolve: Any, overrides: Any) -> Any:
    try:
        return resolve(overrides)
    except EngineError as exc:
        return ("error", str(exc))


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_a_cached_rule_set_is_the_rule_set_worked_out_afresh(module: Any) -> None:
    name = IDS[MODULES.index(module)]

    @FAST
    @given(st.dictionaries(st.sampled_from(NAMES[name]), VALUES, max_size=4))
    def check(overrides: dict[str, Any]) -> None:
        first = outcome(module.resolve_rules, overrides)
        assert first == outcome(module._resolve, overrides) == outcome(module.resolve_rules, dict(overrides))

    check()


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_changing_a_resolved_rule_set_never_changes_the_next_one(module: Any) -> None:
    overrides = {"mode": "house"} if module is samgong_rules else {}
    first = module.resolve_rules(overrides)
    expected = module._resolve(overrides)
    assert first == expected and first is not module.resolve_rules(overrides)
    for key, value in list(first.items()):
        if isinstance(value, dict):
            value.clear()
        elif isinstance(value, list):
            value.append(99)
        first[key] = "changed"
    assert module.resolve_rules(overrides) == expected


def test_a_flag_given_as_1_is_refused_however_often_true_was_accepted() -> None:
    for _ in range(2):
        assert samgong_rules.resolve_rules({"cap_wins": True})["cap_wins"] is True
        with pytest.raises(EngineError, match="cap_wins"):
            samgong_rules.resolve_rules({"cap_wins": 1})
    assert thirteen_rules.resolve_rules({"unit": 250})["unit"] == 250
    with pytest.raises(EngineError, match="unit"):
        thirteen_rules.resolve_rules({"unit": True})


def test_nested_overrides_are_resolved_uncached_and_still_copied() -> None:
    overrides = {"mode": "banker_bid", "timers": {"bet": 4}, "bet_multipliers": [1, 3]}
    first = samgong_rules.resolve_rules(overrides)
    first["bet_multipliers"].append(5)
    first["timers"]["bet"] = 99
    again = samgong_rules.resolve_rules(overrides)
    assert again["bet_multipliers"] == [1, 3] and again["timers"]["bet"] == 4
    assert overrides == {"mode": "banker_bid", "timers": {"bet": 4}, "bet_multipliers": [1, 3]}


def test_mode_defaults_and_bonus_values_are_fresh_copies() -> None:
    for mode in samgong_rules.MODES:
        defaults = samgong_rules.mode_defaults(mode)
        defaults["timers"].clear()
        defaults["multipliers"]["point_0"] = 99
        assert samgong_rules.mode_defaults(mode)["timers"] and samgong_rules.mode_defaults(mode) != defaults
    values = thirteen_sheet.bonus_values()
    values["ft"] = 0
    assert thirteen_sheet.bonus_values()["ft"] == 3


def test_the_natural_a_seat_is_offered_is_its_best_natural_on_every_call() -> None:
    rng = random.Random(13)
    naturals = 0
    for _ in range(200):
        deck = rng.sample(range(52), 52)
        hands = [sorted(deck[13 * i: 13 * i + 13]) for i in range(4)]
        if rng.random() < 0.1:
            hands[0] = [4 * r + 1 for r in range(13)]  # a dragon
        state = {"phase": "arrange", "seats": [{"cards": h, "submission": None} for h in hands]}
        for _ in range(2):
            offered = [thirteen.plugin.legal_actions(state, seat)[1]["natural"] for seat in range(4)]
            assert offered == [best_natural(h) for h in hands]
        naturals += sum(n is not None for n in offered)
    assert naturals > 0
