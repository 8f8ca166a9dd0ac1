#!/usr/bin/env bash
# Live-play load test in the distributed mode: PostgreSQL + Redis, two ASGI server processes,
# three Celery workers (timers; the sweeper with beat; the background one), and the harness's bots
# (`python -m bench.harness bots`, bench/harness/) playing over the real WebSocket protocol
# (bots at a table alternate between the two servers; the tables split between BOT_PROCS bot
# processes, default 2). Prints the bots' figures, then (bench/proc_cpu.py) the PostgreSQL
# connections the run opened (pg_stat_database.sessions, from before the servers start to after
# they stop) per 100 ended hands, the actions and the transactions per action, and the CPU time
# per action of each kind of process over the play; ends with `ledger_check`.
# `--series` runs it once per table count and ends with one table row per run.
#
#   bash bench/live_load.sh [TABLES] [HANDS] [GAME] [MODE]
#   bash bench/live_load.sh --series 5,20,40,100 [HANDS] [GAME] [MODE]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --series ]; then
  counts=${2:?usage: bash bench/live_load.sh --series 5,20,40 [HANDS] [GAME] [MODE]}; shift 2
  rows_dir=$(mktemp -d); rows=(); status=0
  for n in ${counts//,/ }; do
    echo "== live_load.sh $n $*"
    rows+=("$rows_dir/$n.json")
    LIVE_LOAD_ROW="$rows_dir/$n.json" bash bench/live_load.sh "$n" "$@" || status=$?
    echo
  done
  .venv/bin/python bench/proc_cpu.py series "${rows[@]}"
  exit "$status"
fi
tables=${1:-20}; hands=${2:-20}; game=${3:-thirteen}; mode=${4:-}
db=cardtables_load
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/$db}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/11}
dbname=${DATABASE_URL##*/}; dbname=${dbname%%\?*}
export GAMES_START_DELAY=1 GAMES_NEXT_HAND_DELAY=1 LOG_LEVEL=WARNING
export DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost
# The bots present the first server's origin to both servers: the second must accept it too.
export DJANGO_WS_ALLOWED_ORIGINS=http://127.0.0.1:8021
# Pub/sub channels are not per Redis database: a run beside another on the same redis-server
# must not hear its groups.
export CHANNELS_PREFIX=${CHANNELS_PREFIX:-asgi-$dbname}
source bench/fleet.sh
open_files_raise
psql -h 127.0.0.1 -U postgres -d postgres -qtAc "SELECT 1 FROM pg_database WHERE datname='$dbname'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $dbname"
redis-cli -u "$REDIS_URL" flushdb >/dev/null
.venv/bin/python manage.py migrate -v0
tmp=$(mktemp -d)
.venv/bin/python bench/proc_cpu.py db --database-url "$DATABASE_URL" --phase before >"$tmp/before.json"
trap fleet_stop EXIT
fleet_start 8021 8022
args=(--tables "$tables" --hands "$hands" --game "$game" --url ws://127.0.0.1:8021 --url ws://127.0.0.1:8022
      --origin http://127.0.0.1:8021 --procs "${BOT_PROCS:-2}" --ramp "${RAMP:-0}" --json "$tmp/bots.json" --mark "$tmp/mark")
[ -n "$mode" ] && args+=(--mode "$mode")
# Every process's CPU from the bots' start to their end; the redis-server's if it runs here.
cpu=(--out "$tmp/cpu.json" --database-url "$DATABASE_URL" --mark "$tmp/mark"
     --pid "asgi=${pids[0]}" --pid "asgi=${pids[1]}" --pid "timers=${pids[2]}" --pid "sweeper=${pids[3]}"
     --pid "background=${pids[4]}")
redis_pid=$(redis-cli -u "$REDIS_URL" info server | tr -d '\r' | sed -n 's/^process_id://p')
[ -n "$redis_pid" ] && [ -e "/proc/$redis_pid" ] && cpu+=(--pid "redis=$redis_pid")
status=0
.venv/bin/python bench/proc_cpu.py run "${cpu[@]}" -- .venv/bin/python -m bench.harness bots "${args[@]}" || status=$?
# Stop the servers and the worker first: a backend reports its session by the time it has ended.
fleet_stop; sleep 2
.venv/bin/python bench/proc_cpu.py db --database-url "$DATABASE_URL" --phase after >"$tmp/after.json"
.venv/bin/python bench/proc_cpu.py report --cpu "$tmp/cpu.json" --before "$tmp/before.json" --after "$tmp/after.json" \
  --bots "$tmp/bots.json" ${LIVE_LOAD_ROW:+--row "$LIVE_LOAD_ROW"}
.venv/bin/python manage.py ledger_check
exit "$status"
