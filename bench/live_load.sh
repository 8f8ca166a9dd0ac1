#!/usr/bin/env bash
# Live-play load test in the distributed mode: PostgreSQL + Redis, two ASGI server processes,
# two Celery workers (timers; the sweeper with beat), and `manage.py bots` playing over the real WebSocket protocol
# (bots at a table alternate between the two servers). Prints the PostgreSQL connections the run
# opened (pg_stat_database.sessions, from before the servers start to after they stop) per 100
# ended hands, then ends with `ledger_check`.
#
#   bash bench/live_load.sh [TABLES] [HANDS] [GAME] [MODE]
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-20}; hands=${2:-20}; game=${3:-thirteen}; mode=${4:-}
db=cardtables_load
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/$db}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/11}
export GAMES_START_DELAY=1 GAMES_NEXT_HAND_DELAY=1 LOG_LEVEL=WARNING
export DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost
# The bots present the first server's origin to both servers: the second must accept it too.
export DJANGO_WS_ALLOWED_ORIGINS=http://127.0.0.1:8021
psql -h 127.0.0.1 -U postgres -d postgres -qtAc "SELECT 1 FROM pg_database WHERE datname='$db'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $db"
redis-cli -u "$REDIS_URL" flushdb >/dev/null
.venv/bin/python manage.py migrate -v0
dbname=${DATABASE_URL##*/}; dbname=${dbname%%\?*}
# Read from the postgres database, so the reading itself is not a session of the run's database.
pg() { psql "${DATABASE_URL%/*}/postgres" -qtAc "$1"; }
sessions() { pg "SELECT sessions FROM pg_stat_database WHERE datname = '$dbname'"; }
ended() { psql "$DATABASE_URL" -qtAc "SELECT count(*) FROM games_hand WHERE status <> 'active'"; }
hands_before=$(ended); sleep 1; sessions_before=$(sessions)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
for port in 8021 8022; do
  .venv/bin/uvicorn config.asgi:application --app-dir platform --host 127.0.0.1 --port $port --lifespan off --no-proxy-headers --ws-max-size 65536 \
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
      --origin http://127.0.0.1:8021)
[ -n "$mode" ] && args+=(--mode "$mode")
status=0
.venv/bin/python manage.py bots "${args[@]}" || status=$?
# Stop the servers and the worker first: a backend reports its session by the time it has ended.
cleanup; pids=(); sleep 2
opened=$(( $(sessions) - sessions_before )); hands_run=$(( $(ended) - hands_before ))
per100=$(awk -v n="$opened" -v h="$hands_run" 'BEGIN { if (h) printf "%.1f", 100 * n / h; else printf "-" }')
echo "PostgreSQL connections opened: $opened ($per100 per 100 hands; $hands_run hands ended)"
.venv/bin/python manage.py ledger_check
exit "$status"
