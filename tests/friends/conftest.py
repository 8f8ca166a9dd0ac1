"""The friends tests' fresh start: no request window left by another test's player of the same id
(the embedded mode's windows live in the process, unprefixed)."""

from __future__ import annotations

import pytest

from games.services import limits


@pytest.fixture(autouse=True)
def _fresh_windows() -> None:
    store = limits._store()
    if isinstance(store, limits._Local):
        with store.lock:
            store.windows.clear()
