"""score_request / arrange_request: the JSON contract behind ``python -m games``."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine.errors import EngineError
from games.engine.thirteen import arrange_request, score_request
from tests.games.engine.thirteen.helpers import SEED_ABCD, declared


def req(**extra: Any) -> dict[str, Any]:
    return {"game": "thirteen", "seats": copy.deepcopy(SEED_ABCD[:2]), **extra}


def test_score_answers_units_fouls_and_naturals() -> None:
    assert score_request(req()) == {"units": [3, -3], "fouled": [False, False], "natural": [None, None]}


def test_score_adds_coins_and_commission_when_money_is_given() -> None:
    r = score_request(req(dealer=1, unit=100, stacks=[3000, 3000], commission=5))
    assert r["coins"] == [285, -300] and r["commission"] == 15


def test_score_does_not_change_its_request() -> None:
    request = req(unit=100, stacks=[3000, 3000], commission=5)
    before = copy.deepcopy(request)
    score_request(request)
    assert request == before


def test_a_declaring_seat_may_leave_out_its_rows() -> None:
    seats = [
        declared("2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ad"),
        {"cards": "2h 2c 3s 3d 4h 4d 5h 5c 6h 6c 7s 7c 9s".split(), "declare": True},
    ]
    r = score_request({"game": "thirteen", "seats": seats})
    assert r == {"units": [13, -13], "fouled": [False, False], "natural": ["dragon", "six_pairs"]}


def _seat0(**changes: Any) -> dict[str, Any]:
    r = req()
    r["seats"][0].update(changes)
    return r


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"game": "trio", "seats": []}, "game: expected 'thirteen'"),
        ({"game": "thirteen", "seats": SEED_ABCD[:1]}, "seats: expected a list of 2-4 seats, got 1"),
        ({"game": "thirteen", "seats": SEED_ABCD + SEED_ABCD[:1]}, "got 5"),
        ({"game": "thirteen", "seats": "x"}, "seats: expected a list"),
        ({"game": "thirteen", "seats": [1, 2]}, r"seats\[0\]: expected an object"),
        (_seat0(cards=SEED_ABCD[0]["cards"][:12]), r"seats\[0\].cards: expected 13 cards"),
        (_seat0(cards=["Xx"] + SEED_ABCD[0]["cards"][1:]), "bad card 'Xx'"),
        (_seat0(front=["4s", "4d"]), r"seats\[0\].front: expected 3 cards, got 2"),
        (_seat0(middle=SEED_ABCD[0]["middle"] + ["4s"]), r"seats\[0\].middle: expected 5 cards"),
        (_seat0(back=["5c", "6c", "7h", "8c", "8c"]), r"seats\[0\].back: duplicate card 8c"),
        (_seat0(back=["5c", "6c", "7h", "8c", "Ah"]), r"seats\[0\]: Ah is not one of"),
        (_seat0(back=["5c", "6c", "7h", "8c", "4s"]), r"seats\[0\]: 4s is placed in two rows"),
        (_seat0(declare="yes"), r"seats\[0\].declare: expected true or false"),
        (_seat0(front=None), r"seats\[0\].front: expected a list"),
        (
            {"game": "thirteen", "seats": [dict(SEED_ABCD[0]), {k: v for k, v in SEED_ABCD[1].items() if k != "back"}]},
            r"seats\[1\].back: missing",
        ),
        (
            {"game": "thirteen", "seats": [SEED_ABCD[0], SEED_ABCD[0]]},
            r"seats\[1\].cards: duplicate card 4s \(also in seats\[0\]\)",
        ),
        (req(dealer=2), "dealer: expected an integer 0..1"),
        (req(dealer=True), "dealer"),
        (req(unit=100, stacks=[1, 2]), "commission: missing"),
        (req(unit=0, stacks=[1, 2], commission=5), "unit: expected an integer"),
        (req(unit=100, stacks=[1], commission=5), "stacks: expected a list of 2"),
        (req(unit=100, stacks=[1, -2], commission=5), r"stacks\[1\]"),
        (req(unit=100, stacks=[1, 2], commission="5%"), "commission: expected a percentage"),
        (req(unit=100, stacks=[1, 2], commission=101), "between 0 and 100"),
    ],
)
def test_score_validates_every_field(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        score_request(request_)


def test_arrange_answers_rows_and_the_declaration() -> None:
    r = arrange_request({"game": "thirteen", "cards": SEED_ABCD[0]["cards"]})
    assert set(r) == {"front", "middle", "back", "declare"} and r["declare"] is False
    assert sorted(r["front"] + r["middle"] + r["back"]) == sorted(SEED_ABCD[0]["cards"])
    assert score_request(
        {
            "game": "thirteen",
            "seats": [{"cards": SEED_ABCD[0]["cards"], **{k: r[k] for k in ("front", "middle", "back")}}, SEED_ABCD[1]],
        }
    )["fouled"] == [False, False]


def test_arrange_declares_a_natural() -> None:
    r = arrange_request({"game": "thirteen", "cards": "2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ad".split()})
    assert r["declare"] is True


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"game": "thirteen"}, "cards: expected a list"),
        ({"game": "thirteen", "cards": ["As"] * 13}, "duplicate card As"),
        ({"game": "thirteen", "cards": ["As", "Ks"]}, "expected 13 cards, got 2"),
        ({"game": "thirteen", "cards": SEED_ABCD[0]["cards"], "seats": []}, "seats: unknown field"),
    ],
)
def test_arrange_validates_its_cards(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        arrange_request(request_)


def test_the_command_line_reaches_thirteen() -> None:
    import io
    import json

    from games.engine.cli import run_lines

    out = io.StringIO()
    line = json.dumps(req()).encode()
    assert run_lines("score", [line], out) == 0
    assert json.loads(out.getvalue())["units"] == [3, -3]


def test_score_requests_may_carry_extra_fields_as_hand_history_lines_do() -> None:
    plain = score_request(req())
    extended = req(hand_id=7, table="T1")
    extended["seats"][0]["player"] = "alice"
    assert score_request(extended) == plain
