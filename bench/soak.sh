#!/usr/bin/env bash
# The soak: the chaos run's processes with no faults, TABLES tables for MINUTES minutes. Prints
# the servers' and the worker's RSS, open PostgreSQL connections and Redis clients at the start,
# every 5 minutes and at the end, then errors, hands, ledger_check and the checks
# (bench/README.md "Soak").
#
#   bash bench/soak.sh [TABLES] [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-20}; minutes=${2:-30}
# Its own cluster and redis-server (not the chaos run's), so both may run at once.
export DATABASE_URL=postgres://postgres@127.0.0.1:${SOAK_PG_PORT:-55433}/soak
export REDIS_URL=redis://127.0.0.1:${SOAK_REDIS_PORT:-6391}/0
export DATABASE_POOL=false
exec .venv/bin/python -m bench.harness chaos --faults none --minutes "$minutes" --tables "$tables" --sample-every 300 \
  --ports 8041,8042
