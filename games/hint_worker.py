"""The solver's side of the hint button, run in worker processes (``games.services.hints``).

Pure Python on the engines only: a worker process imports this module and the engine of the
game, never Django, so it starts fast and holds nothing of the server.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from games.engine.registry import engine_for


def start(parent: int) -> None:
    """A worker's initializer: exit as soon as the server that started it is gone (a server
    killed, or stopped without shutting its pool down, must not leave solvers behind)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def warm() -> bool:
    """Load the solver once, so that the first real hint does not pay for it."""
    import games.engine.solver  # noqa: F401  # the import is the work: in the pool's process, at its start

    return True


def suggest(game: str, state: dict[str, Any], seat: int, k: int) -> list[dict[str, Any]]:
    """The engine's ``suggestions`` for ``seat`` (docs/ARCHITECTURE.md "The state machine")."""
    eng = engine_for(game)
    if not eng.legal_actions(state, seat):
        return []
    return list(eng.suggestions(state, seat, k))
