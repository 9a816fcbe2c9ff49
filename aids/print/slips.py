"""The result slip of a table played on paper, printed: names, bubbles for each player's
place and each digit of their numbers, the QR code naming the table, four ArUco corner
markers, so a phone photo of the filled slip can be read back (``aids.scan``).

A slip is an A5 portrait page: a slip is a page is a photo, and A5 is what a player holds at
the table. ``slips_pdf(specs, paper="a4")`` puts two on each A4 landscape sheet with a cut
line between (the usual printer's paper; cut before the photo, as the reader takes one slip
per photo). The reader needs no paper size: it works in the slip's own coordinates between
the corner markers, so a slip printed smaller or larger reads the same. Where everything is
comes from ``slip_layout`` (re-exported here), the reader's source too. Names no game: the
caller gives the kind (for the printed game name), the names, the numbers' labels and digits.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, Literal

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from aids.core.i18n import t
from aids.print.fonts import ASCENT, fit, printable, register
from aids.print.qr import draw_qr
from aids.print.slip_layout import (
    FIELD_H,
    LABEL_W,
    MARKER,
    MARKER_INSET,
    NAME_H,
    PAGE,
    PITCH,
    QUIET,
    RADIUS,
    Block,
    Bubble,
    Layout,
    Marker,
    NumberField,
    Payload,
    Row,
    Shape,
    SlipSpec,
    event_tag,
    layout,
    layout_of,
    marker_cells,
    mm,
    parse_payload,
    payload,
    slip_check,
)

__all__ = [
    "PAGE", "Block", "Bubble", "Layout", "Marker", "NumberField", "Payload", "Row", "Shape",
    "SlipSpec", "draw_slip", "event_tag", "layout", "layout_of", "parse_payload", "payload",
    "slip_check", "slips_pdf",
]  # fmt: skip

INK = colors.HexColor("#505050")  # the circles: visible, but lighter than any pen
FAINT = colors.HexColor("#b8b8b8")  # the numbers inside the circles
GREY = colors.HexColor("#707070")


def draw_slip(canvas: Canvas, spec: SlipSpec) -> None:
    """Draw ``spec``'s slip on ``canvas`` as an A5 portrait page from (0, 0): translate the
    canvas first to put it elsewhere (``slips_pdf`` puts two on an A4 sheet so)."""
    font = register()
    lay = layout(spec)
    h = lay.height

    def text(x: float, top: float, words: str, size: float, width: float,
             height: float | None = None, colour: colors.Color = colors.black,
             lines: int | None = None) -> None:  # fmt: skip
        fitted = fit(printable(words, spec.lang), size, width, height, min_size=4.5,
                     max_lines=lines)  # fmt: skip
        canvas.setFillColor(colour)
        canvas.setFont(font, fitted.size)
        for n, line in enumerate(fitted.lines):
            canvas.drawString(x, h - top - fitted.size * ASCENT - n * fitted.leading, line)

    canvas.saveState()
    for marker in lay.markers:
        _draw_marker(canvas, marker, h)
    qx, qy, qs = lay.qr
    draw_qr(canvas, payload(spec), qx, h - qy - qs, qs)
    left = (MARKER_INSET + MARKER + QUIET) * mm
    width = qx - left - 2 * mm
    lang = spec.lang
    text(left, 7 * mm, t("scan.slip.title", lang), 8, width, colour=GREY)
    title = fit(printable(spec.event_title, lang), 13, width, 12 * mm, min_size=4.5)
    text(left, 11 * mm, spec.event_title, 13, width, 12 * mm, lines=2)
    below = 11 * mm + title.height + 2.5 * mm
    game = t(f"{spec.kind}.name", lang)
    subtitle = t("scan.slip.subtitle", lang, game=game, table=spec.table_label)
    text(left, below, subtitle, 10, width, 8 * mm, lines=2)
    below += fit(printable(subtitle, lang), 10, width, 8 * mm, min_size=4.5).height + 2.5 * mm
    text(left, below, t("scan.slip.check", lang, check=slip_check(spec)), 7, width, colour=GREY)
    if spec.off_slip:  # what the slip cannot take: players tell the organiser, who types it
        below += 4 * mm
        text(left, below, spec.off_slip, 7.5, width, 39 * mm - below, lines=3)
    _draw_instruction(canvas, spec, text, h)
    for block in lay.blocks:
        _draw_block(canvas, spec, lay, block, text, h)
    foot = t("scan.slip.footer", lang, event=spec.event_title)
    footer_left = (MARKER_INSET + MARKER + QUIET) * mm
    text(footer_left, h - 13 * mm, foot, 6, lay.width - 2 * footer_left, 6 * mm,
         colour=GREY, lines=2)  # fmt: skip
    canvas.restoreState()


def _draw_marker(canvas: Canvas, marker: Marker, h: float) -> None:
    cells = marker_cells(marker.id)
    cell = marker.side / len(cells)
    canvas.setFillColor(colors.black)
    path = canvas.beginPath()
    for r, line in enumerate(cells):
        for c, black in enumerate(line):
            if black:
                path.rect(marker.x + c * cell, h - marker.y - (r + 1) * cell, cell, cell)
    canvas.drawPath(path, stroke=0, fill=1)


def _circle(canvas: Canvas, bubble: Bubble, h: float, label: str = "") -> None:
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.5)
    canvas.circle(bubble.x, h - bubble.y, bubble.r, stroke=1, fill=0)
    if label:
        canvas.setFillColor(FAINT)
        canvas.setFont(register(), 5.2)
        canvas.drawCentredString(bubble.x, h - bubble.y - 5.2 * 0.35, label)


def _draw_instruction(canvas: Canvas, spec: SlipSpec, text: Any, h: float) -> None:
    """The instruction line, with a filled and a cancelled circle as examples."""
    top = 40.0 * mm
    left = 10 * mm
    samples = 40 * mm
    text(left, top, t("scan.slip.instruction", spec.lang), 7.5,
         PAGE[0] - 2 * left - samples, 10 * mm, lines=3)  # fmt: skip
    x = PAGE[0] - left - samples + 4 * mm
    y = top + 3 * mm
    filled = Bubble(x, y, RADIUS * mm)
    canvas.setFillColor(colors.black)
    canvas.circle(filled.x, h - filled.y, filled.r * 1.05, stroke=0, fill=1)
    text(x + 3.6 * mm, top + 1.4 * mm, t("scan.slip.sample_fill", spec.lang), 7, 14 * mm)
    crossed = Bubble(x + 19 * mm, y, RADIUS * mm)
    _circle(canvas, crossed, h)
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(1.2)
    d = crossed.r * 1.5
    canvas.line(crossed.x - d, h - crossed.y - d, crossed.x + d, h - crossed.y + d)
    canvas.line(crossed.x - d, h - crossed.y + d, crossed.x + d, h - crossed.y - d)
    text(crossed.x + 3.9 * mm, top + 1.4 * mm, t("scan.slip.sample_cross", spec.lang), 7,
         15 * mm)  # fmt: skip


def _draw_block(
    canvas: Canvas, spec: SlipSpec, lay: Layout, block: Block, text: Any, h: float
) -> None:
    """A player's name line, place row and each field's rows (its sign, its digits)."""
    lang = spec.lang
    name = t("scan.slip.player", lang, n=block.player + 1, name=spec.players[block.player])
    text(block.x, block.y + 0.6 * mm, name, 9.5, block.width, NAME_H * mm - 0.6 * mm)
    canvas.setStrokeColor(FAINT)
    canvas.setLineWidth(0.4)
    canvas.line(block.x, h - block.y, block.x + block.width, h - block.y)
    rows = [r for r in lay.rows if r.player == block.player]
    for row in rows:
        top = row.bubbles[0].y - PITCH * mm / 2
        if row.field is None:
            text(block.x, top + 1.2 * mm, t("scan.slip.place", lang), 7, LABEL_W * mm - 1 * mm,
                 PITCH * mm)  # fmt: skip
        else:
            field = spec.fields[row.field]
            first = row.sign or (row.digit == 0 and not field.signed)
            if first:  # the field's label above its first row
                text(block.x, top - FIELD_H * mm + 0.6 * mm, field.label, 7, block.width,
                     FIELD_H * mm)  # fmt: skip
            if row.sign:  # at the left, as "Place": a word near a circle looks like a ring
                text(block.x, top + 1.2 * mm, t("scan.slip.sign", lang), 7,
                     LABEL_W * mm - 1 * mm, PITCH * mm)  # fmt: skip
            else:
                label = f"×{10 ** (field.digits - 1 - (row.digit or 0)):,}"
                canvas.setFillColor(GREY)
                canvas.setFont(register(), 6)
                canvas.drawRightString(block.x + (LABEL_W - 1.2) * mm,
                                       h - row.bubbles[0].y - 2.1, label)  # fmt: skip
        for value, bubble in zip(row.values, row.bubbles, strict=True):
            if row.sign:  # + and −, larger than a digit, as faint (never read as a mark)
                _circle(canvas, bubble, h)
                canvas.setFillColor(FAINT)
                canvas.setFont(register(), 8)
                canvas.drawCentredString(bubble.x, h - bubble.y - 8 * 0.35,
                                         "+" if value > 0 else "−")  # fmt: skip
            else:
                _circle(canvas, bubble, h, str(value))


def slips_pdf(specs: Sequence[SlipSpec], paper: Literal["a5", "a4"] = "a5") -> bytes:
    """The slips in the order given: one per A5 page, or two per A4 landscape page (side by
    side, a dashed cut line between). Byte-identical for the same specs."""
    buffer = io.BytesIO()
    w, h = PAGE
    two_up = paper == "a4"
    canvas = Canvas(buffer, pagesize=(2 * w, h) if two_up else PAGE, invariant=1,
                    pageCompression=1)  # fmt: skip
    canvas.setTitle(t("scan.slip.title", specs[0].lang) if specs else "")
    per_page = 2 if two_up else 1
    for start in range(0, len(specs), per_page):
        for n, spec in enumerate(specs[start : start + per_page]):
            canvas.saveState()
            canvas.translate(n * w, 0)
            draw_slip(canvas, spec)
            canvas.restoreState()
        if two_up:
            canvas.saveState()
            canvas.setStrokeColor(FAINT)
            canvas.setDash(3, 3)
            canvas.line(w, 4 * mm, w, h - 4 * mm)
            canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
