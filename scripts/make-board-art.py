#!/usr/bin/env python3
"""Draws the web app's board and pieces as SVG: web/assets/board.svg, web/assets/pieces/*.svg,
and the second piece set, web/assets/pieces/letters/*.svg: the same discs with WXF's letters
(K A E H R C P) for players who do not read the characters.

The Chinese characters are glyph outlines (paths) taken from Noto Serif CJK TC Bold, the letters
from Noto Sans CJK SC Bold (both SIL Open Font License 1.1), so the pictures need no font where
they are shown. Reproduce with:

    apt-get install fonts-noto-cjk && pip install fonttools
    python3 scripts/make-board-art.py

The board is 9 x 10 cells of 100 units; the lines run through the cells' centres, where the
pieces stand (the board library places pieces in cells). Pieces are 100 x 100.
"""

import os
import sys

from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.ttLib import TTCollection

FONT = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
FACE = "Noto Serif CJK TC"
LETTER_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
LETTER_FACE = "Noto Sans CJK SC"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "assets")

# Chessground's roles for Xiangqi (the FEN letters) and the characters of each side.
PIECES = {
    "k": ("帥", "將"),
    "a": ("仕", "士"),
    "b": ("相", "象"),
    "n": ("傌", "馬"),
    "r": ("俥", "車"),
    "c": ("炮", "砲"),
    "p": ("兵", "卒"),
}
# The WXF letters of each role: King (the general), Advisor, Elephant, Horse, Rook (the
# chariot), Cannon, Pawn (the soldier).
LETTERS = {"k": "K", "a": "A", "b": "E", "n": "H", "r": "R", "c": "C", "p": "P"}
RED = "#b3141b"
BLACK = "#1b1b1b"


def font(path=FONT, face=FACE):
    for f in TTCollection(path).fonts:
        if f["name"].getDebugName(1) == face:
            return f
    sys.exit(f"{path} has no face {face}")


def glyph_path(f, char, size, cx, cy):
    """The outline of `char` as an SVG path element, `size` units high, centred on cx, cy."""
    cmap = f.getBestCmap()
    name = cmap[ord(char)]
    glyphs = f.getGlyphSet()
    pen = SVGPathPen(glyphs)
    glyphs[name].draw(pen)
    upm = f["head"].unitsPerEm
    # Noto CJK's ideographs fill an em box whose baseline sits 0.12 em above its bottom.
    scale = size / upm
    x0 = cx - size / 2
    y0 = cy + size / 2 - 0.12 * size
    d = pen.getCommands()
    return (
        f'<path transform="translate({x0:.2f} {y0:.2f}) scale({scale:.5f} {-scale:.5f})" '
        f'd="{d}"/>'
    )


def letter_path(f, char, height, cx, cy):
    """The outline of the letter `char` as an SVG path element, its ink `height` units high and
    centred on cx, cy (letters have no em box to centre, as ideographs do)."""
    from fontTools.pens.boundsPen import BoundsPen

    glyphs = f.getGlyphSet()
    name = f.getBestCmap()[ord(char)]
    bounds = BoundsPen(glyphs)
    glyphs[name].draw(bounds)
    x_min, y_min, x_max, y_max = bounds.bounds
    scale = height / (y_max - y_min)
    pen = SVGPathPen(glyphs)
    glyphs[name].draw(pen)
    x0 = cx - (x_min + x_max) / 2 * scale
    y0 = cy + (y_min + y_max) / 2 * scale
    return (
        f'<path transform="translate({x0:.2f} {y0:.2f}) scale({scale:.5f} {-scale:.5f})" '
        f'd="{pen.getCommands()}"/>'
    )


def disc(colour, mark):
    """A piece: the round disc with its ring in the side's colour, and `mark` drawn on it."""
    return f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<defs><radialGradient id="w" cx="40%" cy="35%" r="70%">
<stop offset="0" stop-color="#fbeccb"/><stop offset="1" stop-color="#e2c18a"/></radialGradient></defs>
<circle cx="50" cy="52" r="46" fill="#000" opacity="0.25"/>
<circle cx="50" cy="50" r="46" fill="url(#w)" stroke="#8a6a3a" stroke-width="2"/>
<circle cx="50" cy="50" r="39" fill="none" stroke="{colour}" stroke-width="2.5"/>
<g fill="{colour}">{mark}</g>
</svg>
"""


def letter_piece(f, char, colour, black):
    """A piece of the letter set: Black's letter is underlined, so that the sides differ in
    more than colour."""
    bar = '<rect x="34" y="72" width="32" height="5" rx="2"/>' if black else ""
    return disc(colour, letter_path(f, char, 38, 50, 48 if black else 50) + bar)


def piece(f, char, colour):
    """A piece of the traditional set: its character."""
    return disc(colour, glyph_path(f, char, 52, 50, 50))


def board(f):
    cell = 100
    lines = []

    def line(x1, y1, x2, y2):
        lines.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>')

    left, right, top, bottom = 50, 850, 50, 950
    for r in range(10):
        y = top + r * cell
        line(left, y, right, y)
    for c in range(9):
        x = left + c * cell
        if c in (0, 8):
            line(x, top, x, bottom)
        else:
            line(x, top, x, top + 4 * cell)
            line(x, top + 5 * cell, x, bottom)
    # The palaces.
    for y0 in (top, top + 7 * cell):
        line(350, y0, 550, y0 + 2 * cell)
        line(550, y0, 350, y0 + 2 * cell)
    # The marks where cannons and soldiers start.
    marks = []
    points = [(1, 2), (7, 2), (1, 7), (7, 7)]
    points += [(c, r) for r in (3, 6) for c in (0, 2, 4, 6, 8)]
    for c, r in points:
        x, y = left + c * cell, top + r * cell
        for dx in (-1, 1):
            if (dx < 0 and c == 0) or (dx > 0 and c == 8):
                continue
            for dy in (-1, 1):
                ax, ay = x + dx * 8, y + dy * 8
                marks.append(
                    f'<polyline points="{ax + dx * 16},{ay} {ax},{ay} {ax},{ay + dy * 16}"/>'
                )
    river = "".join(
        glyph_path(f, ch, 56, x, 500)
        for ch, x in (("楚", 200), ("河", 300), ("漢", 600), ("界", 700))
    )
    return f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 1000">
<rect width="900" height="1000" fill="#e8c98f"/>
<rect x="34" y="34" width="832" height="932" fill="none" stroke="#5b3a1a" stroke-width="6"/>
<g stroke="#5b3a1a" stroke-width="3" fill="none" stroke-linecap="square">
{chr(10).join(lines)}
{chr(10).join(marks)}
</g>
<g fill="#5b3a1a" opacity="0.75">{river}</g>
</svg>
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def main():
    f = font()
    for role, (red, black) in PIECES.items():
        write(os.path.join(OUT, "pieces", f"r{role}.svg"), piece(f, red, RED))
        write(os.path.join(OUT, "pieces", f"b{role}.svg"), piece(f, black, BLACK))
    write(os.path.join(OUT, "board.svg"), board(f))
    latin = font(LETTER_FONT, LETTER_FACE)
    for role, char in LETTERS.items():
        write(os.path.join(OUT, "pieces", "letters", f"r{role}.svg"), letter_piece(latin, char, RED, False))
        write(os.path.join(OUT, "pieces", "letters", f"b{role}.svg"), letter_piece(latin, char, BLACK, True))


if __name__ == "__main__":
    main()
