#!/usr/bin/env bash
# banmen against a native anchor engine of ../shared/anchors/bin with
# `banmen match`: one game at a time, both engines single-threaded, 64 MB hash,
# paired openings. banmen is the first engine, so W/D/L, score and Elo are
# banmen's. See bench/README.md.
#
# Usage: bench/vs-anchor.sh ANCHOR VARIANT
#   ANCHOR   fsf (Fairy-Stockfish; its variants wrapper for cannon shogi),
#            yo (YaneuraOu with the material evaluation; shogi only) or
#            baseline (banmen as it stood on 2026-12-01)
#   VARIANT  shogi, cannonshogi or daidaishogi
# Settings (environment variables):
#   GAMES        games (default 200)
#   TC           time control for both, e.g. byoyomi=200 or movetime=180 (default byoyomi=200)
#   BANMEN_TC    banmen's own time control (default TC; the anchor keeps TC):
#                for questions such as "would twice the time end more games?"
#   MAX_PLIES    draw after this many plies (default 512; 800 for daidaishogi)
#   ADJUDICATE   e.g. score=1500,plies=300 (default: none)
#   ENTERING_KING  the declaration rule of standard shogi, sent to both engines
#                (default CSARule27, the rule of computer shogi tournaments and
#                YaneuraOu's default: with none, an anchor's declaration was refused)
#   OPENINGS     openings file (default bench/fsf/openings-VARIANT.txt when it exists)
#   CONCURRENCY  games at the same time (default 1)
#   ANCHORS      the anchors' folder (default ../shared/anchors/bin)
#   BANMEN       the banmen binary (default target/release/banmen; built unless SKIP_BUILD=1)
#   OUT          where the records go (default bench/out/vs-ANCHOR-VARIANT-<time>)
#   BANMEN_OPTIONS  USI options for banmen only, space-separated Name=Value
#                (e.g. EvalParams=params.txt to try a tuned parameter file)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
ANCHOR="${1:?usage: bench/vs-anchor.sh fsf|yo|baseline VARIANT}"
VARIANT="${2:?usage: bench/vs-anchor.sh fsf|yo|baseline VARIANT}"
GAMES="${GAMES:-200}"
TC="${TC:-byoyomi=200}"
BANMEN_TC="${BANMEN_TC:-$TC}"
if [ "$VARIANT" = daidaishogi ]; then
  MAX_PLIES="${MAX_PLIES:-800}"
else
  MAX_PLIES="${MAX_PLIES:-512}"
fi
CONCURRENCY="${CONCURRENCY:-1}"
ANCHORS="${ANCHORS:-$ROOT/../shared/anchors/bin}"
BANMEN="${BANMEN:-target/release/banmen}"
OUT="${OUT:-bench/out/vs-$ANCHOR-$VARIANT-$(date -u +%Y%m%d-%H%M%S)}"
OPENINGS="${OPENINGS:-bench/fsf/openings-$VARIANT.txt}"

log() { echo "== $*" >&2; }

options=(--option USI_Hash=64 --option 1:Threads=1)
for o in ${BANMEN_OPTIONS:-}; do
  options+=(--option "1:$o")
done
case "$ANCHOR" in
  fsf)
    if [ "$VARIANT" = shogi ]; then
      anchor="$ANCHORS/fairy-stockfish"
    else
      # Cannon shogi is defined in a variants file the wrapper loads first.
      anchor="$ANCHORS/fairy-stockfish-variants"
    fi
    options+=(--option 2:Threads=1)
    ;;
  yo)
    [ "$VARIANT" = shogi ] || { echo "yaneuraou-material plays standard shogi only" >&2; exit 2; }
    anchor="$ANCHORS/yaneuraou-material"
    # Its defaults keep about half of a short byoyomi back (anchors README).
    for o in Threads=1 BookFile=no_book USI_OwnBook=false NetworkDelay=20 NetworkDelay2=20 \
      MinimumThinkingTime=1 RoundUpToFullSecond=false; do
      options+=(--option "2:$o")
    done
    ;;
  baseline)
    anchor="$ANCHORS/banmen-2026-12-01 usi"
    options+=(--option 2:Threads=1)
    ;;
  *)
    echo "unknown anchor '$ANCHOR' (fsf, yo, baseline)" >&2
    exit 2
    ;;
esac

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  log "cargo build --release -p banmen"
  cargo build --release -p banmen >&2
fi
mkdir -p "$(dirname "$OUT")"
openings=()
[ -f "$OPENINGS" ] && openings=(--openings "$OPENINGS")
adjudicate=()
[ -n "${ADJUDICATE:-}" ] && adjudicate=(--adjudicate "$ADJUDICATE")
entering=()
[ "$VARIANT" = shogi ] && entering=(--entering-king "${ENTERING_KING:-CSARule27}")
tc_note="$TC"
[ "$BANMEN_TC" != "$TC" ] && tc_note="$TC (banmen $BANMEN_TC)"
log "$VARIANT: banmen vs $ANCHOR, $GAMES games at $tc_note, load $(cut -d' ' -f1-3 /proc/loadavg) (records in $OUT)"
start=$(date +%s)
"$BANMEN" match --engine "$BANMEN usi" --engine "$anchor" \
  --variant "$VARIANT" --games "$GAMES" --tc "$BANMEN_TC" --tc "$TC" --max-plies "$MAX_PLIES" \
  --concurrency "$CONCURRENCY" --out "$OUT" "${options[@]}" "${openings[@]}" "${adjudicate[@]}" "${entering[@]}" \
  | tee "$OUT.summary"
log "$VARIANT vs $ANCHOR: $(($(date +%s) - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
