#!/usr/bin/env bash
# One banmen build against another with `banmen match`: paired openings,
# both single-threaded, 64 MB hash, standard shogi under CSARule27. The first
# engine is the candidate, so W/D/L, score and Elo are the candidate's. Used
# to decide whether a search or evaluation change is kept (bench/README.md).
#
# Usage: bench/ab.sh CANDIDATE BASE [VARIANT]
#   CANDIDATE, BASE  banmen binaries (build each commit and copy its
#                    target/release/banmen aside)
#   VARIANT          shogi (default), cannonshogi, daidaishogi or minishogi
# Settings (environment variables):
#   GAMES        games (default 200)
#   TC           time control for both (default movetime=100)
#   CONCURRENCY  games at the same time (default 2: both cores)
#   MAX_PLIES    draw after this many plies (default 512; 800 for daidaishogi)
#   ADJUDICATE   adjudication by score, e.g. score=800,plies=120,final=200 (default: none)
#   OPENINGS     openings file (default bench/fsf/openings-VARIANT.txt when it exists)
#   OUT          where the records go (default bench/out/ab-VARIANT-<time>)
#   OPTIONS      more USI options, space-separated, as `banmen match --option`
#                takes them: `1:EvalFile=shogi.nnue` for the candidate only
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
CANDIDATE="${1:?usage: bench/ab.sh CANDIDATE BASE [VARIANT]}"
BASE="${2:?usage: bench/ab.sh CANDIDATE BASE [VARIANT]}"
VARIANT="${3:-shogi}"
GAMES="${GAMES:-200}"
TC="${TC:-movetime=100}"
CONCURRENCY="${CONCURRENCY:-2}"
if [ "$VARIANT" = daidaishogi ]; then
  MAX_PLIES="${MAX_PLIES:-800}"
else
  MAX_PLIES="${MAX_PLIES:-512}"
fi
OUT="${OUT:-bench/out/ab-$VARIANT-$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$(dirname "$OUT")"
OPENINGS="${OPENINGS:-bench/fsf/openings-$VARIANT.txt}"
openings=()
[ -f "$OPENINGS" ] && openings=(--openings "$OPENINGS")
adjudicate=()
[ -n "${ADJUDICATE:-}" ] && adjudicate=(--adjudicate "$ADJUDICATE")
entering=()
extra=()
for o in ${OPTIONS:-}; do extra+=(--option "$o"); done
[ "$VARIANT" = shogi ] && entering=(--entering-king CSARule27)
echo "== $VARIANT: $CANDIDATE vs $BASE, $GAMES games at $TC, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$CANDIDATE" match --engine "$CANDIDATE usi" --engine "$BASE usi" \
  --variant "$VARIANT" --games "$GAMES" --tc "$TC" --max-plies "$MAX_PLIES" \
  --concurrency "$CONCURRENCY" --out "$OUT" --option USI_Hash=64 --option Threads=1 \
  "${openings[@]}" "${adjudicate[@]}" "${entering[@]}" "${extra[@]}" | tee "$OUT.summary"
