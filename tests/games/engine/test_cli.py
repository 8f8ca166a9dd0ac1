"""``python -m games score|arrange``: JSON Lines in, one JSON line out per input line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from games.engine import cli
from games.engine.registry import GAMES, engine_for
from games.engine.errors import EngineError

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
        [sys.executable, "-m", "games", command], input=data, cwd=REPO, capture_output=True, timeout=timeout, check=False
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
