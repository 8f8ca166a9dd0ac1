#!/usr/bin/env bash
# No single account can slow others: bench/live_load.sh's servers, workers and bots, played twice
# in one invocation — quiet, then while bench/noisy_neighbour.py makes noise (one account's 25
# stalled exports, 300 signed-out sockets asking for `sync`, /healthz probed) — and the tables'
# latencies of both runs side by side (bench/README.md "Noisy neighbours").
#
#   bash bench/noisy_neighbour.sh [TABLES] [HANDS]
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-40}; hands=${2:-10}
db=cardtables_noisy
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/$db}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/12}
dbname=${DATABASE_URL##*/}; dbname=${dbname%%\?*}
export GAMES_START_DELAY=1 GAMES_NEXT_HAND_DELAY=1 LOG_LEVEL=WARNING
export DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost
# Two free ports for the servers (others may run servers on this machine).
read -r port1 port2 < <(.venv/bin/python -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
export DJANGO_WS_ALLOWED_ORIGINS=http://127.0.0.1:$port1
export CHANNELS_PREFIX=${CHANNELS_PREFIX:-asgi-$dbname}
want=65536; hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ]; then want=$hard; fi
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$want" ]; then ulimit -n "$want"; fi
psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $dbname WITH (FORCE)"
psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $dbname"
redis-cli -u "$REDIS_URL" flushdb >/dev/null
.venv/bin/python manage.py migrate -v0
tmp=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
for port in $port1 $port2; do
  .venv/bin/uvicorn config.asgi:application --app-dir platform --host 127.0.0.1 --port $port --lifespan off \
    --no-proxy-headers --ws-max-size 1048576 --log-level warning &
  pids+=("$!")
done
(cd platform && exec ../.venv/bin/celery -A config worker --loglevel WARNING --concurrency 2 -n timers@%h) &
pids+=("$!")
(cd platform && exec ../.venv/bin/celery -A config worker --beat -Q sweep --concurrency 1 --loglevel WARNING \
  -n sweeper@%h --schedule "$(mktemp -d)/beat") &
pids+=("$!")
for port in $port1 $port2; do
  for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.5; done
  curl -fs "http://127.0.0.1:$port/healthz" >/dev/null || { echo "the server on port $port did not start"; exit 1; }
done
bots=(.venv/bin/python -m bench.harness bots --tables "$tables" --hands "$hands" --url ws://127.0.0.1:$port1
      --url ws://127.0.0.1:$port2 --origin http://127.0.0.1:$port1 --procs "${BOT_PROCS:-2}" --ramp "${RAMP:-0}")
echo "== quiet: $tables tables, $hands hands each"
"${bots[@]}" --json "$tmp/quiet.json"
echo "== noisy: the same, beside 25 stalled exports, 300 signed-out sockets asking for sync, /healthz probed"
# The noise stands for clients on other machines: here it shares the 2 cores, so it runs at the
# lowest CPU priority (NOISE_NICE, 19) and the figures measure what the noise costs the servers,
# not what the noise client itself burns. NOISE_NICE=0 runs it beside them as an equal.
nice -n "${NOISE_NICE:-19}" .venv/bin/python bench/noisy_neighbour.py noise --mark "$tmp/mark" --out "$tmp/noise.json" --tables "$tables" \
  --http http://127.0.0.1:$port1 --http http://127.0.0.1:$port2 ${NOISE_ARGS:-} &
noise=$!
"${bots[@]}" --json "$tmp/noisy.json" --mark "$tmp/mark"
wait "$noise"
echo "== /healthz after the run: $(curl -s http://127.0.0.1:$port1/healthz)"
echo "== the tables' action-to-broadcast latency"
.venv/bin/python bench/noisy_neighbour.py report "$tmp/quiet.json" "$tmp/noisy.json" "$tmp/noise.json"
cleanup; pids=()
.venv/bin/python manage.py ledger_check
