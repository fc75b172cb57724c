#!/usr/bin/env bash
# Dai dai shogi perft speed: the start position at depths 4 (and 5 with
# DEEP=1) and a crowded middle-game position from the reference data
# (game-a32-p250, 145 legal moves) at depth 3. Nothing else computes dai dai
# perft at speed; the independent Python implementation behind the reference
# data takes about 468 s for the start position at depth 4.
#
#   RUNS=3        runs of each (median reported)
#   DEEP=1        also the start position at depth 5
#   SKIP_BUILD=1  use the existing target/release/banmen
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${RUNS:-3}"
BIN="$ROOT/target/release/banmen"
[ "${SKIP_BUILD:-0}" = 1 ] || cargo build --release -p banmen --manifest-path "$ROOT/Cargo.toml" >&2

DATA="$ROOT/crates/rules/tests/data/perft-daidai.tsv"
CROWDED=$(awk -F'\t' '$1=="game-a32-p250" {print $2; exit}' "$DATA")

# run NAME SFEN DEPTH EXPECTED: median nodes/s over RUNS, checking the count.
run() {
  local name="$1" sfen="$2" depth="$3" expected="$4" rates=() line nodes
  for _ in $(seq "$RUNS"); do
    if [ -n "$sfen" ]; then
      line=$("$BIN" perft --variant daidaishogi --sfen "$sfen" --depth "$depth" | tail -1)
    else
      line=$("$BIN" perft --variant daidaishogi --depth "$depth" | tail -1)
    fi
    nodes=$(echo "$line" | awk '{print $2}')
    if [ -n "$expected" ] && [ "$nodes" != "$expected" ]; then
      echo "error: $name depth $depth gave $nodes nodes, expected $expected" >&2
      exit 1
    fi
    echo "   $line"
    rates+=("$(echo "$line" | awk '{print $4 " " $6}')")
  done
  printf '%s\n' "${rates[@]}" | sort -n | awk -v n="$name" -v d="$depth" -v nodes="$nodes" \
    '{t[NR]=$1; r[NR]=$2} END {m=int((NR+1)/2); printf "%s depth %d: %s nodes, median %.3f s, %d nodes/s\n", n, d, nodes, t[m], r[m]}'
}

run "start" "" 4 11440526
if [ "${DEEP:-0}" = 1 ]; then
  run "start" "" 5 ""
fi
run "game-a32-p250" "$CROWDED" 3 ""
