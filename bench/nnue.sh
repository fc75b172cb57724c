#!/usr/bin/env bash
# Reproduces a shipped network (crates/engine/nets/VARIANT.nnue): selfplay
# data played with the linear evaluation, then `banmen train-nnue`. The
# selfplay file of a seed is the same on every machine and thread count, and
# the training is deterministic for a given --threads, so the net comes out
# byte for byte (the `about` text records the command and commit).
#
# Usage: bench/nnue.sh VARIANT [DIR]     (default bench/out/nnue-VARIANT)
#   VARIANT  shogi or cannonshogi (the games that ship a net)
# Settings (environment variables):
#   GAMES    selfplay games (default 12800: what the shipped nets used)
#   THREADS  selfplay threads (default 2)
# Time on the 2-core machines:
#   shogi        selfplay about 270 positions/s per thread (about 75
#                thread-minutes for 1.1M positions); training about 2 minutes
#   cannonshogi  selfplay about 150 positions/s with both threads (52 minutes
#                for 465,179 positions: its games are short); training 40 s
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VARIANT="${1:?usage: bench/nnue.sh shogi|cannonshogi [DIR]}"
case "$VARIANT" in
  shogi) SEED=15 EPOCHS=6 ;;
  cannonshogi) SEED=16 EPOCHS=12 ;;
  *) echo "bench/nnue.sh: no shipped net for '$VARIANT'" >&2; exit 2 ;;
esac
DIR="${2:-bench/out/nnue-$VARIANT}"
GAMES="${GAMES:-12800}"
THREADS="${THREADS:-2}"
mkdir -p "$DIR"
cargo build --release -p banmen
B=target/release/banmen
"$B" selfplay --variant "$VARIANT" --games "$GAMES" --nodes 5000 --seed "$SEED" --no-net \
  --threads "$THREADS" --out "$DIR/$VARIANT-n5k.txt"
"$B" train-nnue --variant "$VARIANT" --data "$DIR/$VARIANT-n5k.txt" --out "$DIR/$VARIANT.nnue" \
  --residual --hidden 64 --buckets 1 --learning-rate 0.0003 --epochs "$EPOCHS" --threads 1 --seed 1
echo "net: $DIR/$VARIANT.nnue (compare with crates/engine/nets/$VARIANT.nnue)"
