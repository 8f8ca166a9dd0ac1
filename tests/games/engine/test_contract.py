"""Every registered game is one plug-in: its package's ``plugin`` is a games/engine/protocol.py
``GameEngine``.

Nothing here names a game: a fourth one added to the registry is held to the same contract —
every member present with the contract's signature, labels that are translated, a table
template, and hooks that behave on a fresh hand played to settlement in every mode. The
checks take the plug-in as an argument, so a game registered by a test (tests/games/toy_game)
runs them too.
"""

from __future__ import annotations

import doctest
import hashlib
import importlib
import inspect
import random
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polib
import pytest

from games.engine.deck import commitment
from games.engine.defaults import AWAY_OUTCOMES, AWAY_SIT_OUT, AWAY_STAND_UP, AWAY_STAY
from games.engine.protocol import REQUIRED_DATA, GameEngine, StakeTerms, Voidable
from games.engine.record import player_copy, record_body
from games.engine.registry import GAMES, engine_for, game_codes, games

REPO = Path(__file__).resolve().parents[3]
CATALOGUES = [REPO / "locale" / lang / "LC_MESSAGES" / "django.po" for lang in ("zh_Hans", "zh_Hant")]
DATA = {"name": str, "label": str, "modes": Mapping, "page": str, "presence_matters": bool,
        "void_on_outage": bool, "hidden_cards": int, "text_fields": tuple, "glyph": str, "blurb": str,
        "stake_word": str, "move_terms": Mapping, "phases": Mapping}
NOW = 1_700_000_000.0
RICH = 10**7

ENGINES = games()
CASES = [(engine, mode) for engine in ENGINES for mode in engine.modes]


def ids(engine: Any) -> str:
    return str(engine.name)


def members(contract: type) -> list[str]:
    """Every member of the contract: the data a game must state and every member with a default."""
    return sorted({n for n in vars(contract) if not n.startswith("_")} | set(REQUIRED_DATA))


def page_template(engine: Any) -> Path:
    """The game's table page: in the project's templates, or in a ``templates`` folder of the
    plug-in's own package (a game kept outside the product, tests/games/toy_game)."""
    name = Path("tables") / f"table_{engine.page}.html"
    folders = (REPO / "templates", Path(inspect.getfile(type(engine))).parent / "templates")
    return next((folder / name for folder in folders if (folder / name).is_file()), REPO / "templates" / name)


def translated_msgids() -> list[set[str]]:
    return [{e.msgid for e in polib.pofile(str(po)) if e.msgstr and not e.obsolete} for po in CATALOGUES]


def test_the_registry_lists_every_game_once_in_order() -> None:
    assert len(set(GAMES)) == len(GAMES) and [e.name for e in ENGINES] == list(GAMES) == list(game_codes())
    assert all(engine_for(game) is engine for game, engine in zip(GAMES, ENGINES, strict=True))


def test_a_plugin_states_only_what_differs_from_the_defaults() -> None:
    """The trio-only members (sets, presence, outage voids) and the display members most games
    share have defaults: a game without them leaves them out."""
    required = {n for n in members(GameEngine) if getattr(getattr(GameEngine, n, None), "__isabstractmethod__", False)}
    optional = {"presence_matters", "void_on_outage", "carry_for", "set_running", "carry_after_removal",
                "set_progress", "leave_terms", "deal_lines", "table_lines", "seat_roles", "move_terms", "modes",
                "phases", "suggestions", "start_problems", "house_lines", "stake_rules"}
    assert not required & optional and optional <= set(members(GameEngine))
    assert not hasattr(GameEngine, "void") and not hasattr(GameEngine, "hand_label")


@pytest.mark.parametrize(
    "module", ["games.engine.defaults", "games.engine.labels", "games.engine.registry", "games.engine.protocol",
               *[type(engine).__module__ for engine in ENGINES]],
)
def test_the_worked_examples_of_the_registry_and_the_hooks_hold(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("engine", ENGINES, ids=ids)
def test_the_package_has_every_member_of_the_protocol(engine: Any) -> None:
    assert isinstance(engine, GameEngine)
    for name in members(GameEngine):
        value = getattr(engine, name)
        if name in DATA:
            assert isinstance(value, DATA[name]), name
            continue
        assert callable(value), name
        wanted = [p for p in inspect.signature(getattr(GameEngine, name)).parameters.values() if p.name != "self"]
        got = list(inspect.signature(value).parameters.values())
        assert [(p.name, p.kind) for p in got[: len(wanted)]] == [(p.name, p.kind) for p in wanted], name
        assert all(p.default is not inspect.Parameter.empty for p in got[len(wanted):]), name
    if engine.void_on_outage:
        assert isinstance(engine, Voidable) and callable(engine.void)


@pytest.mark.parametrize("engine", ENGINES, ids=ids)
def test_labels_are_set_translated_and_the_page_exists(engine: Any) -> None:
    labels = [engine.label, engine.blurb, *engine.modes.values(), *engine.phases.values()]
    assert engine.glyph and engine.stake_word in ("unit", "base")
    assert engine.modes and all(isinstance(label, str) and label.strip() for label in labels)
    assert all(isinstance(code, str) for code in engine.modes)
    for msgids in translated_msgids():
        assert set(labels) <= msgids
    assert page_template(engine).is_file()
    assert engine.hidden_cards > 0 and all(isinstance(f, str) for f in engine.text_fields)


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs xgettext (GNU gettext)")
def test_makemessages_extracts_the_labels_from_the_engines(tmp_path: Path) -> None:
    sources = sorted(str(p.relative_to(REPO)) for p in (REPO / "games" / "engine").rglob("*.py"))
    out = tmp_path / "engine.pot"
    subprocess.run(["xgettext", "--language=Python", "--from-code=UTF-8", "--keyword=gettext_noop",
                    "--output", str(out), *sources], cwd=REPO, check=True)
    extracted = {e.msgid for e in polib.pofile(str(out))}
    for engine in ENGINES:  # a game outside games/engine is extracted by manage.py makemessages
        assert {engine.label, engine.blurb, *engine.modes.values(), *engine.phases.values()} <= extracted


def terms_for(mode: str) -> StakeTerms:
    """A stake level any game can be dealt at: unit 1.00 coin, 5 % commission, minimums in units."""
    return {"unit": 100, "commission_percent": 5, "min_buy_in": 3000, "min_table_money": 100, "mode": mode,
            "seats": 6, "rules": {}}


def play(engine: Any, rules: dict[str, Any], n: int, carry: dict[str, Any] | None, seed: str) -> tuple[Any, list]:
    """One hand to settlement: each seat with something to do plays the bot's move (checked
    against the engine), else the phase times out. The seats the phase waits on include every
    seat that may act, and nobody once the hand is settled."""
    rng, actions = random.Random(seed), []
    state = engine.new_hand(rules=rules, seats=[{"player": f"p{i}", "stack": RICH} for i in range(n)],
                            carry=carry, server_seed=seed, now=NOW)
    for _ in range(200):
        awaited = engine.awaiting(state)
        assert awaited == sorted(set(awaited)) and all(0 <= s < n for s in awaited)
        if engine.result(state) is not None:
            assert awaited == []
            return state, actions
        assert {s for s in range(n) if engine.legal_actions(state, s)} <= set(awaited)
        seat = next((s for s in range(n) if engine.legal_actions(state, s)), None)
        assert seat is None or state["phase"] in engine.phases, state["phase"]
        move = None if seat is None else engine.bot_move(engine.view(state, seat), rng)
        if seat is not None and move is not None:
            assert isinstance(engine.suggestions(state, seat), list)
            state, _events = engine.apply(state, seat, move, now=NOW)
            actions.append({"seat": seat, "auto": False, "action": move})
        else:
            state, events = engine.on_deadline(state, now=engine.deadline(state))
            actions += [{"seat": e.get("seat"), "auto": True, "action": e} for e in events if e.get("auto")]
    raise AssertionError("the hand did not settle")


def record(engine: Any, state: dict[str, Any], actions: list, seed: str, lines: dict[str, int]) -> dict[str, Any]:
    n = len(state["seats"])
    return record_body(
        game=engine.name, hand={"id": 1, "table": 1, "number": 1}, state=state, result=engine.result(state),
        players=[{"seat": i, "table_seat": i, "user": i + 1, "name": f"P{i}"} for i in range(n)],
        fairness={"commitment": commitment(seed), "server_seed": seed, "client_seeds": []},
        actions=[{**a, "seq": i + 1, "at": "2026-01-01T00:00:00+00:00"} for i, a in enumerate(actions)],
        house_lines=lines, ledger_transaction=None, chain={"seq": 1, "prev": None},
    )


@pytest.mark.parametrize(("engine", "mode"), CASES, ids=[f"{e.name}-{m or 'standard'}" for e, m in CASES])
def test_the_hooks_behave_on_a_fresh_hand(engine: Any, mode: str) -> None:
    terms = terms_for(mode)
    rules = engine.stake_rules(terms)
    assert isinstance(rules, dict) and engine.stake_rules({**terms, "rules": {"x": 1}})["x"] == 1
    low, high = engine.player_limits(rules, terms["seats"])
    assert 1 <= low <= high <= terms["seats"]
    assert engine.start_problems(rules, [RICH] * high, None, terms["min_table_money"]) == []
    problems = engine.start_problems(rules, [0] + [RICH] * (high - 1), None, terms["min_table_money"])
    assert [p["seat"] for p in problems] == [0] and set(problems[0]) == {"seat", "reason", "stack", "minimum"}

    seed = hashlib.sha256(f"{engine.name}/{mode}".encode()).hexdigest()
    state, actions = play(engine, rules, high, None, seed)
    result = engine.result(state)
    lines = engine.house_lines(result)
    assert all(isinstance(v, int) and v for v in lines.values())
    assert sum(result["coins"]) + sum(lines.values()) == 0

    users = list(range(1, high + 1))
    saved = {"engine": engine.carry_over(state), "players": users}
    carry = engine.carry_for(saved, users)
    assert carry == (saved["engine"] or None) and engine.carry_for(None, users) is None  # nothing kept: a fresh start
    assert isinstance(engine.set_running(saved, users[0]), bool) and engine.set_running(None, users[0]) is False
    assert isinstance(engine.carry_after_removal(dict(saved)), dict)
    for user in users:  # away: dealt in only while bound to a running set; between sets out
        outcome = engine.away_outcome(saved, user)
        assert outcome in AWAY_OUTCOMES and (outcome == AWAY_STAY) == engine.set_running(saved, user)
    assert engine.away_outcome(None, users[0]) in (AWAY_SIT_OUT, AWAY_STAND_UP)
    play(engine, rules, high, carry, seed[::-1])  # the carry-over deals the next hand

    rec = record(engine, state, actions, seed, lines)
    assert isinstance(engine.record_part(state), dict)
    assert engine.check_deal(rec) == [] and engine.check_score(rec) == []
    assert all(isinstance(f, str) for f in engine.redact(dict(rec), 0))
    assert player_copy(rec, 0)["view"]["seat"] == 0
    assert isinstance(engine.text_variant(rec), str) and engine.text_variant(rec)
    assert all(isinstance(line, str) for line in engine.deal_lines(rec) + engine.table_lines(rec))
    commissions = engine.seat_commissions(rec)
    assert len(commissions) == high and all(isinstance(c, int) and c >= 0 for c in commissions)
    assert sum(commissions) == result["commission"] == lines.get("commission", 0)
    roles = [role for i in range(high) for role in engine.seat_roles(rec, i)]
    for msgids in translated_msgids():
        assert set(roles) <= msgids


@pytest.mark.parametrize("engine", [e for e in ENGINES if e.void_on_outage], ids=ids)
def test_a_voidable_hand_voids_to_zero(engine: Any) -> None:
    mode = next(iter(engine.modes))
    rules = engine.stake_rules(terms_for(mode))
    n = engine.player_limits(rules, 6)[1]
    state = engine.new_hand(rules=rules, seats=[{"player": f"p{i}", "stack": RICH} for i in range(n)], carry=None,
                            server_seed="ab" * 32, now=NOW)
    voided, _events = engine.void(state)
    result = engine.result(voided)
    assert result["coins"] == [0] * n and engine.house_lines(result) == {}
