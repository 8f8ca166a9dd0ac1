"""The house-banked table (docs/RULES.md `house`): main bets, ties, 6-point half pays, side bet."""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.samgong.house import bet_result, check_bets, outcome, settle_house
from games.engine.samgong.poker3 import poker_category
from games.engine.samgong.rules import resolve_rules
from tests.games.engine.samgong.helpers import hand

R = resolve_rules({"mode": "house"})
NINE, FOUR, SIX, SEVEN = "9s Kd Qc", "As 3h Qd", "2s 4h Kd", "3s 4d Jc"
KINDS = ("player", "banker", "tie", "sangong")


def results(player: str, banker: str, stake: int = 100, rules: dict = R) -> list[int]:
    return [bet_result(k, stake, hand(player), hand(banker), rules) for k in KINDS]


def test_player_win_pays_one_to_one() -> None:
    assert results(NINE, FOUR) == [100, -100, -100, -100]


def test_player_loss_pays_the_banker_bet_one_to_one() -> None:
    assert results(FOUR, NINE) == [-100, 100, -100, -100]


def test_player_win_with_six_points_pays_half() -> None:
    assert results(SIX, FOUR) == [50, -100, -100, -100]


def test_banker_win_with_six_points_pays_the_banker_bet_half() -> None:
    assert results(FOUR, SIX) == [-100, 50, -100, -100]


def test_six_point_loser_does_not_change_the_winner_pay() -> None:
    assert results(SEVEN, SIX) == [100, -100, -100, -100]
    assert results(SIX, SEVEN) == [-100, 100, -100, -100]


def test_equal_points_tie_pushes_main_bets_and_pays_tie_eight() -> None:
    # both 9 points: face cards and highest cards do not count on this table
    assert outcome(hand(NINE), hand("2s 3d 4d"), "tiers") == "tie"
    assert results(NINE, "2s 3d 4d") == [0, 0, 800, -100]


def test_two_hun_sangong_tie_but_trips_ranks_still_compare() -> None:
    assert outcome(hand("Ks Qd Jc"), hand("Kh Qh Jh"), "tiers") == "tie"
    assert outcome(hand("Ks Kh Kd"), hand("Qs Qh Qd"), "tiers") == "player"
    assert outcome(hand("9s 9h 9d"), hand("Ts Th Td"), "tiers") == "banker"
    assert outcome(hand("As Ah Ad"), hand("Ks Qd Jc"), "tiers") == "player"


@pytest.mark.parametrize("cards", ["Ks Qd Jc", "As Ah Ad", "Ks Kh Kd"])
def test_sangong_bet_pays_sixteen_on_any_three_face_or_trips(cards: str) -> None:
    assert bet_result("sangong", 10, hand(cards), hand(FOUR), R) == 160


def test_sangong_bet_loses_on_a_point_hand_even_with_two_faces() -> None:
    assert bet_result("sangong", 10, hand("Ks Qd Tc"), hand(FOUR), R) == -10


@pytest.mark.parametrize(
    ("cards", "category", "net"),
    [
        ("As 2s 3s", "straight_flush", 400),
        ("Qh Kh Ah", "straight_flush", 400),
        ("7s 7h 7d", "trips", 300),
        ("Qd Kc Ah", "straight", 60),
        ("Ad 2c 3h", "straight", 60),
        ("4d 5c 6h", "straight", 60),
        ("2d 9d Kd", "flush", 30),
        ("Kd Ad 2d", "flush", 30),
        ("9s 9h 2d", "pair", 10),
        ("Kd Ac 2h", None, -10),
        ("2d 7c Jh", None, -10),
    ],
)
def test_side_bet_reads_the_player_hand_as_three_card_poker(cards: str, category: str | None, net: int) -> None:
    assert poker_category(hand(cards)) == category
    assert bet_result("side", 10, hand(cards), hand(FOUR), R) == net


def test_even_main_bets_required_by_default() -> None:
    with pytest.raises(EngineError, match="player: stake must be even"):
        check_bets({"player": 101}, 1000, R)
    assert check_bets({"tie": 101, "side": 3}, 1000, R) == {"tie": 101, "side": 3}


def test_odd_half_pay_rounds_the_player_win_down_when_allowed() -> None:
    r = resolve_rules({"mode": "house", "even_main_bets": False})
    assert check_bets({"player": 101}, 1000, r) == {"player": 101}
    assert bet_result("player", 101, hand(SIX), hand(FOUR), r) == 50


def test_half_pay_can_be_turned_off_by_a_room() -> None:
    r = resolve_rules({"mode": "house", "half_pay_points": None})
    assert bet_result("player", 100, hand(SIX), hand(FOUR), r) == 100


def test_stakes_must_fit_the_table_money() -> None:
    with pytest.raises(EngineError, match="exceed the table money 300"):
        check_bets({"player": 200, "tie": 150}, 300, R)


@pytest.mark.parametrize(
    ("bets", "message"),
    [
        ({"jackpot": 10}, "unknown bet"),
        ({"tie": -1}, "tie: expected a non-negative integer"),
        ({"tie": 1.5}, "tie: expected a non-negative integer"),
        ([10], "expected a mapping"),
    ],
)
def test_bad_bets_are_refused_with_the_field(bets: object, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        check_bets(bets, 1000, R)


def test_zero_stakes_are_dropped() -> None:
    assert check_bets({"player": 0, "tie": 10}, 1000, R) == {"tie": 10}


def test_settle_house_every_seat_against_the_house() -> None:
    bets = [{"player": 100, "side": 10}, {"banker": 200, "tie": 50}, {}]
    s = settle_house(hand("As 2s 3s"), hand(FOUR), bets, R)  # 閒 6 points, straight flush
    assert s["gross"] == [50 + 400, -200 - 50, 0]
    assert s["house"] == -200 and s["commission"] == 0
    assert sum(s["coins"]) + s["house"] == 0
    assert s["outcome"] == "player" and s["player_hand"] == "point_6" and s["banker_hand"] == "point_4"
    assert s["side"] == "straight_flush" and s["winner"] is None
