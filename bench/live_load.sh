#!/usr/bin/env bash
# Live-play load test in the distributed mode: PostgreSQL + Redis, two ASGI server processes,
# two Celery workers (timers; the sweeper with beat), and the harness's bots
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
# 4 sockets a table at each end (bots and servers), and the database's: raise the soft limit
# of open files to the hard one (at most 65536).
want=65536; hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ]; then want=$hard; fi
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$want" ]; then ulimit -n "$want"; fi
psql -h 127.0.0.1 -U postgres -d postgres -qtAc "SELECT 1 FROM pg_database WHERE datname='$dbname'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $dbname"
redis-cli -u "$REDIS_URL" flushdb >/dev/null
.venv/bin/python manage.py migrate -v0
tmp=$(mktemp -d)
.venv/bin/python bench/proc_cpu.py db --database-url "$DATABASE_URL" --phase before >"$tmp/before.json"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
for port in 8021 8022; do
  .venv/bin/uvicorn config.asgi:application --app-dir platform --host 127.0.0.1 --port $port --lifespan off --no-proxy-headers --ws-max-size 1048576 \
    --log-level warning &
  pids+=("$!")
done
(cd platform && exec ../.venv/bin/celery -A config worker --loglevel WARNING --concurrency 2 -n timers@%h) &
pids+=("$!")
(cd platform && exec ../.venv/bin/celery -A config worker --beat -Q sweep --concurrency 1 --loglevel WARNING \
  -n sweeper@%h --schedule "$(mktemp -d)/beat") &
pids+=("$!")
for port in 8021 8022; do
  for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.5; done
done
args=(--tables "$tables" --hands "$hands" --game "$game" --url ws://127.0.0.1:8021 --url ws://127.0.0.1:8022
      --origin http://127.0.0.1:8021 --procs "${BOT_PROCS:-2}" --ramp "${RAMP:-0}" --json "$tmp/bots.json" --mark "$tmp/mark")
[ -n "$mode" ] && args+=(--mode "$mode")
# Every process's CPU from the bots' start to their end; the redis-server's if it runs here.
cpu=(--out "$tmp/cpu.json" --database-url "$DATABASE_URL" --mark "$tmp/mark"
     --pid "asgi=${pids[0]}" --pid "asgi=${pids[1]}" --pid "timers=${pids[2]}" --pid "sweeper=${pids[3]}")
redis_pid=$(redis-cli -u "$REDIS_URL" info server | tr -d '\r' | sed -n 's/^process_id://p')
[ -n "$redis_pid" ] && [ -e "/proc/$redis_pid" ] && cpu+=(--pid "redis=$redis_pid")
status=0
.venv/bin/python bench/proc_cpu.py run "${cpu[@]}" -- .venv/bin/python -m bench.harness bots "${args[@]}" || status=$?
# Stop the servers and the worker first: a backend reports its session by the time it has ended.
cleanup; pids=(); sleep 2
.venv/bin/python bench/proc_cpu.py db --database-url "$DATABASE_URL" --phase after >"$tmp/after.json"
.venv/bin/python bench/proc_cpu.py report --cpu "$tmp/cpu.json" --before "$tmp/before.json" --after "$tmp/after.json" \
  --bots "$tmp/bots.json" ${LIVE_LOAD_ROW:+--row "$LIVE_LOAD_ROW"}
.venv/bin/python manage.py ledger_check
exit "$status"
