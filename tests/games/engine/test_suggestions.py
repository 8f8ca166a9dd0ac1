"""The hint button: every suggestion is distinct and is a move the engine accepts."""

from __future__ import annotations

import pytest

from games.engine import thirteen, thirteen_trio
from games.engine.deck import commitment

SEEDS = [f"{i:02x}" * 32 for i in range(12)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("engine", "players", "rules"), [(thirteen.plugin, 4, {"unit": 100}), (thirteen_trio.plugin, 3, {"base": 100})])
def test_suggestions_are_distinct_legal_moves(engine, players, rules, seed):
    state = engine.new_hand(
        rules=rules, seats=[{"player": str(i), "stack": 10**7} for i in range(players)], carry=None,
        server_seed=seed, now=0.0,
    )
    assert commitment(seed) == state["commitment"]
    hints = engine.suggestions(state, 0)
    assert 1 <= len(hints) <= 3
    assert len({repr(sorted(h.items())) for h in hints}) == len(hints)
    for hint in hints:
        after, _events = engine.apply(state, 0, hint, now=1.0)
        assert not engine.legal_actions(after, 0)  # submitted
    assert hints[0] == engine.auto_action(state, 0) or hints[0]["type"] == "declare"
    done, _ = engine.apply(state, 0, hints[0], now=1.0)
    assert engine.suggestions(done, 0) == []
