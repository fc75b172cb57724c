#!/usr/bin/env bash
# Stability: banmen plays itself with `banmen match` in all three games and
# the script fails if any game ended in an illegal move, a crash, a time
# forfeit (a hang: no bestmove within the time plus the margin) or a refused
# declaration. See bench/README.md.
#
# Each pair of games starts from a random opening of OPENING_PLIES legal
# moves (drawn with `banmen show`, seeded by SEED), so the games differ even
# at a fixed depth.
#
# Settings (environment variables):
#   GAMES          games per game type (default 100)
#   VARIANTS       which games (default "shogi cannonshogi daidaishogi")
#   TC             time control for shogi and cannon shogi (default movetime=50)
#   DAIDAI_TC      time control for dai dai shogi (default depth=2)
#   MAX_PLIES      draw after this many plies (default 512)
#   OPENING_PLIES  random plies before each pair of games (default 4; 0 = start position)
#   SEED           random seed for the openings (default 1)
#   CONCURRENCY    games at the same time (default 1)
#   OUT            where the records go (default bench/out/stability-<time>)
#   SKIP_BUILD=1   use the existing target/release/banmen
#   BANMEN         the banmen binary to run (default target/release/banmen; e.g. a
#                  copy, so a rebuild during a long run does not change it)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
GAMES="${GAMES:-100}"
VARIANTS="${VARIANTS:-shogi cannonshogi daidaishogi}"
TC="${TC:-movetime=50}"
DAIDAI_TC="${DAIDAI_TC:-depth=2}"
MAX_PLIES="${MAX_PLIES:-512}"
OPENING_PLIES="${OPENING_PLIES:-4}"
SEED="${SEED:-1}"
CONCURRENCY="${CONCURRENCY:-1}"
OUT="${OUT:-bench/out/stability-$(date -u +%Y%m%d-%H%M%S)}"
BANMEN="${BANMEN:-target/release/banmen}"

log() { echo "== $*" >&2; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  log "cargo build --release -p banmen"
  cargo build --release -p banmen >&2
fi
mkdir -p "$OUT"

# Writes GAMES/2 (rounded up) openings for variant $1 to file $2.
make_openings() {
  local variant="$1" file="$2" pairs=$(((GAMES + 1) / 2)) i p moves legal move
  RANDOM=$SEED
  : >"$file"
  for ((i = 0; i < pairs; i++)); do
    moves=""
    for ((p = 0; p < OPENING_PLIES; p++)); do
      legal="$("$BANMEN" show --variant "$variant" ${moves:+--moves "$moves"} |
        sed -n 's/^legal moves ([0-9]*): //p')"
      [ -n "$legal" ] || break
      read -r -a arr <<<"$legal"
      move="${arr[RANDOM % ${#arr[@]}]}"
      moves="${moves:+$moves }$move"
    done
    if [ -n "$moves" ]; then
      echo "startpos moves $moves" >>"$file"
    else
      echo "startpos" >>"$file"
    fi
  done
}

failed=0
for variant in $VARIANTS; do
  tc="$TC"
  [ "$variant" = daidaishogi ] && tc="$DAIDAI_TC"
  dir="$OUT/$variant"
  mkdir -p "$dir"
  openings="$dir/openings.txt"
  make_openings "$variant" "$openings"
  log "$variant: $GAMES games at $tc (records in $dir)"
  start=$(date +%s)
  set +e
  "$BANMEN" match --engine "$BANMEN usi" --engine "$BANMEN usi" \
    --variant "$variant" --games "$GAMES" --tc "$tc" --max-plies "$MAX_PLIES" \
    --openings "$openings" --concurrency "$CONCURRENCY" --out "$dir" | tee "$dir/summary.out"
  rc=${PIPESTATUS[0]}
  set -e
  log "$variant: $(($(date +%s) - start)) s"
  if [ "$rc" != 0 ]; then
    echo "FAIL $variant: banmen match exited with $rc" >&2
    failed=1
    continue
  fi
  problems="$(grep '^Problems' "$dir/summary.out" || true)"
  bad=0
  for kind in illegal-move crash time-forfeit bad-declaration; do
    n="$(printf '%s\n' "$problems" | sed -n "s/.*$kind \([0-9]*\) .*/\1/p")"
    if [ "${n:-x}" != 0 ]; then
      bad=1
      echo "FAIL $variant: $kind ${n:-?}" >&2
    fi
  done
  if [ "$bad" = 1 ]; then
    failed=1
    grep -l -E '^# reason: (illegal-move|crash|time-forfeit|bad-declaration)' "$dir"/game-*.txt >&2 || true
  else
    log "$variant: no illegal move, crash or hang in $GAMES games"
  fi
done

if [ "$failed" = 1 ]; then
  echo "stability: FAILED (records in $OUT)" >&2
  exit 1
fi
echo "stability: OK ($GAMES games each of: $VARIANTS; records in $OUT)"
