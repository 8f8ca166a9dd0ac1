"""The solver's side of the hint button, run in worker processes (``games.services.hints``).

Pure Python on the engines only: a worker process imports this module and the engine of the
game, never Django, so it starts fast and holds nothing of the server.
"""

from __future__ import annotations

from typing import Any

from games.engine.registry import engine_for


def warm() -> bool:
    """Load the solver once, so that the first real hint does not pay for it."""
    import games.engine.solver  # noqa: F401

    return True


def suggest(game: str, state: dict[str, Any], seat: int, k: int) -> list[dict[str, Any]]:
    """The engine's ``suggestions`` for ``seat`` (docs/ARCHITECTURE.md "The state machine")."""
    eng = engine_for(game)
    if not eng.legal_actions(state, seat):
        return []
    return list(eng.suggestions(state, seat, k))
