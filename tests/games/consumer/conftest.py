"""The live-play fixtures (funded players, tables, a fresh connection pool per test), and
consumer settings for tests that send many frames."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.games.live.conftest import _fresh_connection_pool, funded, table_for  # noqa: F401


@pytest.fixture
def fast_socket(settings: Any) -> Any:
    """No per-connection rate limit in the way of a test that sends hundreds of frames."""
    settings.GAMES_WS_RATE = 10_000.0
    settings.GAMES_WS_BURST = 10_000
    return settings


@pytest.fixture(autouse=True)
def _own_limit_counts(settings: Any) -> None:
    """Per-user counts are keyed by user id, and a fresh test database reuses ids: each test
    counts under a prefix of its own (in Redis they outlive the test run)."""
    settings.GAMES_LIMITS_PREFIX = f"test:{uuid.uuid4().hex}"
