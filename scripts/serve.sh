#!/usr/bin/env bash
# Serve HTTP and WebSockets. Embedded default: one process with an in-process Celery worker.
# With REDIS_URL set: also start two Celery workers as processes of their own (timers and
# auto-play; the sweeper with beat), all sharing their metrics through PROMETHEUS_MULTIPROC_DIR
# (var/metrics unless set).
set -euo pipefail
host="$1"; port="$2"
cd "$(dirname "$0")/.."
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM
if [ -n "${REDIS_URL:-}" ]; then
  # Several processes share their metrics through files there (README.md "Metrics"); the
  # fleet starts here, so the files of an earlier one go.
  export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-$PWD/var/metrics}"
  mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
  find "$PROMETHEUS_MULTIPROC_DIR" -maxdepth 1 -name '*.db' -delete
  # Timers and auto-play on one worker; the sweeper (with beat) on its own, never behind them.
  (cd platform && exec ../.venv/bin/celery -A config worker --loglevel WARNING -n timers@%h) &
  pids+=("$!")
  (cd platform && exec ../.venv/bin/celery -A config worker --beat -Q sweep --concurrency 1 --loglevel WARNING \
    -n sweeper@%h --schedule ../var/celerybeat-schedule) &
  pids+=("$!")
fi
.venv/bin/uvicorn config.asgi:application --app-dir platform --host "$host" --port "$port" --lifespan off --no-proxy-headers --ws-max-size 1048576 &
pids+=("$!")
wait "${pids[-1]}"
