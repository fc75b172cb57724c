# Shared by the perft benchmarks: finds (and builds) banmen, runs one perft
# command checking its node count, and takes medians. Source it after setting
# ROOT, defining log() and expected_nodes(), and optionally SKIP_BUILD.

# banmen, release build.
BANMEN="$ROOT/target/release/banmen"
if [ -n "${CARGO_TARGET_DIR:-}" ]; then
  BANMEN="$CARGO_TARGET_DIR/release/banmen"
fi
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  log "building banmen (release)"
  (cd "$ROOT" && cargo build --release --quiet -p banmen)
fi
if [ ! -x "$BANMEN" ]; then
  echo "error: $BANMEN not found" >&2
  exit 1
fi

# Runs a command that prints `nodes N time S nps N` last; checks N against the
# known count and prints the nps.
run_one() {
  local name="$1" depth="$2"
  shift 2
  local out last nodes nps want
  out="$("$@")"
  last="$(printf '%s\n' "$out" | tail -n 1)"
  nodes="$(printf '%s\n' "$last" | awk '$1 == "nodes" { print $2 }')"
  nps="$(printf '%s\n' "$last" | awk '$5 == "nps" { print $6 }')"
  if [ -z "$nodes" ] || [ -z "$nps" ]; then
    echo "error: $name printed no 'nodes N time S nps N' line; last line: $last" >&2
    exit 1
  fi
  want="$(expected_nodes "$depth")"
  if [ -n "$want" ] && [ "$nodes" != "$want" ]; then
    echo "error: $name perft $depth gave $nodes nodes, expected $want" >&2
    exit 1
  fi
  if [ -z "$want" ]; then
    log "$name: no known count for depth $depth; not checked"
  fi
  log "$name depth $depth: $last"
  echo "$nps"
}

median() {
  sort -n | awk '{ v[NR] = $1 } END {
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%d\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

