#!/usr/bin/env bash
# Reproduces the shipped cannon shogi network (crates/engine/nets/cannonshogi.nnue):
# selfplay data played with the linear evaluation, then `banmen train-nnue`.
# The selfplay file of a seed is the same on every machine and thread count,
# and the training is deterministic for a given --threads, so the net comes
# out byte for byte (the `about` text records the command and commit).
#
# Usage: bench/nnue-cannonshogi.sh [DIR]     (default bench/out/nnue-cannonshogi)
# Settings (environment variables):
#   GAMES    selfplay games (default 12800: what the shipped net used)
#   THREADS  selfplay threads (default 2)
# Time on the 2-core machines: selfplay about 150 positions/s with both
# threads (52 minutes for the 465,179 positions of 12,800 games; cannon
# shogi games are short); training about 40 s.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIR="${1:-bench/out/nnue-cannonshogi}"
GAMES="${GAMES:-12800}"
THREADS="${THREADS:-2}"
mkdir -p "$DIR"
cargo build --release -p banmen
B=target/release/banmen
"$B" selfplay --variant cannonshogi --games "$GAMES" --nodes 5000 --seed 16 --no-net \
  --threads "$THREADS" --out "$DIR/cannon-n5k.txt"
"$B" train-nnue --variant cannonshogi --data "$DIR/cannon-n5k.txt" --out "$DIR/cannonshogi.nnue" \
  --residual --hidden 64 --buckets 1 --learning-rate 0.0003 --epochs 12 --threads 1 --seed 1
echo "net: $DIR/cannonshogi.nnue (compare with crates/engine/nets/cannonshogi.nnue)"
