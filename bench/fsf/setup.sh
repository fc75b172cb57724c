#!/usr/bin/env bash
# Sets up Fairy-Stockfish (WebAssembly build, npm package
# fairy-stockfish-nnue.wasm 1.1.12) in bench/fsf as a USI engine for
# crosscheck.py and perft-vs-fsf.sh. See bench/fsf/README.md.
#
# 1. Copies fsf-usi.js and cannonshogi.ini from the shared reference folder
#    (../shared/reference/fairy-stockfish from the repository root) if they are
#    missing here. Both are committed, so a clean clone does not need it.
# 2. Installs the npm package into bench/fsf/node_modules (git-ignored) with
#    `npm ci` from the committed package-lock.json (exact version, integrity
#    checked; the package has no dependencies and no install scripts), unless
#    it is installed already. Only the npm registry is contacted, and only
#    when the package is not in npm's cache.
# 3. Checks that the engine runs: cannon shogi perft 1 from the start is 60.
#
# Settings (environment variables):
#   NODE          Node.js executable (default node; Node 20 is what was tested)
#   NPM           npm executable (default npm)
#   SHARED        the shared reference folder (default ROOT/../shared/reference/fairy-stockfish)
#   FORCE=1       reinstall even if node_modules looks complete
set -euo pipefail

FSF_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$FSF_DIR/../.." && pwd)"
NODE="${NODE:-node}"
NPM="${NPM:-npm}"
SHARED="${SHARED:-$ROOT/../shared/reference/fairy-stockfish}"
PACKAGE=fairy-stockfish-nnue.wasm
VERSION=1.1.12

log() { echo "== $*" >&2; }

for tool in "$NODE" "$NPM"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: '$tool' not found; install Node.js 20 and npm" >&2
    exit 1
  fi
done

# 1. The USI wrapper and the cannon shogi definition.
for f in fsf-usi.js cannonshogi.ini; do
  if [ ! -f "$FSF_DIR/$f" ]; then
    if [ -f "$SHARED/$f" ]; then
      log "copying $SHARED/$f"
      cp "$SHARED/$f" "$FSF_DIR/$f"
      chmod u+w "$FSF_DIR/$f"
    else
      echo "error: $FSF_DIR/$f is missing and $SHARED/$f does not exist" >&2
      exit 1
    fi
  fi
done

# 2. The npm package.
installed_version() {
  "$NODE" -e 'try { console.log(require(process.argv[1]).version) } catch (e) {}' \
    "$FSF_DIR/node_modules/$PACKAGE/package.json" 2>/dev/null || true
}
if [ "${FORCE:-0}" = 1 ] || [ "$(installed_version)" != "$VERSION" ] \
  || [ ! -f "$FSF_DIR/node_modules/$PACKAGE/stockfish.wasm" ]; then
  log "installing $PACKAGE@$VERSION into $FSF_DIR/node_modules"
  if [ -f "$FSF_DIR/package-lock.json" ]; then
    (cd "$FSF_DIR" && "$NPM" ci --prefer-offline --ignore-scripts --no-audit --no-fund)
  else
    (cd "$FSF_DIR" && "$NPM" install --prefer-offline --ignore-scripts --no-audit --no-fund \
      --save-exact "$PACKAGE@$VERSION")
  fi
fi
if [ "$(installed_version)" != "$VERSION" ]; then
  echo "error: $PACKAGE@$VERSION did not install into $FSF_DIR/node_modules" >&2
  exit 1
fi

# 3. Smoke test.
out="$("$NODE" --no-experimental-fetch "$FSF_DIR/fsf-perft.js" --variant cannonshogi --depth 1)"
last="$(printf '%s\n' "$out" | tail -n 1)"
case "$last" in
  "nodes 60 "*) log "Fairy-Stockfish $VERSION ready (cannon shogi perft 1: 60)" ;;
  *)
    echo "error: Fairy-Stockfish smoke test failed; expected 60 nodes, got: $last" >&2
    exit 1
    ;;
esac
