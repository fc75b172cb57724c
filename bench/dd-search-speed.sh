#!/usr/bin/env bash
# Dai dai shogi search speed, builds side by side: each build searches each
# position of bench/dd/search-positions.tsv to a fixed depth (one thread,
# 64 MB hash, a fresh process per search), RUNS times in turn. The node
# counts of a build are the same on every run (a signature of its search);
# two builds with the same counts search the same tree, and the ratio of
# their times is their speed ratio; builds whose counts differ search other
# trees, and the ratio is then only one of time to depth (the summary says
# which). Prints per position each build's nodes and median time, and the
# ratio of the sums of the median times.
#
# Usage: bench/dd-search-speed.sh BUILD [BUILD2 ...]
# Settings: DEPTH (default 9), RUNS (default 3), POSITIONS (default
# bench/dd/search-positions.tsv), LIMIT (seconds a search may take, 900).
set -euo pipefail
# Writing to an engine that died is an error to handle, not a signal.
trap '' PIPE
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEPTH="${DEPTH:-9}"
RUNS="${RUNS:-3}"
POSITIONS="${POSITIONS:-$ROOT/bench/dd/search-positions.tsv}"
[ $# -ge 1 ] || { echo "usage: bench/dd-search-speed.sh BUILD [BUILD2 ...]" >&2; exit 2; }
echo "== dai dai search to depth $DEPTH, $RUNS runs, load $(cut -d' ' -f1-3 /proc/loadavg)"

# One search: prints "nodes ms", or stops the script when the engine gave no
# result (it died, or took more than LIMIT seconds, default 900). The engine
# runs as a coprocess: its input stays open until its bestmove (at the end
# of its input it would stop searching), and its end is seen at once.
LIMIT="${LIMIT:-900}"
search() {
  local build="$1" sfen="$2" line last="" nodes ms finished=""
  coproc ENGINE { timeout "$LIMIT" "$build" usi 2>/dev/null; }
  # (An engine that exits at once takes its pipes with it.)
  local to="${ENGINE[1]:-}" from="${ENGINE[0]:-}"
  if [ -n "$to" ] && [ -n "$from" ]; then
    {
      printf 'usi\nsetoption name USI_Variant value daidaishogi\nsetoption name USI_Hash value 64\n'
      printf 'setoption name Threads value 1\nisready\nusinewgame\nposition sfen %s\ngo depth %s\n' "$sfen" "$DEPTH"
    } >&"$to" 2>/dev/null || true
  fi
  while [ -n "$from" ] && IFS= read -r line <&"$from"; do
    case "$line" in
      "info depth"*) [[ "$line" == *bound* ]] || last="$line" ;;
      bestmove*) finished=1; break ;;
    esac
  done
  [ -z "$to" ] || { echo quit >&"$to"; } 2>/dev/null || true
  [ -z "${ENGINE_PID:-}" ] || wait "$ENGINE_PID" 2>/dev/null || true
  nodes="$(grep -o 'nodes [0-9]*' <<< "$last" | cut -d' ' -f2 || true)"
  ms="$(grep -o 'time [0-9]*' <<< "$last" | cut -d' ' -f2 || true)"
  if [ -z "$finished" ] || [ -z "$nodes" ] || [ -z "$ms" ]; then
    echo "error: $build gave no search result for $sfen" >&2
    return 1
  fi
  echo "$nodes $ms"
}

scratch="$(mktemp)"
trap 'rm -f "$scratch"' EXIT
declare -A total
declare -A same
while IFS=$'\t' read -r name sfen; do
  [[ "$name" == \#* || -z "$name" ]] && continue
  line="$name"
  first_nodes=""
  i=0
  for b in "$@"; do
    i=$((i + 1))
    times=()
    nodes=""
    for _ in $(seq "$RUNS"); do
      search "$b" "$sfen" > "$scratch" || exit 1
      read -r n t < "$scratch"
      nodes="$n"
      times+=("$t")
    done
    med="$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
    total[$i]=$(( ${total[$i]:-0} + med ))
    [ -n "$first_nodes" ] || first_nodes="$nodes"
    [ "$nodes" = "$first_nodes" ] || same[$i]=no
    line="$line | $(basename "$b"): nodes $nodes median ${med} ms ($(( nodes * 1000 / (med > 0 ? med : 1) )) nodes/s)"
  done
  echo "$line"
done < "$POSITIONS"
i=0
for b in "$@"; do
  i=$((i + 1))
  what="the speed of the first"
  [ -z "${same[$i]:-}" ] || what="as fast to the depth as the first (other nodes: not a speed ratio)"
  echo "$(basename "$b"): total median time ${total[$i]} ms$( [ "$i" -gt 1 ] && awk -v a="${total[1]}" -v c="${total[$i]}" -v w="$what" 'BEGIN { printf ", %.2fx %s", a / c, w }')"
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
