#!/usr/bin/env bash
# Live play, this checkout against another revision (bench/README.md "Live play"): for each
# round, bench/live_load.sh at each table count of SERIES on a checkout of REV (side A, a git
# worktree that shares this checkout's .venv, so REV must run on the same requirements) and on
# this checkout (side B), alternated A B, B A, ..., each run on a fresh database; then
# bench/ab_compare.py prints each figure's medians and B ÷ A, paired by round.
#
#   bash bench/ab.sh REV [ROUNDS] [SERIES] [HANDS]     # defaults: 4 rounds, 40,100 tables, 30 hands
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: bash bench/ab.sh REV [ROUNDS] [SERIES] [HANDS]}
rounds=${2:-4}; series=${3:-40,100}; hands=${4:-30}
server=${AB_POSTGRES:-postgres://postgres@127.0.0.1:5432}
here=$PWD
other=$(mktemp -d)/checkout
out=$(mktemp -d)
git worktree add --detach -q "$other" "$rev"
ln -s "$here/.venv" "$other/.venv"
trap 'git worktree remove --force "$other"; echo "runs and rows: $out"' EXIT

run() {  # SIDE DIR ROUND
  local side=$1 dir=$2 r=$3 db="ab_$1" n
  for n in ${series//,/ }; do
    psql "$server/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
    echo "== $(date +%T) round $r, side $side ($dir): $n tables"
    (cd "$dir" && DATABASE_URL="$server/$db" LIVE_LOAD_ROW="$out/r${r}_${side}_$n.json" \
       bash bench/live_load.sh "$n" "$hands") >"$out/r${r}_${side}_$n.log" 2>&1 \
      || echo "   failed: $out/r${r}_${side}_$n.log"
  done
}

for r in $(seq "$rounds"); do
  if (( r % 2 )); then run a "$other" "$r"; run b "$here" "$r"; else run b "$here" "$r"; run a "$other" "$r"; fi
done
.venv/bin/python bench/ab_compare.py "$out"
