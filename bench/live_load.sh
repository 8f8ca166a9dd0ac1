#!/usr/bin/env bash
# Live-play load test in the distributed mode: PostgreSQL + Redis, two ASGI server processes,
# one Celery worker with beat, and `manage.py bots` playing over the real WebSocket protocol
# (bots at a table alternate between the two servers). Ends with `ledger_check`.
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
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
for port in 8021 8022; do
  .venv/bin/uvicorn config.asgi:application --app-dir platform --host 127.0.0.1 --port $port --lifespan off --no-proxy-headers --ws-max-size 65536 \
    --log-level warning &
  pids+=("$!")
done
(cd platform && exec ../.venv/bin/celery -A config worker --beat --loglevel WARNING --concurrency 2 \
  --schedule "$(mktemp -d)/beat") &
pids+=("$!")
for port in 8021 8022; do
  for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.5; done
done
args=(--tables "$tables" --hands "$hands" --game "$game" --url ws://127.0.0.1:8021 --url ws://127.0.0.1:8022
      --origin http://127.0.0.1:8021)
[ -n "$mode" ] && args+=(--mode "$mode")
.venv/bin/python manage.py bots "${args[@]}"
.venv/bin/python manage.py ledger_check
