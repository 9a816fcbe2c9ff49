"""Flowables for the cells of a printed grid: text that fits its cell, and the marks that
stand beside it (a colour dot, a seat's numbered square, a value, a tick).

Every mark carries a shape, a number or a word as well as a colour, so a sheet printed in
black and white, or read by a colour-blind player, loses nothing. Text is drawn with the
canvas directly (``fonts.fit`` has already chosen its lines and size): in a cell of fixed size
it shrinks, then wraps with kinsoku, then ends with an ellipsis, and never leaves the cell.
Names no game: a sheet module composes these.
"""

from __future__ import annotations

from typing import Any, Literal

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Table

from aids.print.fonts import ASCENT, DESCENT, Fitted, fit, measure, pieces, register, wrap

Align = Literal["left", "centre", "right"]
INK = colors.black
FAINT = colors.HexColor("#9a9a9a")
GRID_LINE = colors.HexColor("#555555")
SHADE = colors.HexColor("#eef1f5")
Style = list[tuple[Any, ...]]


class Grid(Table):  # type: ignore[misc]  # ReportLab is untyped
    """A table whose blank cells cost nothing: ReportLab draws an empty string in each ``""``
    cell (a text object apiece, most of a blank score sheet's time); here a blank cell in a
    row of fixed height holds no flowables instead. Rows whose height comes from their
    contents keep their ``""``: it gives them a line's height."""

    def __init__(self, data: Any, *args: Any, rowHeights: Any = None, **kw: Any) -> None:
        if rowHeights is None:
            fixed = [False] * len(data)
        elif isinstance(rowHeights, (int, float)):
            fixed = [True] * len(data)
        else:
            fixed = [r < len(rowHeights) and rowHeights[r] is not None for r in range(len(data))]
        rows = [
            [[] if cell == "" or cell is None else cell for cell in row] if fix else row
            for row, fix in zip(data, fixed, strict=True)
        ]
        super().__init__(rows, *args, rowHeights=rowHeights, **kw)


def ruled(head_rows: int, *, pad: float = 2.5) -> Style:
    """A grid's style: every cell ruled, a heavy box, shaded heading rows, contents centred
    in the height, and the sheet's font (ReportLab would otherwise start with Helvetica)."""
    return [
        ("FONT", (0, 0), (-1, -1), register(), 9),
        ("GRID", (0, 0), (-1, -1), 0.6, GRID_LINE),
        ("BOX", (0, 0), (-1, -1), 1.4, colors.black),
        ("BACKGROUND", (0, 0), (-1, head_rows - 1), SHADE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("LEFTPADDING", (0, 0), (-1, -1), pad),
        ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ("TOPPADDING", (0, 0), (-1, -1), 1.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2),
    ]


def unruled() -> Style:
    """A layout table's style: no lines, no padding, contents at the top."""
    return [
        ("FONT", (0, 0), (-1, -1), register(), 9),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        *((side, (0, 0), (-1, -1), 0) for side in ("TOPPADDING", "BOTTOMPADDING")),
        *((side, (0, 0), (-1, -1), 0) for side in ("LEFTPADDING", "RIGHTPADDING")),
    ]


def ink_on(fill: str) -> colors.Color:
    """Black or white, whichever reads better on ``fill`` (yellow takes black, navy white)."""
    c = colors.HexColor(fill)
    luminance = 0.299 * c.red + 0.587 * c.green + 0.114 * c.blue
    return colors.black if luminance > 0.55 else colors.white


class Mark:
    """Something drawn left of a text: ``width`` wide, centred on ``(x + width / 2, y)``."""

    width: float = 0.0

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        raise NotImplementedError


class Dot(Mark):
    """A filled circle in a colour, outlined so a pale colour still shows on white paper."""

    def __init__(self, fill: str, diameter: float = 8) -> None:
        self.fill, self.width = fill, diameter

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        c = canvas
        c.setFillColor(colors.HexColor(self.fill))
        c.setStrokeColor(colors.HexColor("#444444"))
        c.setLineWidth(0.4)
        r = self.width / 2
        c.circle(x + r, y, r, stroke=1, fill=1)


class SeatMark(Mark):
    """A seat's square with its number: filled in the seat's colour, or empty to write in."""

    def __init__(self, number: int, fill: str | None, side: float = 11) -> None:
        self.number, self.fill, self.width = number, fill, side

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        c = canvas
        side = self.width
        c.setLineWidth(0.5)
        c.setStrokeColor(colors.HexColor("#333333"))
        c.setFillColor(colors.HexColor(self.fill or "#ffffff"))
        c.roundRect(x, y - side / 2, side, side, 1.2, stroke=1, fill=1)
        size = side * 0.72
        c.setFillColor(ink_on(self.fill) if self.fill else FAINT)
        c.setFont(register(), size)
        c.drawCentredString(x + side / 2, y - size * 0.36, str(self.number))


class Centred(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """A mark alone in its cell, centred (a counter's numbered square in its slot)."""

    def __init__(self, mark: Mark) -> None:
        super().__init__()
        self.mark = mark
        self.avail = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.avail = availWidth
        return availWidth, self.mark.width

    def draw(self) -> None:
        self.mark.draw(self.canv, (self.avail - self.mark.width) / 2, self.mark.width / 2)


class TextBox(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """Text fitted to the width it is given and, in a cell (``grow=False``), to its height.

    ``mark`` is drawn before the text; ``strike`` crosses the text out with a filled bar (a
    fill, not a stroke, so it is never mistaken for a ruled line of the grid).
    """

    def __init__(
        self,
        text: str,
        size: float,
        *,
        min_size: float = 6,
        max_lines: int | None = None,
        align: Align = "left",
        colour: colors.Color = INK,
        mark: Mark | None = None,
        strike: bool = False,
        grow: bool = False,
        space_after: float = 0,
    ) -> None:
        super().__init__()
        self.text, self.size, self.min_size, self.max_lines = text, size, min_size, max_lines
        self.align, self.colour, self.mark = align, colour, mark
        self.strike, self.grow = strike, grow
        self.spaceAfter = space_after
        self.fitted = Fitted((), size, size)
        self.avail = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        gap = self.mark.width + 3 if self.mark else 0.0
        height = None if self.grow else availHeight
        # Running text (``grow``) wraps at its size; it shrinks only to keep within max_lines.
        shrink = not self.grow or self.max_lines is not None
        self.avail = availWidth
        self.fitted = fit(
            self.text,
            self.size,
            max(1.0, availWidth - gap),
            height,
            min_size=self.min_size if shrink else self.size,
            max_lines=self.max_lines,
        )
        tall = max(self.fitted.height, self.mark.width if self.mark else 0.0)
        self.width, self.height = availWidth, tall
        return availWidth, tall

    def draw(self) -> None:
        c = self.canv
        f = self.fitted
        gap = self.mark.width + 3 if self.mark else 0.0
        if self.mark:
            self.mark.draw(c, 0, self.height / 2)
        top = (self.height + f.height) / 2  # the lines are centred on the mark
        c.setFont(register(), f.size)
        c.setFillColor(self.colour)
        room = self.avail - gap
        for i, line in enumerate(f.lines):
            base = top - ASCENT * f.size - i * f.leading
            w = measure(line, f.size)
            x = gap + {"left": 0.0, "centre": (room - w) / 2, "right": room - w}[self.align]
            c.drawString(x, base, line)
            if self.strike:
                c.rect(x - 1, base + 0.3 * f.size, w + 2, max(0.8, f.size * 0.09), stroke=0, fill=1)


class Prose(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """Running text at a fixed size and line spacing, broken with kinsoku (``fonts.wrap``) and
    drawn as one text object: a paragraph with no markup, at a fraction of a ``Paragraph``'s
    cost (which splits Japanese into a fragment per character to wrap it again).

    ``bullet`` hangs left of the first line, the text indented by ``indent``. It does not
    split across frames: put it in a ``KeepInFrame`` or a table cell.
    """

    def __init__(
        self,
        text: str,
        size: float,
        leading: float,
        *,
        colour: colors.Color = INK,
        bullet: str = "",
        indent: float = 0,
        space_after: float = 0,
    ) -> None:
        super().__init__()
        self.text, self.size, self.leading, self.colour = text, size, leading, colour
        self.bullet, self.indent, self.spaceAfter = bullet, indent, space_after
        self.lines: list[str] = []

    def minWidth(self) -> float:  # ReportLab's name: a table sizes its columns by it
        """The widest piece that cannot be broken, and the indent: a column's least width."""
        widest = max((measure(p, self.size) for p in pieces(self.text)), default=0.0)
        return self.indent + widest

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.lines = wrap(self.text, max(1.0, availWidth - self.indent), self.size)
        self.width, self.height = availWidth, len(self.lines) * self.leading
        return self.width, self.height

    def draw(self) -> None:
        c, font = self.canv, register()
        # each line sits centred in a band ``leading`` high
        first = self.height - (self.leading - self.size) / 2 - ASCENT * self.size
        c.setFillColor(self.colour)
        if self.bullet:
            c.setFont(font, self.size)
            c.drawString(0, first, self.bullet)
        text = c.beginText(self.indent, first)
        text.setFont(font, self.size, self.leading)
        text.textLines(self.lines, trim=0)
        c.drawText(text)


class Value(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """A value printed large (white on a dark tile when ``inverse``), a small note below it."""

    def __init__(self, text: str, *, inverse: bool = False, note: str = "", size: float = 13):
        super().__init__()
        self.text, self.inverse, self.note, self.size = text, inverse, note, size
        self.note_fit = Fitted((), 6, 6)
        self.avail = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.avail = availWidth
        room = availHeight - self.size * 1.2 - 1.5
        if self.note and room >= 5:
            self.note_fit = fit(self.note, 6.5, availWidth, room, min_size=5, max_lines=1)
        self.width = availWidth
        self.height = self.size * 1.2 + (self.note_fit.height + 1.5 if self.note_fit.lines else 0)
        return availWidth, min(self.height, availHeight)

    def draw(self) -> None:
        c, font, s = self.canv, register(), self.size
        base = self.height - s * 1.2 + DESCENT * s + 1
        centre = self.avail / 2
        if self.inverse:
            w = max(measure(self.text, s), s * 0.7) + 5
            c.setFillColor(colors.HexColor("#222222"))
            c.roundRect(centre - w / 2, base - DESCENT * s - 1, w, s * 1.15, 2, stroke=0, fill=1)
            c.setFillColor(colors.white)
        else:
            c.setFillColor(INK)
        c.setFont(font, s)
        c.drawCentredString(centre, base, self.text)
        if self.note_fit.lines:
            c.setFillColor(INK)
            c.setFont(font, self.note_fit.size)
            c.drawCentredString(centre, DESCENT * self.note_fit.size, self.note_fit.lines[0])


class Tick(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """A box with a tick in it: done, in a shape that needs no colour."""

    def __init__(self, side: float = 11) -> None:
        super().__init__()
        self.side = side

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.avail = availWidth
        return availWidth, self.side

    def draw(self) -> None:
        c, s = self.canv, self.side
        x = (self.avail - s) / 2
        c.setLineWidth(0.8)
        c.rect(x, 0, s, s, stroke=1, fill=0)
        c.setLineWidth(1.6)
        path = c.beginPath()
        path.moveTo(x + 0.2 * s, 0.5 * s)
        path.lineTo(x + 0.42 * s, 0.22 * s)
        path.lineTo(x + 0.85 * s, 0.9 * s)
        c.drawPath(path, stroke=1, fill=0)
