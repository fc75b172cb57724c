#!/usr/bin/env bash
# Browser tests of the web board: builds banmen, starts `banmen serve` on a
# free port with a temporary database, runs board.test.mjs (node:test +
# playwright-core driving /usr/bin/chromium), then stops the server.
# Screenshots land in tests/browser/artifacts/ (git-ignored).
#   BANMEN_BIN=path/to/banmen  use this binary instead of building one
#   CHROMIUM=path/to/chromium  the browser (default /usr/bin/chromium)
# Arguments go to `node --test` (e.g. --test-name-pattern=clock).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=serve.sh
source ./serve.sh

start=$SECONDS
status=0
node --test "$@" board.test.mjs || status=$?
echo "browser tests: $((SECONDS - start)) s (screenshots in tests/browser/artifacts/)"
if [[ $status -ne 0 ]]; then
  echo "--- banmen serve log ---"
  cat "$tmp/serve.log"
fi
exit $status
