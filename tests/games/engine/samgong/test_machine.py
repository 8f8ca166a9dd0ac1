"""The 三公 state machine: phases, bidding, bank keeping, rotation, timeouts (docs/RULES.md section 3)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.engine import samgong as sg
from games.engine.errors import EngineError, IllegalAction
from games.engine.samgong.fair import first_in, lottery
from tests.games.engine.samgong.helpers import SEED, hand, seats, stacked_deck

T0 = 1000.0


def start(
    mode: str,
    stacks: list[int],
    top: str | None = None,
    carry: dict | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
    **rules: Any,
) -> dict:
    if top is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("games.engine.samgong.machine.shuffle", lambda *_a: stacked_deck(top))
    return sg.plugin.new_hand(
        rules={"mode": mode, "base": 10, **rules}, seats=seats(*stacks), carry=carry, server_seed=SEED, now=T0
    )


def play(state: dict, *moves: tuple[int, dict]) -> dict:
    for seat, action in moves:
        state, _ = sg.plugin.apply(state, seat, action, now=T0 + 1)
    return state


def timeout(state: dict) -> tuple[dict, list[dict]]:
    return sg.plugin.on_deadline(state, now=sg.plugin.deadline(state) + 0.5)


def bet(x: int) -> dict:
    return {"type": "bet", "multiplier": x}


REVEAL = {"type": "reveal"}


# --- all_compare -------------------------------------------------------------------


def test_all_compare_bets_then_deals_counter_clockwise_from_seat_0(monkeypatch: pytest.MonkeyPatch) -> None:
    s = start("all_compare", [5000] * 3, "Ks 9s 2c Qs Kd 3c Jh Qc 5c", monkeypatch=monkeypatch)
    assert s["phase"] == "bet" and s["cards"] == [[], [], []]
    assert sg.plugin.legal_actions(s, 1) == [bet(x) for x in (1, 2, 3, 4, 5)]
    s = play(s, (0, bet(2)), (1, bet(1)), (2, bet(3)))
    assert s["phase"] == "reveal"
    assert s["cards"] == [hand("Ks Qs Jh"), hand("2c 3c 5c"), hand("9s Kd Qc")]
    s = play(s, (0, REVEAL), (1, REVEAL), (2, REVEAL))
    r = sg.plugin.result(s)
    assert s["phase"] == "settled" and r["winner"] == 0
    assert r["gross"] == [240, -60, -180] and r["commission"] == 12 and r["coins"] == [228, -60, -180]
    assert sum(r["coins"]) + r["house"] == 0


def test_result_is_none_before_settlement() -> None:
    assert sg.plugin.result(start("all_compare", [5000, 5000])) is None


def test_timeouts_auto_bet_one_and_auto_reveal() -> None:
    s = start("all_compare", [5000] * 3)
    assert sg.plugin.deadline(s) == T0 + 10
    early, events = sg.plugin.on_deadline(s, now=T0 + 5)
    assert events == [] and early == s
    s = play(s, (1, bet(4)))
    s, events = timeout(s)
    auto = [e for e in events if e.get("auto")]
    assert [(e["seat"], e["type"]) for e in auto] == [(0, "bet_placed"), (2, "bet_placed")]
    assert s["bets"] == [1, 4, 1] and s["phase"] == "reveal"
    s, events = timeout(s)
    assert [e["seat"] for e in events if e.get("auto") and e["type"] == "reveal"] == [0, 1, 2]
    assert s["phase"] == "settled" and sg.plugin.deadline(s) is None
    assert sg.plugin.on_deadline(s, now=T0 + 999)[1] == []


def test_timers_are_configurable() -> None:
    s = start("all_compare", [5000, 5000], timers={"bet": 3, "reveal": 7})
    assert sg.plugin.deadline(s) == T0 + 3
    s, _ = timeout(s)
    assert sg.plugin.deadline(s) == T0 + 3 + 0.5 + 7


def test_illegal_moves_leave_the_state_untouched() -> None:
    s = start("all_compare", [5000] * 3)
    before = copy.deepcopy(s)
    for seat, action, message in [
        (0, bet(6), "not allowed"),
        (0, REVEAL, "not allowed in phase bet"),
        (7, bet(1), "no seat"),
        (0, {"multiplier": 1}, "type"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            sg.plugin.apply(s, seat, action, now=T0)
    s2 = play(s, (0, bet(1)))
    with pytest.raises(IllegalAction, match="nothing to do"):
        sg.plugin.apply(s2, 0, bet(2), now=T0)
    assert s == before and sg.plugin.legal_actions(s2, 0) == []


def test_room_bet_multipliers_and_auto_bet_smallest_when_one_is_not_allowed() -> None:
    s = start("all_compare", [5000, 5000], bet_multipliers=[2, 4])
    assert sg.plugin.auto_action(s, 0) == bet(2)
    with pytest.raises(IllegalAction, match="choose one of 2, 4"):
        sg.plugin.apply(s, 0, bet(1), now=T0)


# --- banker_bid 搶莊 ------------------------------------------------------------------


def test_banker_bid_two_face_up_cards_are_public(monkeypatch: pytest.MonkeyPatch) -> None:
    s = start("banker_bid", [5000] * 4, "As 2s 3s 4s 5s 6s 7s 8s 9s", monkeypatch=monkeypatch)
    assert s["phase"] == "bid" and s["public"] == [2] * 4
    assert s["cards"] == [hand("As 5s"), hand("4s 8s"), hand("3s 7s"), hand("2s 6s")]
    spectator = sg.plugin.view(s, None)
    assert [p["cards"] for p in spectator["seats"]][1] == ["4s", "8s"]


def test_richest_bidder_becomes_banker() -> None:
    s = start("banker_bid", [1000, 3000, 2000, 3000])
    s = play(s, (0, {"type": "bid"}), (1, {"type": "pass"}), (2, {"type": "bid"}), (3, {"type": "pass"}))
    assert (s["banker"], s["banker_how"], s["phase"]) == (2, "bid", "bet")
    assert sg.plugin.legal_actions(s, 2) == [] and sg.plugin.legal_actions(s, 0)


def test_seed_example_three_of_four_bid_the_richest_of_the_three_banks() -> None:
    s = start("banker_bid", [9000, 3000, 2000, 4000])
    s = play(s, (0, {"type": "pass"}), (1, {"type": "bid"}), (2, {"type": "bid"}), (3, {"type": "bid"}))
    assert (s["banker"], s["banker_how"]) == (3, "bid")


def test_apply_never_mutates_its_input() -> None:
    s = start("banker_bid", [9000, 3000, 2000, 4000])
    before = copy.deepcopy(s)
    after, events = sg.plugin.apply(s, 1, {"type": "bid"}, now=T0)
    assert s == before and after != before and events[0] == {"type": "bid_placed", "seat": 1, "auto": False}
    timed, _ = timeout(s)
    assert s == before and timed["phase"] == "bet"


def test_richest_bidders_tie_is_drawn_from_the_seed_lottery() -> None:
    s = start("banker_bid", [1000, 3000, 2000, 3000])
    s = play(s, (0, {"type": "bid"}), (1, {"type": "bid"}), (2, {"type": "bid"}), (3, {"type": "bid"}))
    assert s["banker"] == first_in(lottery(SEED, "banker", 4), [1, 3]) and s["banker_how"] == "bid_tie"


def test_no_bidder_draws_any_seat_from_the_seed_lottery() -> None:
    s = start("banker_bid", [1000, 3000, 2000, 3000])
    s, events = timeout(s)
    assert all(e["auto"] for e in events if e["type"] == "bid_placed")
    assert s["banker"] == lottery(SEED, "banker", 4)[0] and s["banker_how"] == "random"


def test_lottery_picks_each_seat_for_some_seed() -> None:
    picks = {lottery(f"{i:064x}", "banker", 4)[0] for i in range(40)}
    assert picks == {0, 1, 2, 3}


def test_bids_stay_secret_until_the_bidding_ends() -> None:
    s = play(start("banker_bid", [5000] * 4), (1, {"type": "bid"}))
    assert sg.plugin.view(s, 2)["seats"][1]["bid"] is None and sg.plugin.view(s, 2)["seats"][1]["acted"]
    assert sg.plugin.view(s, 1)["seats"][1]["bid"] is True


def bid_hand(
    monkeypatch: pytest.MonkeyPatch, top: str, carry: dict | None = None, stacks: list[int] | None = None
) -> dict:
    s = start("banker_bid", stacks or [5000] * 4, top, carry=carry, monkeypatch=monkeypatch)
    if s["phase"] == "bid":
        s = play(s, (0, {"type": "bid"}), (1, {"type": "pass"}), (2, {"type": "pass"}), (3, {"type": "pass"}))
    return s


def test_third_card_dealt_counter_clockwise_from_the_banker(monkeypatch: pytest.MonkeyPatch) -> None:
    s = bid_hand(monkeypatch, "Ks 2c 3c 4c Qs 5c 6c 7c 8c 9h Th Jh")
    assert s["banker"] == 0
    s = play(s, (1, bet(1)), (2, bet(2)), (3, bet(3)))
    assert s["phase"] == "reveal"
    assert [c[2] for c in s["cards"]] == hand("8c Jh Th 9h")


def run_bid_hand(monkeypatch: pytest.MonkeyPatch, top: str, **kw: Any) -> dict:
    s = bid_hand(monkeypatch, top, **kw)
    s = play(s, *[(p, bet(1)) for p in range(4) if p != s["banker"]])
    s, _ = timeout(s)
    return s


def test_bank_is_kept_while_the_banker_avoids_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    s = run_bid_hand(monkeypatch, "Ks 2c 3c 4c Qs 5c 6c 7c 5h 9h Th Jh")  # banker K Q 5 = 5
    carry = sg.plugin.carry_over(s)
    assert carry["keep_bank"] and carry["banker_player"] == "p0"
    nxt = bid_hand(monkeypatch, "2d 3d 4d 5d 6d 7d 8d 9d", carry=carry)
    assert nxt["phase"] == "bet" and nxt["banker"] == 0 and nxt["banker_how"] == "kept"
    assert nxt["public"] == [2] * 4 and len(nxt["cards"][3]) == 2


def test_kept_bank_follows_the_player_to_a_new_seat_index(monkeypatch: pytest.MonkeyPatch) -> None:
    carry = {"mode": "banker_bid", "banker": 0, "banker_player": "p2", "keep_bank": True}
    s = bid_hand(monkeypatch, "2d 3d 4d 5d 6d 7d 8d 9d", carry=carry)
    assert s["banker"] == 2 and s["cards"][2] == hand("2d 6d")  # face-up cards start at the banker


def test_zero_point_banker_hand_reopens_bidding(monkeypatch: pytest.MonkeyPatch) -> None:
    s = run_bid_hand(monkeypatch, "Ks 2c 3c 4c Qs 5c 6c 7c Td 9h Th Jh")  # banker K Q 10 = 0
    assert sg.plugin.result(s)["hands"][0] == "point_0"
    carry = sg.plugin.carry_over(s)
    assert not carry["keep_bank"]
    assert start("banker_bid", [5000] * 4, carry=carry)["phase"] == "bid"


def test_sangong_banker_keeps_the_bank_though_its_digits_sum_to_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    s = run_bid_hand(monkeypatch, "Ks 2c 3c 4c Qs 5c 6c 7c Jd 9h Th Jh")
    assert sg.plugin.result(s)["hands"][0] == "sangong" and sg.plugin.carry_over(s)["keep_bank"]


def test_bank_reopens_when_the_banker_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    carry = {"mode": "banker_bid", "banker": 0, "banker_player": "gone", "keep_bank": True}
    assert start("banker_bid", [5000] * 4, carry=carry)["phase"] == "bid"


def test_bank_reopens_when_the_banker_has_no_table_money_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # banker K Q 5 (5 points) holds 10 and loses to everyone: it pays all it has
    s = run_bid_hand(monkeypatch, "Ks 9c 8c 7c Qs Kc Kd Kh 5h 9h 9d 9s", stacks=[10, 5000, 5000, 5000])
    assert sg.plugin.result(s)["coins"][0] == -10
    assert not sg.plugin.carry_over(s)["keep_bank"]


def test_carry_from_another_mode_is_ignored() -> None:
    carry = {"mode": "all_compare", "banker_player": "p1", "keep_bank": True}
    assert start("banker_bid", [5000] * 4, carry=carry)["phase"] == "bid"


# --- banker_rotate 輪莊 ------------------------------------------------------------


def test_rotate_first_offer_is_a_seed_drawn_seat_then_counter_clockwise() -> None:
    s = start("banker_rotate", [5000] * 4)
    first = lottery(SEED, "offer", 4)[0]
    assert s["phase"] == "offer" and s["offer"] == first and s["cards"] == [[]] * 4
    assert sg.plugin.legal_actions(s, first) == [{"type": "accept"}, {"type": "decline"}]
    s = play(s, (first, {"type": "decline"}))
    assert s["offer"] == (first - 1) % 4
    s = play(s, (s["offer"], {"type": "accept"}))
    assert s["banker"] == (first - 1) % 4 and s["banker_how"] == "accepted" and s["phase"] == "bet"


def test_rotate_all_decline_draws_the_banker(monkeypatch: pytest.MonkeyPatch) -> None:
    s = start("banker_rotate", [5000] * 4)
    seqs = []
    for _ in range(4):
        seqs.append(s["phase_seq"])
        s, events = timeout(s)
        assert [e["type"] for e in events if e.get("auto")] == ["decline"]
    assert len(set(seqs)) == 4
    assert s["banker"] == lottery(SEED, "banker", 4)[0] and s["banker_how"] == "random"


def test_rotate_deals_all_three_cards_after_bets_from_the_banker(monkeypatch: pytest.MonkeyPatch) -> None:
    carry = {"mode": "banker_rotate", "next_offer": 2, "next_offer_player": "p2"}
    s = start("banker_rotate", [5000] * 4, "Ks 2c 3c 4c Qs 5c 6c 7c Jd 9h Th Jh", carry=carry, monkeypatch=monkeypatch)
    assert s["offer"] == 2
    s = play(s, (2, {"type": "accept"}), (0, bet(1)), (1, bet(1)), (3, bet(1)))
    assert s["cards"][2] == hand("Ks Qs Jd") and s["cards"][1] == hand("2c 5c 9h")
    s, _ = timeout(s)
    carry = sg.plugin.carry_over(s)
    assert (carry["next_offer"], carry["next_offer_player"]) == (1, "p1")


def test_rotate_offer_falls_back_to_the_seat_after_a_departed_offer_player() -> None:
    carry = {"mode": "banker_rotate", "banker_player": "p3", "next_offer_player": "gone", "next_offer": 2}
    assert start("banker_rotate", [5000] * 4, carry=carry)["offer"] == 2


# --- pairwise and house --------------------------------------------------------------


def test_pairwise_deals_at_once_and_settles_after_reveals() -> None:
    s = start("pairwise", [5000] * 3)
    assert s["phase"] == "reveal" and all(len(c) == 3 for c in s["cards"])
    assert sg.plugin.legal_actions(s, 0) == [REVEAL]
    s = play(s, (0, REVEAL), (1, REVEAL), (2, REVEAL))
    r = sg.plugin.result(s)
    assert sum(r["coins"]) + r["house"] == 0 and r["winner"] is not None


def test_house_bets_then_deals_player_and_banker_alternately(monkeypatch: pytest.MonkeyPatch) -> None:
    s = start("house", [1000, 1000], "As 4s 2s 9h 3s Qd", monkeypatch=monkeypatch)
    assert s["phase"] == "bet" and sg.plugin.deadline(s) == T0 + 20
    s = play(s, (0, {"type": "bet", "bets": {"player": 100, "side": 10}}))
    with pytest.raises(IllegalAction, match="even"):
        sg.plugin.apply(s, 1, {"type": "bet", "bets": {"banker": 99}}, now=T0)
    s, events = timeout(s)
    assert any(e["auto"] for e in events if e["type"] == "bet_placed")
    r = sg.plugin.result(s)
    assert r["table_cards"] == {"player": ["As", "2s", "3s"], "banker": ["4s", "9h", "Qd"]}
    assert r["outcome"] == "player" and r["coins"] == [50 + 400, 0] and r["house"] == -450


def test_house_bet_template_names_the_limits() -> None:
    [template] = sg.plugin.legal_actions(start("house", [700]), 0)
    assert template["max_total"] == 700 and set(template["bets"]) == {"player", "banker", "tie", "sangong", "side"}


# --- new_hand ------------------------------------------------------------------------


def test_player_count_limits_per_mode() -> None:
    with pytest.raises(EngineError, match="4..4 players, got 3"):
        start("banker_bid", [5000] * 3)
    assert start("banker_bid", [5000] * 3, min_players=2, max_players=6)["phase"] == "bid"
    with pytest.raises(EngineError, match="2..5 players, got 6"):
        start("all_compare", [5000] * 6)


def test_table_money_below_the_minimum_is_refused() -> None:
    with pytest.raises(EngineError, match=r"seats\[1\].stack: 5 is below the table minimum 10"):
        start("pairwise", [5000, 5])


def test_redeal_from_the_seed_gives_the_same_hands_and_state_is_json() -> None:
    a, b = start("pairwise", [5000] * 6), start("pairwise", [5000] * 6)
    assert a == b and json.loads(json.dumps(a)) == a
    other = sg.plugin.new_hand(rules={"mode": "pairwise"}, seats=seats(*[5000] * 6), carry=None, server_seed="07" * 32, now=T0)
    assert other["cards"] != a["cards"]


def test_client_seeds_change_the_deal() -> None:
    a = start("pairwise", [5000] * 2)
    b = sg.plugin.new_hand(
        rules={"mode": "pairwise", "base": 10},
        seats=seats(5000, 5000),
        carry=None,
        server_seed=SEED,
        client_seeds=["x"],
        now=T0,
    )
    assert a["cards"] != b["cards"]
