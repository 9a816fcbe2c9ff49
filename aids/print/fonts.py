"""The embedded Japanese TrueType font, registered once per process.

IPAexGothic (``ipaexg.ttf``) comes with the ``japanize-matplotlib`` dependency; ReportLab embeds
TrueType subsets, so the PDF reads the same on any machine. ``AIDS_JP_FONT`` may point at another
TrueType file; Debian's ``fonts-ipaexfont-gothic`` is used if present.
"""

from __future__ import annotations

import importlib.util
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

FONT = "IPAexGothic"
DEBIAN_FONT = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")


class FontMissing(RuntimeError):
    """No TrueType Japanese font was found; the message says how to get one."""


def font_path() -> Path:
    configured = os.environ.get("AIDS_JP_FONT")
    if configured:
        return Path(configured)
    spec = importlib.util.find_spec("japanize_matplotlib")  # located, not imported
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "fonts" / "ipaexg.ttf"
        if candidate.exists():
            return candidate
    if DEBIAN_FONT.exists():
        return DEBIAN_FONT
    raise FontMissing(
        "No Japanese TrueType font: run `pip install -e .` (brings japanize-matplotlib) "
        "or set AIDS_JP_FONT to a .ttf file."
    )


@cache
def register() -> str:
    """Register the font with ReportLab (once) and return its name."""
    pdfmetrics.registerFont(TTFont(FONT, str(font_path())))
    return FONT


# --- text measured in the font: wrapping with kinsoku, fitting a box -----------------------

#: Never at the end of a line (kinsoku): an opening bracket stays with what it opens.
OPENING = "「『（【〈《［｛〔〘〖“‘([{"
#: Never at the start of a line: closing brackets and punctuation stay with what they close.
CLOSING = "」』）】〉》］｝〕〙〗”’)]}、。，．・：；！？ー…‥,.;:!?"
#: A Latin word (a link, a path) may break after these, before cutting it anywhere.
BREAK_AFTER = "/?&-"
ELLIPSIS = "…"
ASCENT, DESCENT = 0.88, 0.12  # of the font size, for IPAexGothic (880 / -120 per 1000)


@lru_cache(maxsize=4096)  # a text is measured for its least width, then wrapped, maybe twice
def pieces(text: str) -> tuple[str, ...]:
    """``text`` cut where a line may break: between CJK characters, at spaces, around Latin
    words, never after an opening bracket or before closing punctuation (kinsoku).

    >>> pieces("駅伝（はこね）の区間、http://a/b c")
    ('駅', '伝', '（は', 'こ', 'ね）', 'の', '区', '間、', 'http:/', '/', 'a/', 'b', ' ', 'c')
    """
    out: list[str] = []
    prev = " "
    for ch in " ".join(text.split()):  # the only white space left is single spaces
        if (
            prev != " "
            and ch != " "
            and (
                ch in CLOSING
                or prev in OPENING
                # inside a Latin word (both characters below the CJK blocks)
                or (ord(ch) < 0x2E80 and ord(prev) < 0x2E80 and prev not in BREAK_AFTER)
            )
        ):
            out[-1] += ch
        else:
            out.append(ch)
        prev = ch
    return tuple(out)


@lru_cache(maxsize=8192)
def _em(piece: str, font: str) -> float:
    """The width of ``piece`` at size 1 (widths scale with the size)."""
    if font == FONT:
        register()  # measuring needs the font's metrics
    return float(stringWidth(piece, font, 1.0))


#: Colour words for the coloured symbols the pages use (🔴 9, 🟥1 Aki) where the embedded font
#: has no glyph for them: a printed line says the colour instead of showing an empty box.
COLOUR_WORDS = {
    "RED": ("赤", "red"), "BLUE": ("青", "blue"), "GREEN": ("緑", "green"),
    "YELLOW": ("黄", "yellow"), "WHITE": ("白", "white"), "BLACK": ("黒", "black"),
    "PINK": ("桃", "pink"), "BROWN": ("茶", "brown"), "PURPLE": ("紫", "purple"),
    "ORANGE": ("橙", "orange"),
}  # fmt: skip
_UNNAMED = {0x1FA77: "PINK HEART", 0x1FA75: "LIGHT BLUE HEART", 0x1FA76: "GREY HEART"}


def printable(text: str, lang: str, font: str = FONT) -> str:
    """``text`` with every character the font cannot draw replaced: a coloured symbol by
    its colour's word in brackets, anything else dropped (no empty boxes on paper).

    >>> printable("🔴 9 on 🟡 Yellow", "en")
    '[red] 9 on [yellow] Yellow'
    >>> printable("⚫ 3 を🩷桃へ", "ja")
    '[黒] 3 を[桃]桃へ'
    """
    if font == FONT:
        register()  # the font's own table of glyphs
    covered = _glyphs(font)
    out: list[str] = []
    for ch in text:
        if ord(ch) in covered or ch in "\n\t":
            out.append(ch)
            continue
        name = unicodedata.name(ch, "") or _UNNAMED.get(ord(ch), "")
        word = next((w for key, w in COLOUR_WORDS.items() if key in name.split()), None)
        if word is not None:
            out.append(f"[{word[0] if lang == 'ja' else word[1]}]")
    return "".join(out).strip()


@cache
def _glyphs(font: str) -> frozenset[int]:
    """The code points ``font`` has glyphs for (a TrueType font's cmap)."""
    face = getattr(pdfmetrics.getFont(font), "face", None)
    return frozenset(getattr(face, "charToGlyph", {}) or range(0x20, 0x7F))


def measure(text: str, size: float, font: str = FONT) -> float:
    """The width of ``text`` at ``size`` (cached: a sheet's labels repeat)."""
    return _em(text, font) * size


def _cut(piece: str, font: str, size: float, width: float) -> int:
    """How many characters of an over-long piece start a line: as many as fit (at least one),
    moved back so the cut neither ends on an opening bracket nor starts on a closing one."""
    n = 1
    while n < len(piece) and _em(piece[: n + 1], font) * size <= width:
        n += 1
    k = n
    while k > 1 and (piece[k - 1] in OPENING or piece[k] in CLOSING):
        k -= 1
    return k if k > 1 or n == 1 else n


def wrap(text: str, width: float, size: float, font: str = FONT) -> list[str]:
    """Lines of ``text`` no wider than ``width`` at ``size`` (an over-long word is cut)."""
    return list(_wrapped(text, width, size, font))


@lru_cache(maxsize=4096)  # a flowable is wrapped to size its cell, then again to draw it
def _wrapped(text: str, width: float, size: float, font: str) -> tuple[str, ...]:
    return tuple(_wrap(pieces(text), width, size, font))


def _wrap(parts: Sequence[str], width: float, size: float, font: str) -> list[str]:
    lines: list[str] = []
    line, used = "", 0.0
    for piece in parts:
        w = _em(piece, font) * size
        if piece == " ":
            if line:
                line, used = line + " ", used + w
            continue
        fits = used + w <= width + 0.01
        if (fits and line.strip()) or (not line.strip() and w <= width + 0.01):
            line, used = line + piece, used + w
            continue
        if line.strip():
            lines.append(line.rstrip())
        while _em(piece, font) * size > width + 0.01 and len(piece) > 1:
            k = _cut(piece, font, size, width)
            while 1 < k < len(piece) and piece[k] in CLOSING:  # kinsoku: never start a line
                k -= 1  # with closing punctuation; its character goes down with it
            lines.append(piece[:k])
            piece = piece[k:]
        line, used = piece, _em(piece, font) * size
    if line.strip():
        lines.append(line.rstrip())
    return lines


def ellipsize(line: str, width: float, size: float, font: str = FONT) -> str:
    """``line`` cut to end with an ellipsis within ``width`` (never after an opening bracket)."""
    while line and (
        stringWidth(line + ELLIPSIS, font, size) > width or line[-1] in OPENING or line[-1] == " "
    ):
        line = line[:-1]
    return line + ELLIPSIS


@dataclass(frozen=True, slots=True)
class Fitted:
    """Text laid out for a box: its lines, the font size and the line spacing chosen."""

    lines: tuple[str, ...]
    size: float
    leading: float

    @property
    def height(self) -> float:
        """From the top of the first line's glyphs to the bottom of the last one's."""
        return (len(self.lines) - 1) * self.leading + self.size if self.lines else 0.0


@lru_cache(maxsize=4096)  # a sheet's labels repeat from print to print
@lru_cache(maxsize=4096)  # a cell is fitted to size its row, then again to draw it
def fit(
    text: str,
    size: float,
    width: float,
    height: float | None = None,
    *,
    min_size: float = 6,
    max_lines: int | None = None,
    spacing: float = 1.15,
) -> Fitted:
    """Fit ``text`` in a ``width`` × ``height`` box: shrink it on one line (by up to 15 %);
    failing that, wrap it from ``size`` onto the lines the box holds, shrinking on down to
    ``min_size``; failing that, cut the last line with an ellipsis.

    >>> fit("Friday race", 10, 200).lines
    ('Friday race',)
    >>> fit("第1柵の賭け（×4）", 9, 50, 30).lines
    ('第1柵の賭', 'け（×4）')
    >>> fit("W" * 80, 10, 100, 12).lines[-1].endswith("…")
    True
    """
    font = register()
    parts = pieces(text)
    one_line = sum(_em(p, font) for p in parts)
    steps = [size - 0.5 * i for i in range(int((size - min_size) / 0.5) + 1)] or [size]
    if not parts:
        return Fitted((), size, size * spacing)
    for s in steps:
        if s >= size * 0.85 and one_line * s <= width + 0.01 and (height is None or s <= height):
            return Fitted((" ".join(text.split()),), s, s * spacing)
    for s in steps:
        lead = s * spacing
        room = max_lines or 1_000
        if height is not None:
            room = min(room, max(1, int((height - s) / lead + 1e-6) + 1))
        if room == 1 and one_line * s > width + 0.01 and s > steps[-1]:
            continue  # too wide for the one line the box holds at this size
        lines = _wrap(parts, width, s, font)
        if len(lines) <= room and (height is None or s <= height):
            return Fitted(tuple(lines), s, lead)
    s = steps[-1]
    room = max_lines or 1_000
    if height is not None:
        room = min(room, max(1, int((height - s) / (s * spacing) + 1e-6) + 1))
    kept = _wrap(parts, width, s, font)
    if len(kept) > room:
        kept = [*kept[: room - 1], ellipsize(kept[room - 1], width, s, font)]
    return Fitted(tuple(kept), s, s * spacing)
