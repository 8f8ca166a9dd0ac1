#!/usr/bin/env bash
# Crash recovery, proved: `python -m bench.harness chaos` starts the distributed mode on its own
# PostgreSQL cluster (port 55432) and redis-server (port 6390), runs bots at tables across every
# game, and kills and restarts an ASGI server, the Celery worker, PostgreSQL or Redis at random moments;
# then checks every hand and the ledger (bench/README.md "Chaos"). Exit status 1 on any failure.
#
#   bash bench/chaos.sh [MINUTES] [TABLES] [AT_LEAST_EACH] [extra options of python -m bench.harness chaos]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}; tables=${2:-6}; each=${3:-5}
shift $(( $# < 3 ? $# : 3 ))
export DATABASE_URL=postgres://postgres@127.0.0.1:${CHAOS_PG_PORT:-55432}/chaos
export REDIS_URL=redis://127.0.0.1:${CHAOS_REDIS_PORT:-6390}/0
export DATABASE_POOL=false  # the command's own reads (the platform's processes pool theirs)
exec .venv/bin/python -m bench.harness chaos --minutes "$minutes" --tables "$tables" --at-least "$each" "$@"
