"""Where a PDF's text and ruled lines are, read back from the file itself.

Text: pypdf's ``extract_text`` with a ``visitor_text`` callback gives each drawn string with its
text and transformation matrices and its font size; its box is the string's advance width in
the sheet's font, from the descender to the ascender. Lines: the content stream's stroked path
segments (grid lines, cell borders), with the transformation in force. Fills (backgrounds,
the QR code's squares, a strike-through bar) are not lines.

A file's texts and lines are read once (several checks read the same sheets), and the checks
of every text against every line or text are done as arrays, with the same comparisons as
``Segment.crosses`` and ``Box.overlaps`` (``test_pdf_layout_arrays`` compares the two).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.pdfbase.pdfmetrics import stringWidth

from aids.print.fonts import ASCENT, DESCENT, register

Matrix = tuple[float, float, float, float, float, float]
TOLERANCE = 0.5  # points: a box edge may touch a line, not cross it


@dataclass(frozen=True, slots=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box, tol: float = TOLERANCE) -> bool:
        return (
            self.x0 + tol < other.x1
            and other.x0 + tol < self.x1
            and self.y0 + tol < other.y1
            and other.y0 + tol < self.y1
        )

    def inside(self, other: Box, tol: float = TOLERANCE) -> bool:
        return (
            self.x0 >= other.x0 - tol
            and self.x1 <= other.x1 + tol
            and self.y0 >= other.y0 - tol
            and self.y1 <= other.y1 + tol
        )


@dataclass(frozen=True, slots=True)
class Text:
    """One drawn string and the box its glyphs occupy on the page."""

    text: str
    box: Box
    size: float
    continues: bool = False  # the rest of the string before it (another font subset)


@dataclass(frozen=True, slots=True)
class Segment:
    """A stroked straight line from (x0, y0) to (x1, y1)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def crosses(self, box: Box, tol: float = TOLERANCE) -> bool:
        """Does this horizontal or vertical line pass through the inside of ``box``?"""
        inner = Box(box.x0 + tol, box.y0 + tol, box.x1 - tol, box.y1 - tol)
        if inner.x0 >= inner.x1 or inner.y0 >= inner.y1:
            return False
        lo_x, hi_x = sorted((self.x0, self.x1))
        lo_y, hi_y = sorted((self.y0, self.y1))
        if abs(self.y0 - self.y1) < 0.01:  # horizontal
            return inner.y0 < self.y0 < inner.y1 and lo_x < inner.x1 and hi_x > inner.x0
        if abs(self.x0 - self.x1) < 0.01:  # vertical
            return inner.x0 < self.x0 < inner.x1 and lo_y < inner.y1 and hi_y > inner.y0
        return False  # a slanted stroke (a tick) is a drawing, not a ruled line


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return (
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    )


def _point(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]


def texts(pdf: bytes) -> list[Text]:
    """Every non-blank string drawn on the first page, with its box in page coordinates.

    A string ReportLab splits over two font subsets arrives as two pieces at the same text
    matrix: the second is moved along by the first's width.
    """
    return list(_texts(pdf))


@lru_cache(maxsize=128)
def _texts(pdf: bytes) -> tuple[Text, ...]:
    font = register()
    out: list[Text] = []
    last: tuple[tuple[float, ...], float] | None = None

    def visit(text: str, cm: list[float], tm: list[float], _font: object, size: float) -> None:
        nonlocal last
        text = text.replace("\n", "")
        if not text.strip():
            return
        m = _mul(tuple(tm), tuple(cm))  # type: ignore[arg-type]
        key = tuple(round(v, 3) for v in m)
        offset = last[1] if last and last[0] == key else 0.0
        scale_x, scale_y = abs(m[0]), abs(m[3])
        width = stringWidth(text, font, size) * scale_x
        x, y = m[4] + offset, m[5]
        out.append(
            Text(
                text,
                Box(x, y - DESCENT * size * scale_y, x + width, y + ASCENT * size * scale_y),
                size * scale_y,
                offset > 0,
            )
        )
        last = (key, offset + width)

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    return tuple(out)


def text_lines(pdf: bytes) -> list[str]:
    """Each drawn string whole (the pieces of one string in two font subsets joined)."""
    out: list[str] = []
    for t in texts(pdf):
        if t.continues and out:
            out[-1] += t.text
        else:
            out.append(t.text)
    return out


def lines(pdf: bytes) -> list[Segment]:
    """Every stroked straight segment on the first page, in page coordinates."""
    return list(_lines(pdf))


@lru_cache(maxsize=128)
def _lines(pdf: bytes) -> tuple[Segment, ...]:
    reader = PdfReader(io.BytesIO(pdf))
    page = reader.pages[0]
    content = ContentStream(page.get_contents(), reader)
    ctm: Matrix = (1, 0, 0, 1, 0, 0)
    stack: list[Matrix] = []
    path: list[Segment] = []
    start = current = (0.0, 0.0)
    out: list[Segment] = []
    for operands, op in content.operations:
        geometry = (b"cm", b"m", b"l", b"re", b"c", b"v", b"y")
        args = [float(v) for v in operands] if op in geometry else []
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(args), ctm)  # type: ignore[arg-type]
        elif op == b"m":
            start = current = _point(ctm, args[0], args[1])
        elif op == b"l":
            end = _point(ctm, args[0], args[1])
            path.append(Segment(*current, *end))
            current = end
        elif op in (b"c", b"v", b"y"):  # a curve (a circle, a round corner): not a ruled line
            current = _point(ctm, args[-2], args[-1])
        elif op == b"re":
            x, y, w, h = args
            corners = [_point(ctm, x, y), _point(ctm, x + w, y)]
            corners += [_point(ctm, x + w, y + h), _point(ctm, x, y + h)]
            path += [Segment(*corners[i], *corners[(i + 1) % 4]) for i in range(4)]
        elif op == b"h":
            path.append(Segment(*current, *start))
            current = start
        elif op in (b"S", b"s", b"B", b"B*", b"b", b"b*"):
            out += path
            path = []
        elif op in (b"f", b"F", b"f*", b"n"):
            path = []
    return out


def describe(text: Text) -> str:
    """A text and where it sits, for a failure message."""
    b = text.box
    return f"{text.text!r} at ({b.x0:.1f}, {b.y0:.1f})–({b.x1:.1f}, {b.y1:.1f})"


def crossing_texts(pdf: bytes) -> list[str]:
    """Texts a ruled line runs through: text that left its cell crosses one of its borders."""
    found = texts(pdf)
    hit = crossings(found, lines(pdf))
    return [describe(t) for t, crossed in zip(found, hit, strict=True) if crossed]


def overlapping_texts(pdf: bytes) -> list[str]:
    """Pairs of texts drawn on each other."""
    found = texts(pdf)
    return [f"{describe(found[i])} / {describe(found[j])}" for i, j in overlaps(found)]


def _boxes(found: list[Text]) -> np.ndarray:
    return np.array([(t.box.x0, t.box.y0, t.box.x1, t.box.y1) for t in found]).reshape(-1, 4)


def crossings(found: list[Text], rules: list[Segment], tol: float = TOLERANCE) -> list[bool]:
    """For each text, whether any of ``rules`` crosses its box (``Segment.crosses``)."""
    if not found or not rules:
        return [False] * len(found)
    box = _boxes(found)
    x0, y0, x1, y1 = (box[:, k, None] for k in range(4))
    x0, y0, x1, y1 = x0 + tol, y0 + tol, x1 - tol, y1 - tol
    seg = np.array([(r.x0, r.y0, r.x1, r.y1) for r in rules])
    flat = np.abs(seg[:, 1] - seg[:, 3]) < 0.01
    upright = ~flat & (np.abs(seg[:, 0] - seg[:, 2]) < 0.01)
    lo_x, hi_x = np.minimum(seg[:, 0], seg[:, 2]), np.maximum(seg[:, 0], seg[:, 2])
    lo_y, hi_y = np.minimum(seg[:, 1], seg[:, 3]), np.maximum(seg[:, 1], seg[:, 3])
    across = flat & (y0 < seg[:, 1]) & (seg[:, 1] < y1) & (lo_x < x1) & (hi_x > x0)
    down = upright & (x0 < seg[:, 0]) & (seg[:, 0] < x1) & (lo_y < y1) & (hi_y > y0)
    empty = (x0[:, 0] >= x1[:, 0]) | (y0[:, 0] >= y1[:, 0])
    return [bool(v) for v in (across | down).any(axis=1) & ~empty]


def overlaps(found: list[Text], tol: float = TOLERANCE) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, of texts whose boxes overlap (``Box.overlaps``), in order."""
    if len(found) < 2:
        return []
    box = _boxes(found)
    a, b = box[:, None, :], box[None, :, :]
    hit = (
        (a[..., 0] + tol < b[..., 2])
        & (b[..., 0] + tol < a[..., 2])
        & (a[..., 1] + tol < b[..., 3])
        & (b[..., 1] + tol < a[..., 3])
    )
    i, j = np.nonzero(np.triu(hit, k=1))
    return [(int(x), int(y)) for x, y in zip(i, j, strict=True)]
