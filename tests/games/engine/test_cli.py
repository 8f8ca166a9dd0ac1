"""``python -m games score|arrange``: JSON Lines in, one JSON line out per input line."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from games.engine import cli
from games.engine.errors import EngineError
from games.engine.registry import GAMES, engine_for

REPO = Path(__file__).resolve().parents[3]


def landed(game: str) -> ModuleType:
    """The game's engine package, or skip the test while it is not in the tree yet."""
    module = pytest.importorskip(f"games.engine.{game}")
    if getattr(module, "__file__", None) is None:  # a bare folder: the package has not landed
        pytest.skip(f"games.engine.{game} has no __init__ yet")
    return module


def run(command: str, lines: list[Any], *, timeout: float = 120) -> tuple[list[dict[str, Any]], int]:
    """Run ``python -m games <command>`` on ``lines`` (dicts are JSON-encoded, str/bytes sent as is)."""
    chunks = [json.dumps(x).encode() if isinstance(x, dict | list) else x for x in lines]
    data = b"".join((c.encode() if isinstance(c, str) else c) + b"\n" for c in chunks)
    done = subprocess.run(
        [sys.executable, "-m", "games", command],
        input=data,
        cwd=REPO,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    assert done.stderr == b"", done.stderr.decode()
    out = done.stdout.decode().splitlines()
    assert len(out) == len(lines), "one output line per input line"
    return [json.loads(line) for line in out], done.returncode


def in_process(command: str, lines: list[str]) -> tuple[list[dict[str, Any]], int]:
    out = io.StringIO()
    status = cli.main([command], io.BytesIO("".join(line + "\n" for line in lines).encode()), out)
    return [json.loads(line) for line in out.getvalue().splitlines()], status


# --- games ---------------------------------------------------------------------------------


def test_the_registry_knows_the_three_games_and_refuses_others() -> None:
    assert GAMES == ("thirteen", "thirteen_trio", "samgong")
    for bad in ("poker", "", None, 3, "Thirteen", "games.engine.cards"):
        with pytest.raises(EngineError, match=r"unknown game .*: expected one of thirteen, thirteen_trio, samgong"):
            engine_for(bad)


# --- line handling that needs no game ----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{bad", "invalid JSON at column 2: Expecting property name enclosed in double quotes"),
        ('{"game": "thirteen",}', "invalid JSON at column 21: "),
        ("[1, 2]", "expected a JSON object, got an array"),
        ('"thirteen"', "expected a JSON object, got a string"),
        ("42", "expected a JSON object, got a number"),
        ("null", "expected a JSON object, got null"),
        ("true", "expected a JSON object, got a boolean"),
        ("{}", 'missing "game": expected one of thirteen, thirteen_trio, samgong'),
        ('{"game": "poker"}', "unknown game 'poker': expected one of thirteen, thirteen_trio, samgong"),
        ('{"game": 7}', "unknown game 7: expected one of thirteen, thirteen_trio, samgong"),
        ("", "empty line: expected a JSON object"),
        ("   \t", "empty line: expected a JSON object"),
    ],
)
def test_a_bad_line_gives_a_clear_error_line(line: str, message: str) -> None:
    out, status = in_process("score", [line])
    assert len(out) == 1 and out[0]["line"] == 1
    assert out[0]["error"].startswith(message)
    assert status == 1


def test_invalid_utf8_is_an_error_line_not_a_crash() -> None:
    out, status = run("score", [b"\xff\xfe{", "{}"])
    assert out[0] == {"error": "line is not valid UTF-8 (byte 1)", "line": 1}
    assert out[1]["line"] == 2
    assert status == 1


def test_error_lines_carry_their_input_line_number() -> None:
    out, status = run("arrange", ["[]", "{}", "", "nope"])
    assert [o["line"] for o in out] == [1, 2, 3, 4]
    assert status == 1


def test_an_unexpected_exception_becomes_an_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(req: dict[str, Any]) -> dict[str, Any]:
        raise ZeroDivisionError("boom")

    fake = ModuleType("fake")
    fake.score_request = explode  # type: ignore[attr-defined]
    monkeypatch.setattr(cli, "engine_for", lambda game: fake)
    out, status = in_process("score", ['{"game": "thirteen"}', '{"game": "thirteen"}'])
    assert out == [{"error": "internal error: ZeroDivisionError: boom", "line": n} for n in (1, 2)]
    assert status == 1


def test_a_response_that_is_not_json_becomes_an_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = ModuleType("fake")
    fake.score_request = lambda req: {"units": [float("nan")]}  # type: ignore[attr-defined]
    monkeypatch.setattr(cli, "engine_for", lambda game: fake)
    out, status = in_process("score", ['{"game": "thirteen"}'])
    assert out[0]["error"].startswith("internal error: ValueError: Out of range float values")
    assert status == 1


def test_a_missing_command_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, "-m", "games"], cwd=REPO, capture_output=True, check=False)
    assert done.returncode == 2
    assert b"usage: python -m games" in done.stderr


def test_empty_input_gives_empty_output_and_success() -> None:
    assert run("score", []) == ([], 0)


# --- real games: golden lines, malformed lines among valid ones ---------------------------------

THIRTEEN_GOLDEN = {
    "game": "thirteen",
    "seats": [
        {
            "cards": "Ah Ad 2c Kh Kd Qs Qc 3d 9s 9h 9d 9c 4s".split(),
            "front": ["Ah", "Ad", "2c"],
            "middle": "Kh Kd Qs Qc 3d".split(),
            "back": "9s 9h 9d 9c 4s".split(),
        },
        {
            "cards": "7h 5d 3c Js Td 8h 6h 4c Qh Jh Tc 8c 5s".split(),
            "front": ["7h", "5d", "3c"],
            "middle": "Js Td 8h 6h 4c".split(),
            "back": "Qh Jh Tc 8c 5s".split(),
        },
    ],
}


def trio_seat(front: str, middle: str, back: str, spare: str) -> dict[str, list[str]]:
    rows = {"front": front.split(), "middle": middle.split(), "back": back.split()}
    return {"cards": front.split() + middle.split() + back.split() + spare.split(), **rows}


TRIO_GOLDEN = {
    "game": "thirteen_trio",
    "jackpot": "5s",
    "base": 100,
    "seats": [
        trio_seat("Ah Ad Kc", "2s 2d 3c 3h Jh", "7h 7d 7c 8s 8h", "3s 5h 6c 6s"),  # shoots both: home run
        trio_seat("Qh Jd 9c", "4s 4d 5c 6h 9d", "Ts Td Th 2c 4c", "7s 8d 8c Tc"),
        trio_seat("Kh Qd 3d", "Ks Kd 5d 6d 4h", "9h 9s Jc Js 2h", "Qc Qs Ac As"),
    ],
}

SAMGONG_GOLDEN = {
    "game": "samgong",
    "mode": "all_compare",
    "base": 100,
    "seats": [
        {"cards": ["Ks", "Qs", "Jh"], "bet": 1, "stack": 10000},
        {"cards": ["2s", "3d", "4d"], "bet": 2, "stack": 10000},
    ],
}


def with_seat(request: dict[str, Any], i: int, **changes: Any) -> dict[str, Any]:
    """A copy of ``request`` with seat ``i`` changed."""
    seats = [dict(s) for s in request["seats"]]
    seats[i].update(changes)
    return {**request, "seats": seats}


def test_valid_lines_of_every_game_score_and_exit_zero() -> None:
    for game in GAMES:
        landed(game)
    out, status = run("score", [THIRTEEN_GOLDEN, TRIO_GOLDEN, SAMGONG_GOLDEN])
    assert status == 0
    assert out[0] == {"units": [6, -6], "fouled": [False, False], "natural": [None, None]}
    assert out[1] == {
        "units": [4, -2, -2],
        "fouled": [False, False, False],
        "coins": [380, -200, -200],
        "commission": 20,
    }
    assert out[2]["coins"] == [600, -600] and out[2]["winner"] == 0


def test_malformed_thirteen_lines_give_errors_while_the_lines_around_them_score() -> None:
    landed("thirteen")
    g = THIRTEEN_GOLDEN
    back = g["seats"][0]["back"]
    lines: list[Any] = [
        g,
        with_seat(g, 0, cards=["Zz"] + g["seats"][0]["cards"][1:]),  # wrong card
        g,
        with_seat(g, 1, cards=["Ah"] + g["seats"][1]["cards"][1:], front=["Ah", "5d", "3c"]),  # Ah also in seat 0
        with_seat(g, 0, front=g["seats"][0]["front"] + [back[0]], back=back[1:]),  # 4 / 5 / 4 rows
        {**g, "game": "thirteen_duo"},
        '{"game": "thirteen", "seats": [',
        '["thirteen"]',
        g,
    ]
    out, status = run("score", lines)
    assert status == 1
    for i in (0, 2, 8):
        assert out[i]["units"] == [6, -6]
    errors = {i: out[i]["error"] for i in (1, 3, 4, 5, 6, 7)}
    assert errors[1].startswith("bad card 'Zz'")
    assert errors[3] == "seats[1].cards: duplicate card Ah (also in seats[0])"
    assert "front" in errors[4] and "3" in errors[4]
    assert errors[5] == "unknown game 'thirteen_duo': expected one of thirteen, thirteen_trio, samgong"
    assert errors[6].startswith("invalid JSON at column 32")
    assert errors[7] == "expected a JSON object, got an array"
    assert all(out[i]["line"] == i + 1 for i in errors)


def test_malformed_trio_and_samgong_lines_give_errors_naming_the_field() -> None:
    landed("thirteen_trio")
    landed("samgong")
    t, s = TRIO_GOLDEN, SAMGONG_GOLDEN
    lines: list[Any] = [
        {k: v for k, v in t.items() if k != "jackpot"},
        {**t, "jackpot": "Kc"},  # Kc is also in seat 0's cards
        with_seat(t, 2, middle=["Ks", "Kd", "5d", "6d"]),
        {**t, "seats": t["seats"][:2]},
        with_seat(s, 1, cards=["2s", "3d", "Ks"]),  # Ks is also in seat 0's cards
        with_seat(s, 0, bet=9),
        {**s, "mode": "baccarat"},
        t,
        s,
    ]
    out, status = run("score", lines)
    assert status == 1
    assert out[0]["error"].startswith("jackpot: missing")
    assert out[1]["error"].startswith("jackpot: Kc is also in seats[0]")
    assert out[2]["error"] == "seats[2].middle: expected 5 cards, got 4"
    assert "exactly 3 seats, got 2" in out[3]["error"]
    assert "duplicate card Ks" in out[4]["error"]
    assert out[5]["error"].startswith("seats[0].bet: 9 not allowed")
    assert out[6]["error"].startswith("mode: expected one of all_compare")
    assert out[7]["units"] == [4, -2, -2]
    assert out[8]["coins"] == [600, -600]


def test_arrange_answers_thirteen_and_trio_and_refuses_samgong() -> None:
    for game in GAMES:
        landed(game)
    thirteen_cards = "As Ks Qs Js Ts 9h 9d 9c 4s 4h 2c 3d 7h".split()
    trio_cards = "6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split()
    lines: list[Any] = [
        {"game": "thirteen", "cards": thirteen_cards},
        {"game": "thirteen", "cards": thirteen_cards[:12]},
        {"game": "thirteen_trio", "cards": trio_cards, "jackpot": "6h"},
        {"game": "thirteen_trio", "cards": trio_cards},
        {"game": "samgong", "cards": ["As", "Ks", "Qs"]},
    ]
    out, status = run("arrange", lines)
    assert status == 1
    rows = out[0]
    assert sorted(rows["front"] + rows["middle"] + rows["back"]) == sorted(thirteen_cards)
    assert [len(rows[r]) for r in ("front", "middle", "back")] == [3, 5, 5]
    assert rows["back"] == ["As", "Ks", "Qs", "Js", "Ts"] or sorted(rows["back"]) == sorted("As Ks Qs Js Ts".split())
    assert out[1]["error"] == "cards: expected 13 cards, got 12"
    assert set(out[2]["front"] + out[2]["middle"] + out[2]["back"]) <= set(trio_cards)
    assert sorted(out[2]["front"]) == ["6c", "6d", "6s"] and out[2]["declare"] is False
    assert out[3]["error"].startswith("jackpot: missing")
    assert out[4]["error"] == "game 'samgong' has no arrange: expected one of thirteen, thirteen_trio"


# --- 10,000 random valid lines in one process -------------------------------------------------

THIRTEEN_STAKES = [(50, 5), (100, 5), (250, 4), (500, 3), (1000, 3), (2000, 3), (5000, 2)]
TRIO_BASES = [10_000, 20_000, 30_000, 50_000, 100_000]
SAMGONG_SEATS = {
    "all_compare": (2, 5),
    "pairwise": (2, 6),
    "banker_bid": (4, 4),
    "banker_rotate": (4, 4),
    "house": (1, 8),
}


RANK_SUIT = [r + s for r in "23456789TJQKA" for s in "dchs"]


def strs(cards: list[int]) -> list[str]:
    return [RANK_SUIT[c] for c in cards]


def random_rows(rng: random.Random, cards: list[str]) -> dict[str, list[str]]:
    """Any 13 of the cards split 3 / 5 / 5 at random: valid input, usually a fouled hand."""
    picked = rng.sample(cards, 13)
    return {"front": picked[:3], "middle": picked[3:8], "back": picked[8:]}


def thirteen_pool(rng: random.Random, deals: int) -> list[list[dict[str, Any]]]:
    """Full 4-seat deals, every seat arranged by the engine's own arrange_request."""
    arrange = landed("thirteen").arrange_request
    pool = []
    for _ in range(deals):
        deck = rng.sample(range(52), 52)
        seats = []
        for s in range(4):
            cards = strs(deck[13 * s : 13 * s + 13])
            seats.append({"cards": cards, **arrange({"game": "thirteen", "cards": cards})})
        pool.append(seats)
    return pool


def trio_pool(rng: random.Random, deals: int) -> list[tuple[str, list[dict[str, Any]]]]:
    arrange = landed("thirteen_trio").arrange_request
    pool = []
    for _ in range(deals):
        deck = strs(rng.sample(range(52), 52))
        jackpot, seats = deck[0], []
        for s in range(3):
            cards = deck[1 + 17 * s : 18 + 17 * s]
            rows = arrange({"game": "thirteen_trio", "cards": cards, "jackpot": jackpot})
            seats.append({"cards": cards, **{r: rows[r] for r in ("front", "middle", "back")}})
        pool.append((jackpot, seats))
    return pool


Line = tuple[dict[str, Any], list[bool]]  # a request and, per seat, "arranged by the engine"


def thirteen_line(rng: random.Random, pool: list[list[dict[str, Any]]]) -> Line:
    seats = [dict(s) for s in rng.sample(rng.choice(pool), rng.randint(2, 4))]
    arranged = []
    for seat in seats:
        roll = rng.random()
        if roll < 0.15:
            seat.update(random_rows(rng, seat["cards"]), declare=False)
        elif roll < 0.18:
            seat["declare"] = True  # declaring without a natural is a foul: still valid input
        arranged.append(roll >= 0.18)
    request: dict[str, Any] = {"game": "thirteen", "seats": seats, "dealer": rng.randrange(len(seats))}
    if rng.random() < 0.6:
        unit, percent = rng.choice(THIRTEEN_STAKES)
        request.update(unit=unit, commission=percent, stacks=[rng.randint(5 * unit, 80 * unit) for _ in seats])
    return request, arranged


def trio_line(rng: random.Random, pool: list[tuple[str, list[dict[str, Any]]]]) -> Line:
    jackpot, dealt = rng.choice(pool)
    seats = [dict(s) for s in rng.sample(dealt, 3)]
    arranged = []
    for seat in seats:
        arranged.append(rng.random() >= 0.15)
        if not arranged[-1]:
            seat.update(random_rows(rng, seat["cards"]))
    request: dict[str, Any] = {"game": "thirteen_trio", "jackpot": jackpot, "seats": seats}
    if rng.random() < 0.6:
        request["base"] = rng.choice(TRIO_BASES)
    return request, arranged


def samgong_line(rng: random.Random) -> Line:
    mode = rng.choice(list(SAMGONG_SEATS))
    n = rng.randint(*SAMGONG_SEATS[mode])
    base = rng.choice([100, 200, 500, 1000])
    cards = strs(rng.sample(range(52), 3 * n + 6))
    seats = []
    for i in range(n):
        stack = rng.choice([rng.randint(base, 6 * base), rng.randint(base, 300 * base)])
        seats.append({"cards": cards[3 * i : 3 * i + 3], "bet": rng.randint(1, 5), "stack": stack})
    request: dict[str, Any] = {"game": "samgong", "mode": mode, "base": base, "seats": seats}
    if mode in ("banker_bid", "banker_rotate"):
        request["banker"] = rng.randrange(n)
    if mode == "house":
        request.update(player_cards=cards[-6:-3], banker_cards=cards[-3:])
        for seat in seats:
            quarter = seat["stack"] // 8
            seat["bets"] = {
                "player": 2 * rng.randint(0, quarter // 2),
                "tie": rng.randint(0, quarter),
                "sangong": rng.randint(0, quarter),
                "side": rng.randint(0, quarter),
            }
    return request, []


def check_thirteen(request: dict[str, Any], answer: dict[str, Any], arranged: list[bool]) -> None:
    n = len(request["seats"])
    assert sum(answer["units"]) == 0 and len(answer["units"]) == len(answer["fouled"]) == len(answer["natural"]) == n
    assert not any(f and a for f, a in zip(answer["fouled"], arranged, strict=True)), "an auto-arranged hand fouled"
    if "unit" in request:
        assert sum(answer["coins"]) + answer["commission"] == 0 and answer["commission"] >= 0
        assert all(-s <= c <= s for c, s in zip(answer["coins"], request["stacks"], strict=True))
        assert answer["commission"] <= sum(c for c in answer["coins"] if c > 0)


def check_trio(request: dict[str, Any], answer: dict[str, Any], arranged: list[bool]) -> None:
    assert sum(answer["units"]) == 0 and len(answer["units"]) == len(answer["fouled"]) == 3
    assert not any(f and a for f, a in zip(answer["fouled"], arranged, strict=True)), "an auto-arranged hand fouled"
    if "base" in request:
        assert sum(answer["coins"]) + answer["commission"] == 0 and answer["commission"] >= 0
        for units, coins in zip(answer["units"], answer["coins"], strict=True):
            assert coins == units * request["base"] if units <= 0 else 0 <= coins <= units * request["base"]


def check_samgong(request: dict[str, Any], answer: dict[str, Any], arranged: list[bool]) -> None:
    coins, stacks = answer["coins"], [s["stack"] for s in request["seats"]]
    assert len(coins) == len(stacks) and answer["commission"] >= 0
    # samgong reports coins before the fee; the house's net closes the balance.
    assert sum(coins) - answer["commission"] + answer["house"] == 0
    assert all(c >= -s for c, s in zip(coins, stacks, strict=True))
    if request["mode"] in ("all_compare", "pairwise"):
        assert sum(coins) == 0 and answer["house"] == answer["commission"]
        assert all(c <= s for c, s in zip(coins, stacks, strict=True))
    winner = answer["winner"]
    assert winner is None or 0 <= winner < len(coins)


CHECKS = {"thirteen": check_thirteen, "thirteen_trio": check_trio, "samgong": check_samgong}


def test_ten_thousand_random_valid_hands_score_in_one_run() -> None:
    for game in GAMES:
        landed(game)
    rng = random.Random(20240613)
    thirteen, trio = thirteen_pool(rng, 120), trio_pool(rng, 50)
    lines = [
        thirteen_line(rng, thirteen) if i % 3 == 0 else trio_line(rng, trio) if i % 3 == 1 else samgong_line(rng)
        for i in range(10_000)
    ]
    out, status = run("score", [request for request, _ in lines], timeout=300)
    errors = [(i + 1, o["error"]) for i, o in enumerate(out) if "error" in o]
    assert errors == [], errors[:5]
    assert status == 0
    for (request, arranged), answer in zip(lines, out, strict=True):
        CHECKS[request["game"]](request, answer, arranged)
    assert {r["mode"] for r, _ in lines if r["game"] == "samgong"} == set(SAMGONG_SEATS)
    fouls = sum(any(a["fouled"]) for (r, _), a in zip(lines, out, strict=True) if r["game"] != "samgong")
    assert fouls > 500, "the random rows should foul often"
