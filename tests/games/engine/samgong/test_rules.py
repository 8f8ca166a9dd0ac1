"""Rule sets as data (docs/RULES.md section 3): defaults per mode and room overrides."""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.samgong.rules import MODES, min_stack, mode_defaults, resolve_rules


def test_defaults_follow_rules_md_per_mode() -> None:
    expected = {
        "all_compare": ("classic", 2, 5, 500),
        "banker_bid": ("classic", 4, 4, 0),
        "banker_rotate": ("classic", 4, 4, 0),
        "pairwise": ("tiers", 2, 6, 0),
        "house": ("tiers", 1, 8, 0),
    }
    for mode in MODES:
        r = resolve_rules({"mode": mode})
        assert (r["ranking"], r["min_players"], r["max_players"], r["commission_bps"]) == expected[mode]
        assert r["bet_multipliers"] == [1, 2, 3, 4, 5]


def test_mode_defaults_to_all_compare() -> None:
    assert resolve_rules(None)["mode"] == "all_compare"


def test_house_payouts_default_to_rules_md() -> None:
    r = resolve_rules({"mode": "house"})
    assert r["payouts"] == {"player": 1, "banker": 1, "tie": 8, "sangong": 16}
    assert r["side_payouts"] == {"straight_flush": 40, "trips": 30, "straight": 6, "flush": 3, "pair": 1}
    assert r["half_pay_points"] == 6


def test_overrides_merge_nested_tables() -> None:
    r = resolve_rules(
        {
            "mode": "banker_bid",
            "max_players": 6,
            "min_players": 2,
            "timers": {"bet": 4},
            "multipliers": {"zhizun": 10},
            "commission_bps": 300,
        }
    )
    assert (r["min_players"], r["max_players"], r["commission_bps"]) == (2, 6, 300)
    assert r["timers"]["bet"] == 4 and r["timers"]["reveal"] == 10
    assert r["multipliers"]["zhizun"] == 10 and r["multipliers"]["sangong"] == 3


def test_ranking_override_brings_its_multiplier_table() -> None:
    r = resolve_rules({"mode": "all_compare", "ranking": "tiers"})
    assert "hun_sangong" in r["multipliers"] and "zhizun" not in r["multipliers"]


def test_defaults_are_fresh_copies() -> None:
    a = mode_defaults("house")
    a["payouts"]["tie"] = 99
    assert mode_defaults("house")["payouts"]["tie"] == 8


def test_min_stack_defaults_to_one_base() -> None:
    assert min_stack(resolve_rules({"base": 250})) == 250
    assert min_stack(resolve_rules({"base": 250, "min_stack": 1000})) == 1000


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"mode": "baccarat"}, "mode"),
        ({"ranking": "poker"}, "ranking"),
        ({"colour": "red"}, "unknown setting"),
        ({"base": 0}, "base"),
        ({"base": 1.5}, "base"),
        ({"bet_multipliers": []}, "bet_multipliers"),
        ({"bet_multipliers": [3, 1]}, "bet_multipliers"),
        ({"commission_bps": 10001}, "commission_bps"),
        ({"multipliers": {"point_9": 0}}, "multipliers.point_9"),
        ({"multipliers": {"royal": 3}}, "multipliers"),
        ({"timers": {"bet": -1}}, "timers.bet"),
        ({"max_players": 6}, "max_players"),
        ({"mode": "banker_bid", "min_players": 1}, "min_players"),
        ({"mode": "house", "half_pay_points": 12}, "half_pay_points"),
        ({"cap_wins": "yes"}, "cap_wins"),
    ],
)
def test_bad_overrides_name_the_field(override: dict, field: str) -> None:
    with pytest.raises(EngineError, match=field):
        resolve_rules(override)
