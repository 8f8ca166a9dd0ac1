"""Command-line interface to the engines: ``python -m games score``, ``arrange`` and ``verify``.

Both commands read JSON Lines on standard input and write JSON Lines on standard output,
in input order, **exactly one output line per input line**, so output line *n* always
answers input line *n*:

* a good line gives the game's response object (``score_request`` / ``arrange_request``
  of the game named by the line's ``"game"`` key, see :mod:`games.engine.registry`);
* a bad line gives ``{"error": "<readable message>", "line": n}`` (``n`` counts from 1)
  and processing goes on with the next line. Bad lines are: invalid UTF-8, invalid JSON
  (the message gives the column), anything but a JSON object, a missing or unknown
  ``"game"``, a game without that command, whatever :class:`EngineError` the game raises,
  and any unexpected exception (reported as ``internal error: ...``, never a traceback);
* a blank (empty or whitespace-only) line is a bad line too ("empty line"): JSON Lines has
  no blank records, and answering it keeps the line correspondence exact. A missing final
  newline is fine.

The exit status is 0 when every line succeeded, 1 when at least one line failed, and 2 for
a usage error (argparse). No Django is imported: this runs anywhere Python 3.11 runs.

``python -m games verify FILE [--heads HEADS]`` checks a hand-history export instead, against the
published chain heads when given (:mod:`games.engine.verify`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any, BinaryIO, TextIO

from games.engine.errors import EngineError
from games.engine.registry import engine_for, game_codes

# command -> name of the function every game that supports it exposes in its package.
COMMANDS: dict[str, str] = {"score": "score_request", "arrange": "arrange_request"}

_JSON_KINDS = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games",
        description="Score and arrange card-game hands. JSON Lines on stdin, one JSON line per input line on stdout.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser(
        "score",
        help="score hands: each line a score request such as "
        '{"game": "thirteen", "seats": [{"cards": [...], "front": [...], "middle": [...], "back": [...]}, ...]}',
    )
    sub.add_parser(
        "arrange",
        help='arrange a hand into rows: {"game": "thirteen", "cards": [13 cards]} '
        'or {"game": "thirteen_trio", "cards": [17 cards], "jackpot": "6h"}',
    )
    verify = sub.add_parser(
        "verify", help="check an exported hand history file (JSON Lines): seeds, deals, scores, coins, hash chain"
    )
    verify.add_argument("file", help="the export to check (- for standard input)")
    verify.add_argument("--partial", action="store_true", help="a filtered extract: allow gaps in each table's chain")
    verify.add_argument(
        "--heads", metavar="HEADS",
        help="the published chain heads (the JSON of /api/history/chains/): every table's chain must be present "
             "and reach its published record")
    return parser


def main(argv: Sequence[str] | None = None, stdin: BinaryIO | None = None, stdout: TextIO | None = None) -> int:
    """Entry point of ``python -m games``; returns the exit status."""
    args = build_parser().parse_args(argv)
    source = stdin if stdin is not None else sys.stdin.buffer
    sink = stdout if stdout is not None else sys.stdout
    if args.command == "verify":
        from games.engine.verify import run

        return run(args.file, sink, partial=args.partial, stdin=source, heads_path=args.heads)
    return run_lines(args.command, source, sink)


def run_lines(command: str, lines: Iterable[bytes], out: TextIO) -> int:
    """Answer every line of ``lines`` on ``out``; 1 if any line failed, else 0."""
    failed = False
    for number, raw in enumerate(lines, start=1):
        text, ok = answer_line(command, raw, number)
        failed = failed or not ok
        out.write(text + "\n")
    out.flush()
    return 1 if failed else 0


def answer_line(command: str, raw: bytes, number: int = 1) -> tuple[str, bool]:
    """The JSON response line for one raw input line and whether it succeeded; never raises."""
    try:
        response = dispatch(command, parse_line(raw, first=number == 1))
        return json.dumps(response, separators=(",", ":"), allow_nan=False), True
    except EngineError as exc:
        message = str(exc)
    except Exception as exc:  # noqa: BLE001 - one bad line must never stop the run
        message = f"internal error: {type(exc).__name__}: {exc}"
    return json.dumps({"error": message, "line": number}, separators=(",", ":")), False


def parse_line(raw: bytes, *, first: bool = False) -> dict[str, Any]:
    """Decode one line into a request object, or raise :class:`EngineError` saying why not."""
    if first and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a UTF-8 byte-order mark some editors put at the start of a file
    raw = raw.rstrip(b"\r\n")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EngineError(f"line is not valid UTF-8 (byte {exc.start + 1})") from exc
    if not text.strip():
        raise EngineError("empty line: expected a JSON object such as {\"game\": \"thirteen\", ...}")
    try:
        request = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EngineError(f"invalid JSON at column {exc.pos + 1}: {exc.msg}") from exc
    if not isinstance(request, dict):
        kind = "null" if request is None else _JSON_KINDS.get(type(request), type(request).__name__)
        raise EngineError(f"expected a JSON object, got {kind}")
    return request


def dispatch(command: str, request: dict[str, Any]) -> dict[str, Any]:
    """Run ``command`` on one request object through the game it names."""
    if "game" not in request:
        raise EngineError(f'missing "game": expected one of {", ".join(game_codes())}')
    engine = engine_for(request["game"])
    function = getattr(engine, COMMANDS[command], None)
    if function is None:
        able = [g for g in game_codes() if _supports(g, command)]
        raise EngineError(f"game {request['game']!r} has no {command}: expected one of {', '.join(able)}")
    response = function(request)
    if not isinstance(response, dict):
        raise TypeError(f"{request['game']}.{COMMANDS[command]} returned {type(response).__name__}, not a dict")
    return response


def _supports(game: str, command: str) -> bool:
    try:
        return hasattr(engine_for(game), COMMANDS[command])
    except EngineError:
        return False
