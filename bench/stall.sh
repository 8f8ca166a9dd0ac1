#!/usr/bin/env bash
# The stall hunt (bench/README.md "Stalls"): RUNS short runs of TABLES tables x HANDS hands under
# random conditions, on its own PostgreSQL cluster (stall, port 55434), redis-server (6392) and
# servers (8041, 8042); stops at the first stall with a dump. Extra options go to the command:
#
#   bash bench/stall.sh RUNS [TABLES] [HANDS] [--no-client-sync] [--seed N] [--game all] [--margin S] ...
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:?usage: bash bench/stall.sh RUNS [TABLES] [HANDS] [options]}; shift
tables=20; hands=10
if [[ ${1:-} =~ ^[0-9]+$ ]]; then tables=$1; shift; fi
if [[ ${1:-} =~ ^[0-9]+$ ]]; then hands=$1; shift; fi
export DATABASE_URL=${STALL_DATABASE_URL:-postgres://postgres@127.0.0.1:55434/stall}
export REDIS_URL=${STALL_REDIS_URL:-redis://127.0.0.1:6392/0}
exec .venv/bin/python -m bench.harness stall_hunt --runs "$runs" --tables "$tables" --hands "$hands" --ports 8041,8042 "$@"
