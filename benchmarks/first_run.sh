#!/bin/bash
# A newcomer's first `make run`, timed: a fresh clone of this checkout's HEAD in a temporary folder, no pip or uv
# package cache, its own data folder, the database stopped with the command. Prints the seconds; asserts nothing.
# Run: bash benchmarks/first_run.sh
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git clone --quiet "$here" "$scratch/memfix"
cd "$scratch/memfix"
export PIP_NO_CACHE_DIR=1 UV_CACHE_DIR="$scratch/uv-cache" MEMFIX_DATA_DIR="$scratch/data" MEMFIX_DB_IDLE_SECONDS=0
start=$(date +%s.%N)
make run > "$scratch/run.log" 2>&1
code=$?
end=$(date +%s.%N)
[ $code -eq 0 ] || tail -20 "$scratch/run.log"
echo "first run: make run on a fresh clone took $(echo "$end - $start" | bc) s (exit $code)"
