#!/usr/bin/env bash
# No single account can slow others: bench/live_load.sh's servers, workers and bots, played in
# alternate rounds in one invocation — quiet, then while bench/noisy_neighbour.py makes noise (one
# account's 25 stalled exports, 300 signed-out sockets asking for `sync`, /healthz probed) — and
# the tables' latencies of both kinds of run side by side (bench/README.md "Noisy neighbours").
#
#   [ROUNDS=2] bash bench/noisy_neighbour.sh [TABLES] [HANDS]
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
source bench/fleet.sh
open_files_raise
psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $dbname WITH (FORCE)"
psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $dbname"
redis-cli -u "$REDIS_URL" flushdb >/dev/null
.venv/bin/python manage.py migrate -v0
tmp=$(mktemp -d)
trap fleet_stop EXIT
fleet_start "$port1" "$port2"
bots=(.venv/bin/python -m bench.harness bots --tables "$tables" --hands "$hands" --url ws://127.0.0.1:$port1
      --url ws://127.0.0.1:$port2 --origin http://127.0.0.1:$port1 --procs "${BOT_PROCS:-2}" --ramp "${RAMP:-0}")
# The servers' CPU while the bots play, each run (bench/proc_cpu.py): what the noise costs them.
servers=(--database-url "$DATABASE_URL" --pid "asgi=${pids[0]}" --pid "asgi=${pids[1]}")
# Quiet and noisy alternate, ROUNDS times (default 2): what drifts through the invocation (a
# database that grows) falls on both kinds of run alike.
quiet_files=(); noisy_files=(); noise_files=(); quiet_cpu=(); noisy_cpu=()
for round in $(seq 1 "${ROUNDS:-2}"); do
  echo "== round $round, quiet: $tables tables, $hands hands each"
  .venv/bin/python bench/proc_cpu.py run --out "$tmp/quiet_cpu_$round.json" --mark "$tmp/mark" "${servers[@]}" -- \
    "${bots[@]}" --json "$tmp/quiet_$round.json" --mark "$tmp/mark"
  echo "== round $round, noisy: the same, beside 25 stalled exports, 300 signed-out sockets asking for sync, /healthz probed"
  # The noise stands for clients on other machines: here it shares the 2 cores, so it runs at the
  # lowest CPU priority (NOISE_NICE, 19) and the figures measure what the noise costs the servers,
  # not what the noise client itself burns. NOISE_NICE=0 runs it beside them as an equal.
  nice -n "${NOISE_NICE:-19}" .venv/bin/python bench/noisy_neighbour.py noise --mark "$tmp/mark" \
    --out "$tmp/noise_$round.json" --tables "$tables" --http http://127.0.0.1:$port1 --http http://127.0.0.1:$port2 \
    ${NOISE_ARGS:-} &
  noise=$!
  .venv/bin/python bench/proc_cpu.py run --out "$tmp/noisy_cpu_$round.json" --mark "$tmp/mark" "${servers[@]}" -- \
    "${bots[@]}" --json "$tmp/noisy_$round.json" --mark "$tmp/mark"
  wait "$noise"
  quiet_files+=("$tmp/quiet_$round.json"); noisy_files+=("$tmp/noisy_$round.json"); noise_files+=("$tmp/noise_$round.json")
  quiet_cpu+=("$tmp/quiet_cpu_$round.json"); noisy_cpu+=("$tmp/noisy_cpu_$round.json")
done
echo "== /healthz after the run: $(curl -s http://127.0.0.1:$port1/healthz)"
echo "== the tables' action-to-broadcast latency"
.venv/bin/python bench/noisy_neighbour.py report --quiet "${quiet_files[@]}" --noisy "${noisy_files[@]}" \
  --noise "${noise_files[@]}" --quiet-cpu "${quiet_cpu[@]}" --noisy-cpu "${noisy_cpu[@]}"
fleet_stop
.venv/bin/python manage.py ledger_check
