"""Every game's rule sheet (games/engine/sheet.py) in every mode: its player counts are the
engine's, its lines are translated message ids whose fields it fills, and its figures are the
rule set's own (the house table's payouts, the trio's set and penalty)."""

from __future__ import annotations

import re
import string
from typing import Any

import polib
import pytest

from games.engine.registry import games
from games.engine.samgong.rules import HOUSE_PAYOUTS, SIDE_PAYOUTS, resolve_rules
from games.engine.thirteen_trio.money import penalty
from tests.games.engine.test_contract import CASES, CATALOGUES, terms_for

FIELD = re.compile(r"\{(\w+)\}")


def _sheet(engine: Any, mode: str) -> dict[str, Any]:
    terms = terms_for(mode)
    return engine.rule_sheet(engine.stake_rules(terms), terms["seats"])


@pytest.mark.parametrize(("engine", "mode"), CASES, ids=[f"{e.name}-{m or 'standard'}" for e, m in CASES])
def test_the_sheet_gives_the_engines_player_counts_and_fills_every_field(engine: Any, mode: str) -> None:
    terms = terms_for(mode)
    rules = engine.stake_rules(terms)
    sheet = engine.rule_sheet(rules, terms["seats"])
    assert tuple(sheet["players"]) == engine.player_limits(rules, terms["seats"])
    assert len(sheet["lines"]) >= 3
    for item in sheet["lines"]:
        assert set(FIELD.findall(item["text"])) == set(item["values"]), item["text"]
        assert set(item["money"]) <= set(item["values"])
        assert all(isinstance(v, int) and not isinstance(v, bool) for v in item["values"].values())
        string.Formatter().format(item["text"], **item["values"])  # every field filled


def test_every_line_of_every_sheet_is_translated() -> None:
    sheets = [_sheet(e, m) for e, m in CASES]
    wanted = {item["text"] for sheet in sheets for item in sheet["lines"]}
    wanted |= {item["text"] for sheet in sheets for item in sheet.get("phase_notes", {}).values()}
    for po in CATALOGUES:
        translated = {e.msgid for e in polib.pofile(str(po)) if e.msgstr and not e.obsolete}
        assert wanted - translated == set(), po


def test_the_house_tables_payouts_are_the_rule_sets() -> None:
    samgong = next(e for e in games() if "house" in e.modes)
    sheet = _sheet(samgong, "house")
    assert {k: v[0] for k, v in sheet["payouts"].items() if k != "side"} == HOUSE_PAYOUTS
    assert sheet["payouts"]["side"] == sorted(SIDE_PAYOUTS.values(), reverse=True) == [40, 30, 6, 3, 1]
    assert sheet["payouts"]["tie"] == [8] and sheet["payouts"]["sangong"] == [16]
    assert sheet["half_pay"] == {"points": 6, "spots": ["player", "banker"]}
    assert sheet["timers"] == {"bet": resolve_rules({"mode": "house"})["timers"]["bet"]}


def test_a_rooms_own_payouts_reach_the_sheet() -> None:
    samgong = next(e for e in games() if "house" in e.modes)
    sheet = samgong.rule_sheet({"mode": "house", "payouts": {"tie": 9}, "half_pay_points": None}, 6)
    assert sheet["payouts"]["tie"] == [9] and sheet["half_pay"] is None


def test_banker_bid_says_the_first_two_cards_are_face_up_and_times_every_phase() -> None:
    samgong = next(e for e in games() if "banker_bid" in e.modes)
    sheet = _sheet(samgong, "banker_bid")
    assert sheet["players"] == [4, 4]
    assert any("face up" in item["text"] for item in sheet["lines"])
    assert sheet["timers"] == {"bid": 10, "bet": 10, "reveal": 10}
    assert set(sheet["phase_notes"]) == {"bid"} and "face up" in sheet["phase_notes"]["bid"]["text"]
    rotate = _sheet(samgong, "banker_rotate")
    assert rotate["phase_notes"] == {} and not any("face up" in item["text"] for item in rotate["lines"])


def test_the_trio_sheet_names_the_set_and_the_engines_penalty() -> None:
    trio = next(e for e in games() if e.presence_matters)
    sheet = trio.rule_sheet({"base": 10_001}, 3)
    assert sheet["set_size"] == 6 and sheet["players"] == [3, 3]
    assert sheet["penalty"] == penalty(base=10_001, payer=0, head=0)["amount"] == 5000
    leave = next(item for item in sheet["lines"] if item["values"].get("x") == 5000)
    assert leave["money"] == ["x"]


@pytest.mark.parametrize(("engine", "mode"), CASES, ids=[f"{e.name}-{m or 'standard'}" for e, m in CASES])
def test_the_set_hooks_answer_none_or_whole_numbers_on_a_fresh_hand(engine: Any, mode: str) -> None:
    terms = terms_for(mode)
    rules = engine.stake_rules(terms)
    low, _high = engine.player_limits(rules, terms["seats"])
    count = low if low == 1 else max(low, 3)  # the trio needs its three
    players = [{"player": str(7 + i), "stack": 10**7} for i in range(count)]
    state = engine.new_hand(rules=rules, seats=players, carry=None, server_seed="ab" * 32, now=1_700_000_000.0)
    progress = engine.set_progress(rules, None, state)
    terms_now = engine.leave_terms(rules, None, state, 7)
    for part in (progress, terms_now):
        assert part is None or all(isinstance(v, int) for v in part.values())
    assert (progress is None) == (terms_now is None)  # a game with sets binds its players to them
