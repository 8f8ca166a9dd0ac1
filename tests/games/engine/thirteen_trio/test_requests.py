"""Score and arrange requests (``python -m games score|arrange``) for thirteen_trio."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine.cards import parse_cards
from games.engine.cli import dispatch
from games.engine.errors import EngineError
from games.engine.thirteen_trio import arrange_request, score_request
from games.engine.thirteen_trio.scoring import is_foul


def seat(front: str, middle: str, back: str, spare: str) -> dict[str, Any]:
    rows = {"front": front.split(), "middle": middle.split(), "back": back.split()}
    return {"cards": rows["front"] + rows["middle"] + rows["back"] + spare.split(), **rows}


# STRONG / WEAK / MIDDLING (see helpers) with their four unused cards; jackpot 6c.
SEATS = [
    seat("Qc Qd 2h", "3s 3h 4s 4c Kh", "Jd Js Jh 6s 6h", "2d 5d 5s 9h"),
    seat("2c 3d 4h", "5c 6d 7h 9s Jc", "8c 8d Ts Qh Kd", "Ac As Ad Th"),
    seat("5h 7c 8s", "9c 9d 2s 3c 4d", "Tc Td 7s 7d Ah", "Kc Ks Qs 8h"),
]


def request(**kw: Any) -> dict[str, Any]:
    return {"game": "thirteen_trio", "jackpot": "6c", "seats": copy.deepcopy(SEATS), **kw}


def test_score_gives_net_dun_per_seat_and_fouls() -> None:
    assert score_request(request()) == {"units": [4, -3, -1], "fouled": [False, False, False]}


def test_score_with_a_base_gives_coins_after_5_percent_commission() -> None:
    out = score_request(request(base=100))
    assert out == {"units": [4, -3, -1], "fouled": [False, False, False], "coins": [380, -300, -100], "commission": 20}
    assert score_request(request(base=100, commission_percent=0))["coins"] == [400, -300, -100]


def test_score_reports_a_fouled_hand() -> None:
    req = request()
    s = req["seats"][0]
    s["front"], s["back"] = ["Jd", "Js", "Jh"], ["Qc", "Qd", "2h", "6s", "6h"]  # trips over two pair
    out = score_request(req)
    # WEAK shoots the fouled hand (1); MIDDLING shoots both: a home run (2 from each)
    assert out["fouled"] == [True, False, False] and out["units"] == [-3, -1, 4]


def test_the_cli_dispatches_to_the_trio_engine() -> None:
    assert dispatch("score", request())["units"] == [4, -3, -1]
    out = dispatch("arrange", {"game": "thirteen_trio", "jackpot": "6c", "cards": SEATS[0]["cards"]})
    assert out["declare"] is False


def _broken(path: str, value: Any) -> dict[str, Any]:
    req = request()
    target: Any = req
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return req


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("jackpot", KeyError, "jackpot: missing"),
        ("jackpot", "6x", "jackpot: bad card"),
        ("jackpot", "Qc", r"jackpot: Qc is also in seats\[0\].cards"),
        ("seats", SEATS[:2], "seats: thirteen_trio needs exactly 3 seats, got 2"),
        ("seats", None, "seats: thirteen_trio needs exactly 3 seats"),
        ("seats.1.middle.2", "Zz", r"seats\[1\].middle\[2\]: bad card"),
        ("seats.1.cards.13", "Qc", r"seats\[1\].cards: Qc is also in seats\[0\].cards"),
        ("seats.2.cards", SEATS[2]["cards"][:16], r"seats\[2\].cards: expected 17 cards, got 16"),
        ("seats.2.front", ["5h", "7c"], r"seats\[2\].front: expected 3 cards, got 2"),
        ("seats.2.back", ["Tc", "Td", "7s", "7d", "As"], r"seats\[2\].back: As is not one of this seat's cards"),
        ("seats.2.back", ["Tc", "Td", "7s", "7d", "7d"], r"seats\[2\].back: duplicate card 7d"),
        ("seats.2.back", ["Tc", "Td", "7s", "7d", "5h"], r"seats\[2\].back: 5h is already in another row"),
        ("seats.0.declare", True, r"seats\[0\].declare: thirteen_trio has no naturals"),
        ("seats.0", "As Ks", r"seats\[0\]: expected an object"),
        ("base", -1, "base: expected a non-negative integer"),
        ("base", True, "base: expected a non-negative integer"),
    ],
)
def test_score_errors_name_the_field(path: str, value: Any, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        score_request(_broken(path, value))


def test_arrange_gives_unfouled_rows_from_the_cards_and_never_declares() -> None:
    cards = SEATS[0]["cards"]
    out = arrange_request({"game": "thirteen_trio", "cards": cards, "jackpot": "6c"})
    assert set(out) == {"front", "middle", "back", "declare"} and out["declare"] is False
    played = out["front"] + out["middle"] + out["back"]
    assert len(played) == len(set(played)) == 13 and set(played) <= set(cards)
    assert not is_foul({r: parse_cards(out[r]) for r in ("front", "middle", "back")})


@pytest.mark.parametrize(
    ("req", "message"),
    [
        ({"cards": SEATS[0]["cards"], "jackpot": "Qc"}, "jackpot: Qc is also in cards"),
        ({"cards": SEATS[0]["cards"][:13], "jackpot": "6c"}, "cards: expected 17 cards, got 13"),
        ({"cards": SEATS[0]["cards"][:16] + ["11"], "jackpot": "6c"}, r"cards\[16\]: bad card"),
        ({"cards": SEATS[0]["cards"][:16] + ["Qc"], "jackpot": "6c"}, "cards: duplicate card Qc"),
        ({"cards": SEATS[0]["cards"]}, "jackpot: missing"),
        ({"cards": "Qc Qd", "jackpot": "6c"}, "cards: expected a list"),
    ],
)
def test_arrange_errors_name_the_field(req: dict[str, Any], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        arrange_request({"game": "thirteen_trio", **req})
