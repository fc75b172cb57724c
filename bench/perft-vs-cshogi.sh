#!/usr/bin/env bash
# Perft speed of banmen against cshogi, from the standard start position.
#
# Runs cshogi's bulk perft (bench/cshogi_perft.py) and `banmen perft`, each
# RUNS times, checks every node count against the known value, and prints the
# median nodes/s of each and the ratio banmen/cshogi. See bench/README.md.
#
# Settings (environment variables):
#   CSHOGI_DEPTH  depth for cshogi (default 5; QUICK=1 makes it 4)
#   BANMEN_DEPTH  depth for banmen (default 6; QUICK=1 makes it 5)
#   RUNS          runs of each (default 3; QUICK=1 makes it 1)
#   QUICK=1       the quick settings above (an explicit setting still wins)
#   PYTHON        interpreter that creates the venv (default python3)
#   VENV          the venv (default bench/.venv)
#   CSHOGI_SPEC   what pip installs (default "cshogi")
#   SKIP_BUILD=1  use the existing target/release/banmen
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"

if [ "${QUICK:-0}" = 1 ]; then
  CSHOGI_DEPTH="${CSHOGI_DEPTH:-4}"
  BANMEN_DEPTH="${BANMEN_DEPTH:-5}"
  RUNS="${RUNS:-1}"
fi
CSHOGI_DEPTH="${CSHOGI_DEPTH:-5}"
BANMEN_DEPTH="${BANMEN_DEPTH:-6}"
RUNS="${RUNS:-3}"
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-$BENCH_DIR/.venv}"
CSHOGI_SPEC="${CSHOGI_SPEC:-cshogi}"

# Known leaf counts of the start position (tests/data/perft-standard.tsv).
expected_nodes() {
  case "$1" in
    0) echo 1 ;;
    1) echo 30 ;;
    2) echo 900 ;;
    3) echo 25470 ;;
    4) echo 719731 ;;
    5) echo 19861490 ;;
    6) echo 547581517 ;;
    *) echo "" ;;
  esac
}

for v in CSHOGI_DEPTH BANMEN_DEPTH RUNS; do
  case "${!v}" in
    '' | *[!0-9]*) echo "error: $v must be a whole number, got '${!v}'" >&2; exit 2 ;;
  esac
done
if [ "$RUNS" -lt 1 ]; then
  echo "error: RUNS must be at least 1" >&2
  exit 2
fi

log() { echo "== $*" >&2; }

# 1. A venv with cshogi.
VPY="$VENV/bin/python"
if [ ! -x "$VPY" ]; then
  log "creating venv $VENV"
  if ! "$PYTHON" -m venv "$VENV"; then
    echo "error: '$PYTHON -m venv' failed (on Debian/Ubuntu: apt-get install python3-venv)" >&2
    exit 1
  fi
fi
if ! "$VPY" -c 'import cshogi' >/dev/null 2>&1; then
  log "installing $CSHOGI_SPEC into $VENV"
  "$VPY" -m pip install --quiet --disable-pip-version-check "$CSHOGI_SPEC"
fi
CSHOGI_VERSION="$("$VPY" -m pip show cshogi 2>/dev/null | sed -n 's/^Version: //p')"

# 2. banmen, release build; run_one and median.
# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"
CSHOGI_NPS=()
BANMEN_NPS=()
for i in $(seq 1 "$RUNS"); do
  log "run $i of $RUNS"
  CSHOGI_NPS+=("$(run_one cshogi "$CSHOGI_DEPTH" "$VPY" "$BENCH_DIR/cshogi_perft.py" --depth "$CSHOGI_DEPTH")")
  BANMEN_NPS+=("$(run_one banmen "$BANMEN_DEPTH" "$BANMEN" perft --variant shogi --depth "$BANMEN_DEPTH")")
done

C_MED="$(printf '%s\n' "${CSHOGI_NPS[@]}" | median)"
B_MED="$(printf '%s\n' "${BANMEN_NPS[@]}" | median)"
RATIO="$(awk -v b="$B_MED" -v c="$C_MED" 'BEGIN { if (c > 0) printf "%.2f", b / c; else print "n/a" }')"

echo "cshogi ${CSHOGI_VERSION:-?} perft $CSHOGI_DEPTH: median $C_MED nodes/s over $RUNS run(s) (${CSHOGI_NPS[*]})"
echo "banmen perft $BANMEN_DEPTH: median $B_MED nodes/s over $RUNS run(s) (${BANMEN_NPS[*]})"
echo "ratio banmen/cshogi: $RATIO"
