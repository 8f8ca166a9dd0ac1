# The distributed mode's processes for a load run, sourced by bench/live_load.sh and
# bench/noisy_neighbour.sh (run from the repository root, with DATABASE_URL and REDIS_URL set):
#
#   open_files_raise          the soft limit of open files up to the hard one (at most 65536):
#                             4 sockets a table at each end (bots and servers), and the database's
#   fleet_start PORT PORT     two uvicorn servers, the timers' worker, the sweeper's with beat and
#                             the background one, their pids appended to `pids` (asgi, asgi,
#                             timers, sweeper, background); returns once both servers answer
#                             /healthz, fails if one does not
#   fleet_stop                kills them (also on exit: the caller sets `trap fleet_stop EXIT`)

pids=()

open_files_raise() {
  local want=65536 hard
  hard=$(ulimit -Hn)
  if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ]; then want=$hard; fi
  if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$want" ]; then ulimit -n "$want"; fi
}

fleet_start() {
  local port
  for port in "$@"; do
    .venv/bin/uvicorn config.asgi:application --app-dir platform --host 127.0.0.1 --port "$port" --lifespan off \
      --no-proxy-headers --ws-max-size 1048576 --log-level warning &
    pids+=("$!")
  done
  (cd platform && exec ../.venv/bin/celery -A config worker --loglevel WARNING --concurrency 2 -n timers@%h) &
  pids+=("$!")
  (cd platform && exec ../.venv/bin/celery -A config worker --beat -Q sweep --concurrency 1 --loglevel WARNING \
    -n sweeper@%h --schedule "$(mktemp -d)/beat") &
  pids+=("$!")
  (cd platform && exec ../.venv/bin/celery -A config worker -Q background --concurrency 1 --loglevel WARNING \
    -n background@%h) &
  pids+=("$!")
  for port in "$@"; do
    for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.5; done
    curl -fs "http://127.0.0.1:$port/healthz" >/dev/null || { echo "the server on port $port did not start"; return 1; }
  done
}

fleet_stop() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
}
