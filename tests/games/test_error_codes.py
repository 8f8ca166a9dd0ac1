"""One language at a time: every message of every error code a player can be sent, rendered in
English, 简体 and 繁體 with the placeholders filled as the platform fills them, is wholly in that
language; and the registry (games/error_codes.py) lists every code and message the sockets and
services raise."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games.error_codes import ERRORS, PARAMETERS, PROTOCOL_WORDS
from tables import ui_strings
from wallet.errors import BelowMinimumBuyIn, InsufficientFunds

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z_]+")
PLACEHOLDER = re.compile(r"%\((\w+)\)")
#: Where the messages of error frames are raised or sent.
SOURCES = [
    "games/consumers.py", "games/protocol.py", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games/services").glob("*.py")),
    "platform/tables/consumers.py", "platform/tables/rooms.py", "platform/responsible/services.py",
]
#: Error classes of those files and the code each carries unless given one.
CLASSES = {"PlayError": "refused", "TableFull": "table_full", "NotSeated": "not_seated", "NoActiveHand": "no_hand",
           "RateLimited": "rate_limited", "TalkRefused": "bad_message", "TalkTooFast": "rate_limited",
           "LimitRefused": "loss_limit", "BadMessage": "bad_message", "RoomError": "room_refused"}
MESSAGES = [(code, msgid) for code, msgids in ERRORS.items() for msgid in msgids]
#: Codes the table's socket never sends (the lobby's socket, the rooms' pages), so the table page
#: has no words of its own for them.
LOBBY_ONLY = frozenset({"read_only", "no_room", "room_removed", "no_level", "too_many_rooms"})


def render(msgid: str, language: str) -> str:
    with translation.override(language):
        text = gettext(msgid)
    names = PLACEHOLDER.findall(msgid)
    return text % {name: PARAMETERS[name] for name in names} if names else text


@pytest.mark.parametrize(("code", "msgid"), MESSAGES, ids=[f"{c}:{m[:30]}" for c, m in MESSAGES])
def test_every_error_message_is_in_one_language(code: str, msgid: str) -> None:
    english = render(msgid, "en")
    assert not CJK.search(english), (code, english)
    for language in ("zh-hans", "zh-hant"):
        chinese = render(msgid, language)
        assert CJK.search(chinese), (code, language, chinese)
        words = set(LATIN_WORD.findall(chinese)) - PROTOCOL_WORDS
        assert words == set(), (code, language, chinese)


@pytest.mark.parametrize(("code", "msgid"), MESSAGES, ids=[f"{c}:{m[:30]}" for c, m in MESSAGES])
def test_every_error_message_is_one_message_the_page_shows_as_it_is(code: str, msgid: str) -> None:
    """The table page shows a refusal's message alone (static/js/ct-table.js ``showError``): one
    line in every language, never the page's own words for the code beside it, and a page string
    for the code where the page has no message of the server's (no answer, no connection)."""
    for language in ("en", "zh-hans", "zh-hant"):
        text = render(msgid, language)
        assert "\n" not in text and text == text.strip(), (code, language, text)
        if code in LOBBY_ONLY:
            continue
        with translation.override(language):
            own = str(ui_strings.TABLE[f"err_{code}"])
        assert own not in text or own == text, (code, language, text)


def test_the_refusals_write_their_coins_as_the_pages_do() -> None:
    """Coins in a refusal have two decimals and their thousands grouped (wallet/money.py
    ``format_coins``), as the wallet and history pages write them."""
    for language in ("en", "zh-hans", "zh-hant"):
        with translation.override(language):
            short = InsufficientFunds(balance=300_400, needs=9_999_900).localized()
            low = BelowMinimumBuyIn(amount=500, minimum=150_000).localized()
        assert "3,004.00" in short and "99,999.00" in short, short
        assert "5.00" in low and "1,500.00" in low, low
        assert "\n" not in short + low


def test_the_two_chinese_scripts_differ_where_the_characters_do() -> None:
    assert render("This table is closed.", "zh-hans") != render("This table is closed.", "zh-hant")


def _msgids(node: ast.AST) -> Iterator[str]:
    for call in ast.walk(node):
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in ("_", "gettext")
                and call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
            yield call.args[0].value


def _raised(path: Path) -> Iterator[tuple[str, str]]:
    """(code, message id) of every error raised or sent in a source file with a literal message."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            code: object = None
            if name == "_error" and len(node.args) >= 3 and isinstance(node.args[1], ast.Constant):
                code = node.args[1].value
            elif name in CLASSES:
                given = [k.value for k in node.keywords if k.arg == "code"]
                code = given[0].value if given and isinstance(given[0], ast.Constant) else CLASSES[name]
                if given and not isinstance(given[0], ast.Constant):
                    continue  # a code passed on from another error (the wallet's): listed under its own
            if code is not None:
                for msgid in _msgids(node):
                    yield str(code), msgid
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple) and node.value.elts
              and isinstance(node.value.elts[0], ast.Constant)):
            for msgid in _msgids(node.value):
                yield str(node.value.elts[0].value), msgid


def test_the_registry_lists_every_code_and_message_the_platform_raises() -> None:
    raised = {pair for source in SOURCES for pair in _raised(ROOT / source)}
    assert len(raised) > 30  # the scan finds them
    assert {code for code, _ in raised} - set(ERRORS) == set()
    missing = {(code, msgid) for code, msgid in raised if msgid not in ERRORS[code]}
    assert missing == set()


def test_the_protocol_lists_every_code() -> None:
    protocol = (ROOT / "docs" / "PROTOCOL.md").read_text()
    assert [code for code in ERRORS if f"`{code}`" not in protocol] == []
