"""A step never aliases the state it was given (games/engine/protocol.py: functions never mutate
their input; the platform keeps and reuses the states it stores).

``apply``, ``on_deadline`` and ``void`` copy only what a step changes: the state they return
may share with their input only the parts no step changes in place (each engine's step copy
names them: rules, cards dealt, a submission once made...). Everything else — the top level,
the seats, the per-seat lists — is new. Played through whole hands of every game and mode, by
the bots and by timeouts, no state ever changes after it was returned, and neither a view nor
a result shares a container with the state it was made from.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine.registry import games

NOW = 1_700_000_000.0
ANY = object()
#: Per game, where a step's state may share containers with its input (see each ``step_copy``).
SHARED: dict[str, list[tuple[Any, ...]]] = {
    "thirteen": [("rules",), ("client_seeds",), ("seats", ANY, "cards"), ("seats", ANY, "submission")],
    "thirteen_trio": [("rules",), ("seats", ANY, "cards"), ("seats", ANY, "rows")],
    "samgong": [("rules",), ("deck",), ("lots",), ("seats",), ("carry_in",), ("house_bets", ANY),
                ("table_cards",), ("settlement",)],
}
CASES = [(engine, mode) for engine in games() for mode in engine.modes]
IDS = [f"{engine.name}-{mode or 'standard'}" for engine, mode in CASES]


def containers(tree: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    """``(container, path)`` of every dict and list of ``tree``, itself included."""
    if isinstance(tree, dict):
        yield tree, path
        for key, value in tree.items():
            yield from containers(value, (*path, key))
    elif isinstance(tree, list):
        yield tree, path
        for index, value in enumerate(tree):
            yield from containers(value, (*path, index))


def shared(old: Any, new: Any) -> list[tuple[Any, ...]]:
    """The paths in ``new`` of containers that are also in ``old``."""
    before = {id(node) for node, _path in containers(old)}
    return [path for node, path in containers(new) if id(node) in before]


def under(path: tuple[Any, ...], prefix: tuple[Any, ...]) -> bool:
    return len(path) >= len(prefix) and all(p is ANY or p == q for p, q in zip(prefix, path, strict=False))


def check_step(engine: Any, old: dict[str, Any], new: dict[str, Any], before: str) -> None:
    assert repr(old) == before, "the step changed its input"
    assert new is not old
    stray = [path for path in shared(old, new) if not any(under(path, p) for p in SHARED[engine.name])]
    assert stray == [], f"{engine.name}: the new state shares {stray[:3]} with the old one"


class Hand:
    """A hand played step by step, every state kept with how it looked when it was returned."""

    def __init__(self, engine: Any, mode: str, seed: str) -> None:
        self.engine = engine
        rules = engine.stake_rules({"unit": 10_000 if engine.name == "thirteen_trio" else 100,
                                    "commission_percent": 5, "min_buy_in": 3000, "min_table_money": 100,
                                    "mode": mode, "seats": 4, "rules": {}})
        self.n = min(4, engine.player_limits(rules, 4)[1])
        self.state = engine.new_hand(rules=rules, seats=[{"player": str(i), "stack": 10**7} for i in range(self.n)],
                                     carry=None, server_seed=seed, now=NOW)
        self.kept = [(self.state, repr(self.state))]

    def step(self, how: Any) -> None:
        old, before = self.state, repr(self.state)
        new, _events = how(old)
        check_step(self.engine, old, new, before)
        self.state = new
        self.kept.append((new, repr(new)))
        for viewer in [*range(self.n), None]:
            assert shared(new, self.engine.view(new, viewer)) == []
        assert shared(new, self.engine.result(new)) == []

    def timeout(self) -> None:
        self.step(lambda s: self.engine.on_deadline(s, now=self.engine.deadline(s)))

    @property
    def over(self) -> bool:
        return self.engine.result(self.state) is not None

    def unchanged(self) -> bool:
        return all(repr(state) == seen for state, seen in self.kept)


def seed_of(*parts: object) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


@pytest.mark.parametrize(("engine", "mode"), CASES, ids=IDS)
def test_the_bots_moves_never_alias_or_change_an_earlier_state(engine: Any, mode: str) -> None:
    for k in range(3):
        hand, rng = Hand(engine, mode, seed_of(engine.name, mode, k)), random.Random(k)
        while not hand.over:
            e, state = engine, hand.state
            seat = next((s for s in e.awaiting(state) if e.legal_actions(state, s)), None)
            move = None if seat is None else e.bot_move(e.view(state, seat), rng)
            if move is None:
                hand.timeout()
            else:
                hand.step(lambda s, seat=seat, move=move: engine.apply(s, seat, move, now=NOW))
        engine.carry_over(hand.state), engine.record_part(hand.state)
        assert hand.unchanged()


@pytest.mark.parametrize(("engine", "mode"), CASES, ids=IDS)
def test_timeouts_never_alias_or_change_an_earlier_state(engine: Any, mode: str) -> None:
    hand = Hand(engine, mode, seed_of("timeouts", engine.name, mode))
    while not hand.over:
        hand.timeout()
    assert hand.unchanged()


def test_the_trios_presence_moves_and_void_never_alias_or_change_an_earlier_state() -> None:
    trio = next(engine for engine in games() if engine.name == "thirteen_trio")
    hand = Hand(trio, "", seed_of("presence"))
    hand.step(lambda s: trio.apply(s, 1, {"type": "disconnect"}, now=NOW))
    hand.step(lambda s: trio.apply(s, 1, {"type": "reconnect"}, now=NOW))
    hand.step(lambda s: trio.apply(s, 2, {"type": "disconnect", "server_fault": True}, now=NOW))
    hand.step(trio.void)
    assert hand.over and hand.unchanged()


@pytest.mark.parametrize(("engine", "mode"), CASES, ids=IDS)
def test_changing_every_container_a_step_made_leaves_its_input_as_it_was(engine: Any, mode: str) -> None:
    hand = Hand(engine, mode, seed_of("scribble", engine.name, mode))
    while not hand.over:
        old, before = hand.state, repr(hand.state)
        scratch, _events = engine.on_deadline(old, now=engine.deadline(old))
        kept = set(shared(old, scratch))
        for node, path in list(containers(scratch)):
            if path not in kept:
                node.append("x") if isinstance(node, list) else node.update({"\x00x": 1})
        assert repr(old) == before
        hand.timeout()
