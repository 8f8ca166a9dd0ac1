"""The integrity signals' thresholds and schedule (docs/INTEGRITY.md), imported by
``config.settings.base``."""

from __future__ import annotations

import environ

env = environ.Env()

# Welcome coins passed on (integrity.services, docs/INTEGRITY.md "Welcome coins passed on"): an
# account younger than GRANT_FLOW_ACCOUNT_DAYS that was given welcome coins is grant-funded;
# a player is flagged once, within GRANT_FLOW_WINDOW_DAYS, at least GRANT_FLOW_HANDS hands with
# grant-funded players brought them GRANT_FLOW_MIN_COINS net (minor units) and that net is at
# least GRANT_FLOW_ONE_SIDED_PERCENT of the coins that moved between them either way.
GRANT_FLOW_ACCOUNT_DAYS = env.int("GRANT_FLOW_ACCOUNT_DAYS", default=7)
GRANT_FLOW_WINDOW_DAYS = env.int("GRANT_FLOW_WINDOW_DAYS", default=7)
GRANT_FLOW_HANDS = env.int("GRANT_FLOW_HANDS", default=15)
GRANT_FLOW_MIN_COINS = env.int("GRANT_FLOW_MIN_COINS", default=50_000)
GRANT_FLOW_ONE_SIDED_PERCENT = env.int("GRANT_FLOW_ONE_SIDED_PERCENT", default=80)
# The stored signals (integrity/services/signals.py): a batch of at most INTEGRITY_SIGNALS_BATCH
# records every INTEGRITY_SIGNALS_EVERY seconds, each settled at least INTEGRITY_SIGNALS_LAG
# seconds before; a pair is flagged for tables at once when it sat in hands together at
# INTEGRITY_TABLES_AT_ONCE tables within INTEGRITY_AT_ONCE_SECONDS of each other.
INTEGRITY_SIGNALS_EVERY = env.float("INTEGRITY_SIGNALS_EVERY", default=10.0)
INTEGRITY_SIGNALS_LAG = env.int("INTEGRITY_SIGNALS_LAG", default=5)
INTEGRITY_SIGNALS_BATCH = env.int("INTEGRITY_SIGNALS_BATCH", default=500)
INTEGRITY_TABLES_AT_ONCE = env.int("INTEGRITY_TABLES_AT_ONCE", default=2)
INTEGRITY_AT_ONCE_SECONDS = env.int("INTEGRITY_AT_ONCE_SECONDS", default=300)
# A batch waits while the machine is busy (other processes kept at least INTEGRITY_SIGNALS_BUSY_CPU
# of its CPU time busy since the last batch was sent; 0: never waits), unless a record has waited
# INTEGRITY_SIGNALS_MAX_WAIT seconds: live play keeps the cores and the database, and the signals
# catch up as the load drops (docs/INTEGRITY.md "Stored as hands settle").
INTEGRITY_SIGNALS_BUSY_CPU = env.float("INTEGRITY_SIGNALS_BUSY_CPU", default=0.3)
INTEGRITY_SIGNALS_MAX_WAIT = env.int("INTEGRITY_SIGNALS_MAX_WAIT", default=600)
# Work no player waits for (the signals' batches) has a queue of its own, served by a worker that
# runs at a low CPU share (kernel/background.py; README.md "Production processes").
BACKGROUND_QUEUE = env.str("BACKGROUND_QUEUE", default="background")
