#!/usr/bin/env bash
# Serve HTTP and WebSockets. Embedded default: one process with an in-process Celery worker.
# With REDIS_URL set: also start three Celery workers as processes of their own (timers and
# auto-play; the sweeper with beat; the background one, at a low CPU priority), all sharing their
# metrics through PROMETHEUS_MULTIPROC_DIR (var/metrics unless set).
set -euo pipefail
host="$1"; port="$2"
cd "$(dirname "$0")/.."
pids=()
# Ctrl-C (or TERM) stops every process started here and exits quietly with status 0: each is
# asked to stop, given 10 s to finish (a Celery worker finishes its task; one still starting
# may miss the first signal), then killed.
stop() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 50); do
    alive=0
    for pid in "${pids[@]}"; do if kill -0 "$pid" 2>/dev/null; then alive=1; fi; done
    [ "$alive" = 0 ] && break
    sleep 0.2
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap 'stop; exit 0' INT TERM
trap stop EXIT
if [ -n "${REDIS_URL:-}" ]; then
  # Several processes share their metrics through files there (README.md "Metrics"); the
  # fleet starts here, so the files of an earlier one go.
  export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-$PWD/var/metrics}"
  mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
  find "$PROMETHEUS_MULTIPROC_DIR" -maxdepth 1 -name '*.db' -delete
  # Timers and auto-play on one worker; the sweeper (with beat) on its own, never behind them.
  (cd platform && exec ../.venv/bin/celery -A config --quiet worker --loglevel WARNING -n timers@%h) &
  pids+=("$!")
  (cd platform && exec ../.venv/bin/celery -A config --quiet worker --beat -Q sweep --concurrency 1 --loglevel WARNING \
    -n sweeper@%h --schedule ../var/celerybeat-schedule) &
  pids+=("$!")
  # The integrity signals' batches: no player waits for them (kernel/background.py).
  (cd platform && exec ../.venv/bin/celery -A config --quiet worker -Q background --concurrency 1 --loglevel WARNING \
    -n background@%h) &
  pids+=("$!")
fi
.venv/bin/uvicorn config.asgi:application --app-dir platform --host "$host" --port "$port" --lifespan off --no-proxy-headers --ws-max-size 1048576 \
  --log-level warning &
pids+=("$!")
wait "${pids[-1]}"
