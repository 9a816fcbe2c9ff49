"""The baseline of the print benchmarks: the same pages drawn with bare canvas calls.

A PDF we made is read back (PDFium, from the test extras) into the drawing it holds: every
run of text with its font, size, colour and origin, every path with its segments, fill,
stroke, width and dash. :func:`draw` then puts exactly that on a fresh ReportLab canvas —
``setFont`` + ``drawString``, ``moveTo``/``lineTo``/``curveTo`` + ``drawPath`` — and saves it
with the same fonts (subset), compression and invariant mode. What is timed is only
:func:`draw`: the cost of the same marks on the same pages with no layout at all, so a
sheet's time over it is what platypus (tables, paragraphs, our fitted cells) costs.
"""

from __future__ import annotations

import ctypes
import io
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from aids.print.fonts import register

#: PDFium's base font names of the standard fonts we use, to ReportLab's.
_STANDARD = {"Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Times-Roman", "Courier"}


@dataclass(frozen=True, slots=True)
class Text:
    font: str
    size: float
    x: float
    y: float
    rgb: tuple[float, float, float]
    text: str


@dataclass(frozen=True, slots=True)
class Path:
    #: (kind, points): "m" move, "l" line, "c" curve (three points), "h" close, "r" a
    #: rectangle (x, y, width, height) — as ``re`` draws it, in one operator
    segments: tuple[tuple[str, tuple[float, ...]], ...]
    fill: tuple[float, float, float] | None
    stroke: tuple[float, float, float] | None
    width: float
    dash: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Page:
    width: float
    height: float
    marks: tuple[Text | Path, ...]


def read(pdf: bytes) -> list[Page]:
    """The marks on every page of ``pdf``, in drawing order (form XObjects flattened)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    font = register()
    pages: list[Page] = []
    try:
        for page in doc:
            textpage = page.get_textpage()
            marks: list[Text | Path] = []
            for obj in page.get_objects():  # descends into form XObjects
                kind = raw.FPDFPageObj_GetType(obj.raw)
                if kind == raw.FPDF_PAGEOBJ_TEXT:
                    text = _text(raw, obj.raw, textpage.raw, font)
                    if text.text.strip():  # a run of spaces, or none, marks nothing
                        marks.append(text)
                elif kind == raw.FPDF_PAGEOBJ_PATH:
                    path = _path(raw, obj.raw)
                    if path is not None:
                        marks.append(path)
            width, height = page.get_size()
            pages.append(Page(width, height, tuple(marks)))
            textpage.close()
            page.close()
    finally:
        doc.close()
    return pages


def draw(pages: list[Page]) -> bytes:
    """``pages`` on a fresh canvas with bare calls, saved as our sheets are saved."""
    buffer = io.BytesIO()
    first = pages[0]
    canvas = Canvas(buffer, pagesize=(first.width, first.height), invariant=1,
                    initialFontName=register())  # fmt: skip
    for page in pages:
        canvas.setPageSize((page.width, page.height))
        font: tuple[str, float] | None = None
        fill: tuple[float, float, float] | None = None
        for mark in page.marks:  # state is set only when it changes, as a hand would
            if isinstance(mark, Text):
                if font != (mark.font, mark.size):
                    canvas.setFont(mark.font, mark.size)
                    font = (mark.font, mark.size)
                if fill != mark.rgb:
                    canvas.setFillColorRGB(*mark.rgb)
                    fill = mark.rgb
                canvas.drawString(mark.x, mark.y, mark.text)
                continue
            path = canvas.beginPath()
            for op, points in mark.segments:
                if op == "m":
                    path.moveTo(*points)
                elif op == "l":
                    path.lineTo(*points)
                elif op == "c":
                    path.curveTo(*points)
                elif op == "r":
                    path.rect(*points)
                else:
                    path.close()
            if mark.fill is not None and fill != mark.fill:
                canvas.setFillColorRGB(*mark.fill)
                fill = mark.fill
            if mark.stroke is not None:
                canvas.setStrokeColorRGB(*mark.stroke)
                canvas.setLineWidth(mark.width)
                canvas.setDash(list(mark.dash) or [])
            canvas.drawPath(path, stroke=int(mark.stroke is not None),
                            fill=int(mark.fill is not None))  # fmt: skip
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _rgb(getter: Any, obj: Any) -> tuple[float, float, float]:
    r, g, b, a = (ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint())
    getter(obj, r, g, b, a)
    return (r.value / 255, g.value / 255, b.value / 255)


def _matrix(raw: Any, obj: Any) -> tuple[float, ...]:
    m = raw.FS_MATRIX()
    raw.FPDFPageObj_GetMatrix(obj, m)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _text(raw: Any, obj: Any, textpage: Any, fallback: str) -> Text:
    n = raw.FPDFTextObj_GetText(obj, textpage, None, 0)
    buffer = (ctypes.c_ushort * (n // 2 + 1))()
    raw.FPDFTextObj_GetText(obj, textpage, buffer, n)
    text = bytes(buffer)[: max(n - 2, 0)].decode("utf-16-le")
    size = ctypes.c_float()
    raw.FPDFTextObj_GetFontSize(obj, size)
    handle = raw.FPDFTextObj_GetFont(obj)
    name_buffer = ctypes.create_string_buffer(128)
    raw.FPDFFont_GetBaseFontName(handle, name_buffer, 128)
    name = name_buffer.value.decode("latin-1").split("+")[-1]
    a, b, _, _, e, f = _matrix(raw, obj)
    scale = (a * a + b * b) ** 0.5 or 1.0  # the size as drawn (a text matrix may scale it)
    fill = _rgb(raw.FPDFPageObj_GetFillColor, obj)
    return Text(name if name in _STANDARD else fallback, size.value * scale, e, f, fill, text)


def _path(raw: Any, obj: Any) -> Path | None:
    mode, stroke_on = ctypes.c_int(), ctypes.c_int()
    raw.FPDFPath_GetDrawMode(obj, mode, stroke_on)
    filled, stroked = mode.value != 0, bool(stroke_on.value)
    if not (filled or stroked):
        return None  # a clipping path: nothing drawn
    a, b, c, d, e, f = _matrix(raw, obj)
    segments: list[tuple[str, tuple[float, ...]]] = []
    pending: list[float] = []
    for i in range(raw.FPDFPath_CountSegments(obj)):
        segment = raw.FPDFPath_GetPathSegment(obj, i)
        px, py = ctypes.c_float(), ctypes.c_float()
        raw.FPDFPathSegment_GetPoint(segment, px, py)
        x, y = a * px.value + c * py.value + e, b * px.value + d * py.value + f
        kind = raw.FPDFPathSegment_GetType(segment)
        if kind == raw.FPDF_SEGMENT_BEZIERTO:
            pending += [x, y]
            if len(pending) == 6:
                segments.append(("c", tuple(pending)))
                pending = []
        else:
            segments.append(("m" if kind == raw.FPDF_SEGMENT_MOVETO else "l", (x, y)))
        if raw.FPDFPathSegment_GetClose(segment):
            segments.append(("h", ()))
    width = ctypes.c_float()
    raw.FPDFPageObj_GetStrokeWidth(obj, width)
    count = raw.FPDFPageObj_GetDashCount(obj)
    dash: tuple[float, ...] = ()
    if count > 0:
        array = (ctypes.c_float * count)()
        raw.FPDFPageObj_GetDashArray(obj, array, count)
        dash = tuple(array)
    return Path(
        _rectangles(segments),
        _rgb(raw.FPDFPageObj_GetFillColor, obj) if filled else None,
        _rgb(raw.FPDFPageObj_GetStrokeColor, obj) if stroked else None,
        width.value * abs(a * d - b * c) ** 0.5,  # as drawn (a card may be set smaller)
        dash,
    )


def _rectangles(
    segments: list[tuple[str, tuple[float, ...]]],
) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """Closed axis-aligned four-sided subpaths as rectangles (PDFium reads ``re`` back as a
    move, three lines and a close): the baseline draws them as our code does, in one call."""
    out: list[tuple[str, tuple[float, ...]]] = []
    i = 0
    while i < len(segments):
        run = segments[i : i + 5]
        kinds = "".join(op for op, _ in run)
        if kinds in ("mlllh", "mllll") and (kinds == "mlllh" or run[4][1] == run[0][1]):
            xs = sorted({round(p[0], 3) for _, p in run[:4]})
            ys = sorted({round(p[1], 3) for _, p in run[:4]})
            if len(xs) == 2 and len(ys) == 2:
                out.append(("r", (xs[0], ys[0], xs[1] - xs[0], ys[1] - ys[0])))
                i += 5
                continue
        out.append(segments[i])
        i += 1
    return tuple(out)
