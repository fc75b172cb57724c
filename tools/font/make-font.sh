#!/usr/bin/env bash
# Regenerates the web board's font, crates/web/static/font/banmen-pieces.woff2,
# and the list of its characters (glyphs.txt), from
#   npm package @expo-google-fonts/noto-serif-jp 0.4.3, file
#   600SemiBold/NotoSerifJP_600SemiBold.ttf (Noto Serif JP 2.003, Google),
#   SIL Open Font License 1.1 (copied to crates/web/static/font/OFL.txt).
# Needs npm, python3 and fonttools with brotli (pip install fonttools brotli).
# Run it again after a piece name or the page's Japanese text changes; the
# web crate's test `font_covers_every_piece_name` says when.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
package=@expo-google-fonts/noto-serif-jp@0.4.3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$package" >/dev/null && tar xzf ./*.tgz)
cp "$tmp/package/LICENSE_FONT" "$root/crates/web/static/font/OFL.txt"
python3 "$root/tools/font/make_font.py" \
  "$tmp/package/600SemiBold/NotoSerifJP_600SemiBold.ttf" "$root"
