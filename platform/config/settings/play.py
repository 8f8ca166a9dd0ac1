"""Live play's settings (docs/PROTOCOL.md, docs/RULES.md): timers, presence, limits of the
sockets and the sweeper. Imported by ``config.settings.base``, after it has read the project's
.env."""

from __future__ import annotations

import environ

env = environ.Env()

GAMES_TIMERS = env.bool("GAMES_TIMERS", default=True)  # schedule Celery timer tasks
GAMES_START_DELAY = env.float("GAMES_START_DELAY", default=3.0)  # seconds before a first deal
GAMES_NEXT_HAND_DELAY = env.float("GAMES_NEXT_HAND_DELAY", default=12.0)  # showdown pause
GAMES_PRESENCE_TIMEOUT = env.int("GAMES_PRESENCE_TIMEOUT", default=20)  # heartbeats every 5 s
# How often the table page pings (seconds): its heartbeat and its connection strength's round
# trip (docs/PROTOCOL.md "Connection strength"); well under GAMES_PRESENCE_TIMEOUT.
GAMES_PING_EVERY = env.float("GAMES_PING_EVERY", default=5.0)
# a seat sitting out (or away) this long is stood up, its table money back in the wallet
GAMES_AWAY_STAND_UP_AFTER = env.int("GAMES_AWAY_STAND_UP_AFTER", default=300)
# Private rooms (docs/RULES.md "Private rooms"): a room without a seat this long closes itself
# (the sweeper), and a player may own this many open rooms at once.
ROOMS_CLOSE_EMPTY_AFTER = env.int("ROOMS_CLOSE_EMPTY_AFTER", default=600)
ROOMS_PER_OWNER = env.int("ROOMS_PER_OWNER", default=3)
ROOMS_INVITES_PER_MINUTE = env.int("ROOMS_INVITES_PER_MINUTE", default=10)  # a player's invitations
GAMES_OUTAGE_AFTER = env.int("GAMES_OUTAGE_AFTER", default=20)  # sweeper silent this long = outage
# The watchdog acts on a phase, deal or broadcast this late (games/services/watchdog.py).
GAMES_SWEEP_GRACE = env.float("GAMES_SWEEP_GRACE", default=2.0)
GAMES_WATCHDOG_VOID_AFTER = env.int("GAMES_WATCHDOG_VOID_AFTER", default=3)  # failed sweeps, then void
GAMES_SWEEP_EVERY = env.float("GAMES_SWEEP_EVERY", default=3.0)
GAMES_DB_THREADS = env.int("GAMES_DB_THREADS", default=4)  # a server's threads for database work (kernel/db_threads.py)
GAMES_DB_SEAT_THREADS = env.int("GAMES_DB_SEAT_THREADS", default=1)  # and for seat changes, beside those
GAMES_CLIENT_ID_RETENTION = env.int("GAMES_CLIENT_ID_RETENTION", default=7 * 24 * 3600)  # spent ids kept
# The sweeper has a queue of its own, served by a worker of its own (README.md "Production
# processes"), so the watchdog never waits behind a backlog of timers; a sweep that waited past
# its next one is dropped, not run late.
GAMES_SWEEP_QUEUE = env.str("GAMES_SWEEP_QUEUE", default="sweep")
