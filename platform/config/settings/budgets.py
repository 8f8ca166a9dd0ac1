"""Budgets that keep one account, or one kind of request, from slowing everyone else
(docs/OPERATIONS.md "Budgets"), and what ``/healthz`` expects of the workers.

Imported by ``config.settings.base``, which gives :func:`exports_database` its default database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import environ

env = environ.Env()
# Imported before the base settings read the project's .env: read it here too (never overwriting
# the environment), so a budget set there counts.
environ.Env.read_env(Path(__file__).resolve().parents[3] / ".env", overwrite=False)

# --- Hand-history exports (history/exports/budget.py) ----------------------------------------
# Exports read through a database alias of their own, never the pool live play uses.
EXPORTS_DATABASE = "exports"
EXPORTS_DB_CONNECTIONS = env.int("EXPORTS_DB_CONNECTIONS", default=2)  # the alias's pool, per process
EXPORTS_PER_USER = env.int("EXPORTS_PER_USER", default=1)  # exports of one account running at once
EXPORTS_RUNNING_MAX = env.int("EXPORTS_RUNNING_MAX", default=4)  # exports running at once, every server together
EXPORTS_TIME_LIMIT = env.int("EXPORTS_TIME_LIMIT", default=600)  # seconds; a longer one is cut off

# --- Table sockets and hints per player (docs/PROTOCOL.md "Limits") ---------------------------
GAMES_WS_RATE = env.float("GAMES_WS_RATE", default=10.0)  # messages per second per connection
GAMES_WS_BURST = env.int("GAMES_WS_BURST", default=20)
# Per-user limits (docs/PROTOCOL.md "Limits"); GAMES_ABUSE_LIMITS off is for benchmarks only.
GAMES_ABUSE_LIMITS = env.bool("GAMES_ABUSE_LIMITS", default=True)
GAMES_LIMITS_PREFIX = env.str("GAMES_LIMITS_PREFIX", default="ct:limits")  # Redis key prefix
GAMES_WS_CONNECTIONS_PER_USER = env.int("GAMES_WS_CONNECTIONS_PER_USER", default=6)  # open table sockets
GAMES_WS_SLOT_TTL = env.float("GAMES_WS_SLOT_TTL", default=30.0)  # a silent or lost socket stops counting
GAMES_HINT_LIMIT = env.int("GAMES_HINT_LIMIT", default=5)  # hints per user per window (cached repeats free)
GAMES_HINT_WINDOW = env.int("GAMES_HINT_WINDOW", default=10)  # seconds
GAMES_HINT_WORKERS = env.int("GAMES_HINT_WORKERS", default=1)  # solver processes per server
GAMES_HINT_QUEUE = env.int("GAMES_HINT_QUEUE", default=8)  # hints waiting for the solver, per server
GAMES_HINT_TIMEOUT = env.float("GAMES_HINT_TIMEOUT", default=10.0)
GAMES_HINT_CACHE_SECONDS = env.int("GAMES_HINT_CACHE_SECONDS", default=300)  # 0: every hint is solved
GAMES_TALK_LIMIT = env.int("GAMES_TALK_LIMIT", default=3)  # table talk: phrases and emotes per user per window
GAMES_TALK_WINDOW = env.int("GAMES_TALK_WINDOW", default=10)  # seconds

# --- Signed-out spectators' table sockets (games/consumers.py) -------------------------------
GAMES_WS_CONNECTIONS_PER_ADDRESS = env.int("GAMES_WS_CONNECTIONS_PER_ADDRESS", default=8)  # signed out
GAMES_WS_ANON_RATE = env.float("GAMES_WS_ANON_RATE", default=1.0)  # messages per second per connection
GAMES_WS_ANON_BURST = env.int("GAMES_WS_ANON_BURST", default=4)
# An address told it is past its limit is refused without a frame this long (seconds, per server).
GAMES_WS_REFUSAL_QUIET = env.float("GAMES_WS_REFUSAL_QUIET", default=10.0)
# Such an address the gate found full is refused without reading its count again this long
# (seconds, per server; 0: read at every handshake).
GAMES_WS_FULL_REMEMBER = env.float("GAMES_WS_FULL_REMEMBER", default=1.0)

# --- /healthz (config/health.py) -------------------------------------------------------------
HEALTHZ_CACHE_SECONDS = env.float("HEALTHZ_CACHE_SECONDS", default=2.0)  # checks reused this long
HEALTHZ_WORKER_SILENCE = env.int("HEALTHZ_WORKER_SILENCE", default=30)  # a worker unheard this long is missing
HEALTHZ_HEARTBEAT_EVERY = env.float("HEALTHZ_HEARTBEAT_EVERY", default=10.0)  # the timers worker's ping


def exports_database(default: dict[str, Any]) -> dict[str, Any]:
    """The exports' alias: the default database with a small pool of its own (PostgreSQL), and
    the default's test database in tests."""
    alias = {**default, "OPTIONS": dict(default.get("OPTIONS", {})), "TEST": {"MIRROR": "default"}}
    if "pool" in alias["OPTIONS"]:
        alias["OPTIONS"]["pool"] = {"min_size": 0, "max_size": EXPORTS_DB_CONNECTIONS, "timeout": 5}
    return alias
