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
export DATABASE_URL=postgres://postgres@127.0.0.1:${CHAOS_PG_PORT:-55432}/chaos
export REDIS_URL=redis://127.0.0.1:${CHAOS_REDIS_PORT:-6390}/0
export DATABASE_POOL=false
exec .venv/bin/python manage.py chaos --faults none --minutes "$minutes" --tables "$tables" --sample-every 300
