#!/usr/bin/env bash
# Dai dai shogi conversion: can a banmen build finish a won game? From each
# position of bench/dd/won-at-400.tsv (ply 400 of drawn games, banmen's side
# ahead by 1500 cp or more), the build plays the side that leads against
# banmen-2026-12-01 until mate or the ply limit. Prints each game's result
# and how many were decided; a quicker signal than a whole match, since the
# games of a match that reach 800 plies are mostly won games left unfinished.
#
# Usage: bench/dd-convert.sh BANMEN [OUT]
# Settings (environment variables):
#   TC           time control for both (default movetime=100)
#   BUILD_TC     the build's own time control (default TC): with it, a run
#                can ask how far more thinking time alone would go
#   MAX_PLIES    the ply limit (default 700: 300 plies to finish)
#   CONCURRENCY  games at the same time (default 2)
#   POSITIONS    the positions file (default bench/dd/won-at-400.tsv)
#   ANCHORS      the anchors' folder (default ../shared/anchors/bin)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BANMEN="$(realpath "${1:?usage: bench/dd-convert.sh BANMEN [OUT]}")"
OUT="${2:-$ROOT/bench/out/dd-convert-$(date -u +%Y%m%d-%H%M%S)}"
TC="${TC:-movetime=100}"
BUILD_TC="${BUILD_TC:-$TC}"
MAX_PLIES="${MAX_PLIES:-700}"
CONCURRENCY="${CONCURRENCY:-2}"
POSITIONS="${POSITIONS:-$ROOT/bench/dd/won-at-400.tsv}"
BASELINE="${ANCHORS:-$ROOT/../shared/anchors/bin}/banmen-2026-12-01"
[ -x "$BASELINE" ] || { echo "error: $BASELINE not found" >&2; exit 1; }
mkdir -p "$OUT"
: > "$OUT/results.txt"
echo "== dai dai conversion: $BANMEN at $BUILD_TC against $BASELINE at $TC to $MAX_PLIES plies, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# One position: the build plays the leading colour (engine 1 plays Black).
convert() {
  local name score side line dir first second result tc1 tc2
  IFS=$'\t' read -r name score side line <<< "$1"
  dir="$OUT/${name//\//-}"
  mkdir -p "$dir"
  echo "$line" > "$dir/opening.txt"
  if [ "$side" = b ]; then
    first="$BANMEN usi"; second="$BASELINE usi"; tc1="$BUILD_TC"; tc2="$TC"
  else
    first="$BASELINE usi"; second="$BANMEN usi"; tc1="$TC"; tc2="$BUILD_TC"
  fi
  "$BANMEN" match --engine "$first" --engine "$second" --variant daidaishogi \
    --tc "$tc1" --tc "$tc2" --games 1 --openings "$dir/opening.txt" --max-plies "$MAX_PLIES" \
    --option USI_Hash=64 --option Threads=1 --out "$dir/games" > "$dir/summary.txt" 2>&1 || true
  result="$(grep -h '^# result\|^# reason\|^# plies' "$dir/games/game-0001.txt" 2>/dev/null \
    | cut -d' ' -f3- | tr '\n' ' ')"
  echo "$name $side $score ${result:-no game}" >> "$OUT/results.txt"
}
export -f convert
export OUT BANMEN BASELINE TC BUILD_TC MAX_PLIES
grep -v '^#' "$POSITIONS" | tr '\n' '\0' | xargs -0 -P "$CONCURRENCY" -I{} bash -c 'convert "$@"' _ {}

# Lines: name, the build's colour (b/w), score, result words ("black wins ...").
read -r total won lost < <(awk '
  { n++ }
  ($2 == "b" && $4 == "black") || ($2 == "w" && $4 == "white") { w++ }
  ($2 == "b" && $4 == "white") || ($2 == "w" && $4 == "black") { l++ }
  END { print n + 0, w + 0, l + 0 }' "$OUT/results.txt")
echo "decided $((won + lost)) of $total: won by the build $won, lost $lost (load $(cut -d' ' -f1-3 /proc/loadavg)); games in $OUT" \
  | tee "$OUT/summary"
