"""score_request: the command-line scorer's pure entry point (docs/RULES.md section 3)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.errors import CardError, EngineError
from games.engine.samgong import score_request


def req(mode: str = "all_compare", **kw: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "game": "samgong",
        "mode": mode,
        "base": 100,
        "seats": [
            {"cards": ["Ks", "Qs", "Jh"], "bet": 2, "stack": 10_000},
            {"cards": ["9s", "Kd", "Qc"], "bet": 1, "stack": 10_000},
            {"cards": ["2c", "3c", "5c"], "bet": 3, "stack": 10_000},
        ],
    }
    body.update(kw)
    return body


def test_all_compare_request() -> None:
    out = score_request(req())
    assert out["coins"] == [2400, -600, -1800] and out["commission"] == 120 and out["winner"] == 0
    assert out["house"] == 120 and sum(out["coins"]) - out["commission"] + out["house"] == 0


def test_pairwise_request_ignores_bets() -> None:
    out = score_request(req("pairwise"))
    assert out["coins"] == [600, -100, -500] and out["commission"] == 0 and out["hands"][0] == "hun_sangong"


def test_banker_request() -> None:
    out = score_request(req("banker_bid", banker=2, rules={"min_players": 2, "max_players": 6}))
    assert out["coins"] == [600, 200, -800] and out["winner"] == 0


def test_house_request() -> None:
    out = score_request(
        {
            "game": "samgong",
            "mode": "house",
            "base": 100,
            "player_cards": ["As", "2s", "3s"],
            "banker_cards": ["4s", "9h", "Qd"],
            "seats": [{"bets": {"player": 100, "side": 10}, "stack": 500}, {"bets": {"tie": 50}, "stack": 500}],
        }
    )
    assert out["coins"] == [450, -50] and out["house"] == -400 and out["winner"] is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "thirteen"}, "game"),
        ({"mode": "baccarat"}, "mode"),
        ({"base": -5}, "base"),
        ({"seats": []}, "seats"),
        ({"rules": {"colour": 1}}, "unknown setting"),
    ],
)
def test_bad_top_level_fields(change: dict, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        score_request(req(**change))


def seat_change(i: int, **kw: Any) -> dict[str, Any]:
    body = req()
    body["seats"][i].update(kw)
    return body


@pytest.mark.parametrize(
    ("body", "error", "message"),
    [
        (seat_change(1, cards=["Ks", "9d", "8d"]), CardError, r"seats\[1\].cards: duplicate card Ks"),
        (seat_change(0, cards=["As", "As", "2d"]), CardError, r"seats\[0\].cards: duplicate card As"),
        (seat_change(2, cards=["2c", "3c"]), CardError, r"seats\[2\].cards: expected 3 cards"),
        (seat_change(2, cards=["2c", "3c", "1x"]), CardError, "bad card"),
        (seat_change(1, bet=6), EngineError, r"seats\[1\].bet: 6 not allowed"),
        (seat_change(1, bet=True), EngineError, r"seats\[1\].bet"),
        (seat_change(0, stack=-1), EngineError, r"seats\[0\].stack: must not be negative"),
        (seat_change(0, stack="9"), EngineError, r"seats\[0\].stack"),
    ],
)
def test_bad_seats_name_the_field(body: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        score_request(body)


@pytest.mark.parametrize("banker", [None, 3, -1, "0", True])
def test_banker_index_is_checked(banker: Any) -> None:
    with pytest.raises(EngineError, match="banker: expected a seat index 0..2"):
        score_request(req("banker_rotate", banker=banker, rules={"min_players": 2}))


def test_wrong_player_count_for_the_mode() -> None:
    with pytest.raises(EngineError, match="needs 4..4 players, got 3"):
        score_request(req("banker_bid", banker=0))


def test_house_request_errors_name_the_field() -> None:
    base = {
        "game": "samgong",
        "mode": "house",
        "base": 100,
        "player_cards": ["As", "2s", "3s"],
        "banker_cards": ["4s", "9h", "Qd"],
        "seats": [{"bets": {"player": 100}, "stack": 500}],
    }
    with pytest.raises(CardError, match="banker_cards: duplicate card As"):
        score_request({**base, "banker_cards": ["As", "9h", "Qd"]})
    with pytest.raises(CardError, match="player_cards: expected a list"):
        score_request({**base, "player_cards": None})
    with pytest.raises(EngineError, match=r"seats\[0\].bets: stakes total 600 exceed"):
        score_request({**base, "seats": [{"bets": {"player": 600}, "stack": 500}]})
    with pytest.raises(EngineError, match=r"seats\[0\].bets.player: stake must be even"):
        score_request({**base, "seats": [{"bets": {"player": 99}, "stack": 500}]})


def test_zero_stack_is_allowed_and_moves_nothing() -> None:
    out = score_request(seat_change(0, stack=0))
    assert out["coins"] == [0, 0, 0]
