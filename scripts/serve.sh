#!/usr/bin/env bash
# Serve HTTP and WebSockets. Embedded default: one process with an in-process Celery worker.
# With REDIS_URL set: also start a Celery worker (with beat) as its own process.
set -euo pipefail
host="$1"; port="$2"
cd "$(dirname "$0")/.."
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM
if [ -n "${REDIS_URL:-}" ]; then
  (cd platform && exec ../.venv/bin/celery -A config worker --beat --loglevel WARNING) &
  pids+=("$!")
fi
.venv/bin/uvicorn config.asgi:application --app-dir platform --host "$host" --port "$port" --lifespan off --no-proxy-headers --ws-max-size 65536 &
pids+=("$!")
wait "${pids[-1]}"
