#!/usr/bin/env bash
# Takes the README's screenshots of the web board (docs/web-*.png): builds
# banmen, starts `banmen serve` on a free port with a temporary database and
# runs screenshots.mjs (playwright-core driving /usr/bin/chromium). A tool,
# not a test. The page brings its own font for the kanji.
#   BANMEN_BIN=path/to/banmen  use this binary instead of building one
#   CHROMIUM=path/to/chromium  the browser (default /usr/bin/chromium)
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=serve.sh
source ./serve.sh
node screenshots.mjs
