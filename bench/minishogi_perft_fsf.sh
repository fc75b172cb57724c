#!/bin/sh
# Minishogi perft reference from Fairy-Stockfish (USI mode, SFEN positions):
# prints `sfen<TAB>depth<TAB>nodes<TAB>Fairy-Stockfish` rows for
# crates/rules/tests/data/perft-minishogi.tsv. Not run by the tests.
# Usage: bench/minishogi_perft_fsf.sh [path/to/fairy-stockfish] < positions
# where each input line is `depth<TAB>sfen`.
FSF=${1:-/work/shared/anchors/bin/fairy-stockfish}
while IFS="$(printf '\t')" read -r depth sfen; do
    nodes=$( (echo usi; echo "setoption name USI_Variant value minishogi"; echo isready;
              echo "position sfen $sfen"; echo "go perft $depth"; echo isready; sleep 0; ) |
             "$FSF" 2>/dev/null | sed -n 's/^Nodes searched: //p' | tail -1)
    printf '%s\t%s\t%s\tFairy-Stockfish\n' "$sfen" "$depth" "$nodes"
done
