#!/usr/bin/env python3
"""Builds crates/web/static/font/banmen-pieces.woff2: Noto Serif JP SemiBold
cut down to the characters the page shows (piece and hand labels, Japanese
piece and handicap names, Japanese move text, the page's own text), with the
howling dog's 𠵇 (U+20D47, missing from Noto Serif JP) drawn from 吠's mouth
radical and a narrowed 奇.

Usage: make_font.py SOURCE.ttf REPO_ROOT   (run by make-font.sh)
"""
import re
import sys
from pathlib import Path

from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.transformPen import TransformPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont

HOWLING_DOG = 0x20D47  # 𠵇: 口 beside 奇

# Where the characters come from: the string literals of the rules' piece
# and handicap tables and of the Japanese move text, and the page.
SOURCES = [
    "crates/rules/src/variant/standard.rs",
    "crates/rules/src/variant/cannon.rs",
    "crates/rules/src/variant/dai_dai.rs",
    "crates/rules/src/variant/mod.rs",
    "crates/rules/src/variant/names.rs",
    "crates/formats/src/notation.rs",
]
PAGE = "crates/web/static/index.html"
# Move text on boards up to 19 files: full-width and kanji numerals.
EXTRA = "▲△\u3000０１２３４５６７８９一二三四五六七八九十☗☖同成不打右左上引寄直行"


def literal_chars(text):
    """Non-ASCII characters inside string and char literals, comments left out."""
    out = set()
    for line in text.splitlines():
        line = line.split("//", 1)[0] if not line.lstrip().startswith('"') else line
        for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', line):
            out.update(c for c in lit if ord(c) > 0x7F)
        for lit in re.findall(r"'([^'\\])'", line):  # char literals: '▲'
            out.update(c for c in lit if ord(c) > 0x7F)
    return out


def wanted(root):
    chars = set(EXTRA)
    for src in SOURCES:
        chars |= literal_chars((root / src).read_text(encoding="utf-8"))
    # The page and its script modules.
    for page in [root / PAGE, *sorted((root / PAGE).parent.glob("*.js"))]:
        chars.update(c for c in page.read_text(encoding="utf-8") if ord(c) > 0x7F)
    chars.add(chr(HOWLING_DOG))
    return "".join(sorted(chars))


def draw_howling_dog(font):
    """Adds 𠵇 as a glyph: the left-hand 口 of 吠 and 奇 narrowed into the
    right two thirds, as the character is written."""
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    bark, strange = cmap[ord("吠")], cmap[ord("奇")]
    rec = DecomposingRecordingPen(glyphs)
    glyphs[bark].draw(rec)
    # 吠's contours left of the middle are its 口.
    contours, current = [], []
    for op, args in rec.value:
        current.append((op, args))
        if op in ("closePath", "endPath"):
            contours.append(current)
            current = []
    def x_max(contour):
        return max(p[0] for _, args in contour for p in args)
    advance = font["hmtx"][bark][0]
    mouth = [c for c in contours if x_max(c) < advance * 0.42]
    pen = TTGlyphPen(None)
    for contour in mouth:
        for op, args in contour:
            getattr(pen, op)(*args)
    right = min(p[0] for c in contours if c not in mouth for _, a in c for p in a)
    scale = 0.64
    narrowed = TransformPen(pen, (scale, 0, 0, 1, right - 40, 0))
    rec = DecomposingRecordingPen(glyphs)
    glyphs[strange].draw(rec)
    rec.replay(narrowed)
    name = "uni20D47"
    glyph = pen.glyph()
    glyph.recalcBounds(font["glyf"])
    font["glyf"][name] = glyph
    font["hmtx"][name] = (advance, glyph.xMin)
    if "vmtx" in font:
        font["vmtx"][name] = font["vmtx"][bark]
    if name not in font.getGlyphOrder():
        font.setGlyphOrder(font.getGlyphOrder() + [name])
    for table in font["cmap"].tables:
        if table.isUnicode() and table.format in (12, 13):
            table.cmap[HOWLING_DOG] = name
    if not any(HOWLING_DOG in t.cmap for t in font["cmap"].tables):
        raise SystemExit("no format 12 cmap to hold U+20D47")


def main():
    source, root = Path(sys.argv[1]), Path(sys.argv[2])
    text = wanted(root)
    font = TTFont(source)
    draw_howling_dog(font)
    cmap = font.getBestCmap()
    missing = [c for c in text if ord(c) not in cmap]
    options = Options()
    options.flavor = "woff2"
    options.layout_features = ["vert", "kern", "palt"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep copyright and licence
    options.notdef_outline = True
    sub = Subsetter(options)
    sub.populate(text=text)
    sub.subset(font)
    out = root / "crates/web/static/font/banmen-pieces.woff2"
    font.flavor = "woff2"
    font.save(out)
    (root / "crates/web/static/font/glyphs.txt").write_text(
        "".join(c for c in text if ord(c) in cmap) + "\n", encoding="utf-8"
    )
    print(f"{out}: {out.stat().st_size} bytes, {len(text) - len(missing)} characters")
    if missing:
        print("not in the font (the page falls back to system fonts):", " ".join(missing))


if __name__ == "__main__":
    main()
