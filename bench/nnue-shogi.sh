#!/usr/bin/env bash
# Reproduces the shipped standard shogi network (crates/engine/nets/shogi.nnue):
# selfplay data played with the linear evaluation, then `banmen train-nnue`.
# The selfplay file of a seed is the same on every machine and thread count,
# and the training is deterministic for a given --threads, so the net comes
# out byte for byte (the `about` text records the command and commit).
#
# Usage: bench/nnue-shogi.sh [DIR]     (default bench/out/nnue-shogi)
# Settings (environment variables):
#   GAMES    selfplay games (default 12800: what the shipped net used)
#   THREADS  selfplay threads (default 2)
# Time on the 2-core machines: selfplay about 270 positions/s per thread
# (about 75 thread-minutes for 1.1M positions); training about 2 minutes.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIR="${1:-bench/out/nnue-shogi}"
GAMES="${GAMES:-12800}"
THREADS="${THREADS:-2}"
mkdir -p "$DIR"
cargo build --release -p banmen
B=target/release/banmen
"$B" selfplay --variant shogi --games "$GAMES" --nodes 5000 --seed 15 --no-net \
  --threads "$THREADS" --out "$DIR/shogi-n5k.txt"
"$B" train-nnue --variant shogi --data "$DIR/shogi-n5k.txt" --out "$DIR/shogi.nnue" \
  --residual --hidden 64 --buckets 1 --learning-rate 0.0003 --epochs 6 --threads 1 --seed 1
echo "net: $DIR/shogi.nnue (compare with crates/engine/nets/shogi.nnue)"
