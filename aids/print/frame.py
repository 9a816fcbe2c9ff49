"""The print frame every sheet shares: paper, document template, header with title, players
and QR code, styles in the embedded Japanese font, and text that fits its box.

A game's sheet module gives only its body: ``story(snapshot, lang, width, styles)`` returns
the flowables below the header (see ``GameSheet``). ``render_sheet`` does the rest, so every
sheet of every game has the same header, the same QR rules and the same metadata.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from xml.sax.saxutils import escape

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, landscape, letter, portrait
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph

from aids.core.i18n import t
from aids.core.links import home_url, viewer_url
from aids.games.base import AnyGame
from aids.print.fonts import register
from aids.print.qr import draw_qr
from aids.tables import Snapshot

PAPERS = {"a4": A4, "letter": letter}
MARGIN = 12 * mm
HEADER = 32 * mm
QR_SIZE = 30 * mm  # printed ≥ 20 mm so a phone reads it from arm's length
QR_GAP = 4 * mm

Styles = dict[str, ParagraphStyle]


class GameSheet(Protocol):
    """What a game's sheet module provides (``aids/print/<kind>_sheet.py``)."""

    def story(
        self, snapshot: Snapshot | None, lang: str, width: float, styles: Styles
    ) -> list[Flowable]:
        """The body below the header: a blank sheet when ``snapshot`` is None."""
        ...


@dataclass(frozen=True, slots=True)
class SheetHeader:
    """The fixed top of every sheet: title, subtitle, lines of text, and the QR code."""

    title: str
    subtitle: str
    lines: tuple[str, ...]
    qr_url: str
    qr_caption: str


def styles(lang: str) -> Styles:
    """Paragraph styles in the embedded font; Japanese wraps between any two characters."""
    font = register()
    # CJK wrapping breaks between any two characters: right for Japanese, wrong for English.
    wrap = "CJK" if lang == "ja" else None
    base = ParagraphStyle("base", fontName=font, fontSize=9, leading=11, wordWrap=wrap)
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9.5),
        "head": ParagraphStyle("head", parent=base, alignment=TA_CENTER),
        "name": ParagraphStyle("name", parent=base, fontSize=10, leading=12),
        "rule_title": ParagraphStyle("rule_title", parent=base, fontSize=9.5, leading=12),
    }


def fit_line(
    text: str, font: str, size: float, width: float, *, min_size: float = 6
) -> tuple[str, float]:
    """Shrink ``text`` to fit ``width`` down to ``min_size``, then cut it with an ellipsis.

    >>> fit_line("Friday", "Helvetica", 10, 200)
    ('Friday', 10)
    >>> fit_line("x" * 400, "Helvetica", 10, 100)[0].endswith("…")
    True
    """
    while size > min_size and stringWidth(text, font, size) > width:
        size = max(min_size, size - 0.5)
    if stringWidth(text, font, size) <= width:
        return text, size
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…", size


def rulings(game: AnyGame, lang: str, sheet_styles: Styles) -> list[Flowable]:
    """The game's rulings, from the same message keys as the page and the rule cards."""
    out: list[Flowable] = [Paragraph(escape(t("table.rulings", lang)), sheet_styles["rule_title"])]
    for key in game.info.rulings:
        out.append(Paragraph("• " + escape(t(key, lang)), sheet_styles["small"]))
    return out


def page_size(game: AnyGame, paper: str) -> tuple[float, float]:
    size = PAPERS.get(paper, A4)
    oriented = landscape(size) if game.info.sheet_orientation == "landscape" else portrait(size)
    return float(oriented[0]), float(oriented[1])


def header_for(game: AnyGame, snapshot: Snapshot | None, base_url: str, lang: str) -> SheetHeader:
    """A table's header (its title and players, QR to its viewer link) or the blank one
    (a line to write the date and players, QR to the tracker)."""
    kind = game.info.kind
    subtitle = t(f"{kind}.sheet.subtitle", lang)
    how_to = t(f"{kind}.sheet.how_to", lang)
    if snapshot is None:
        return SheetHeader(
            t(game.info.name_key, lang),
            subtitle,
            (t("sheet.date_line", lang), how_to),
            home_url(base_url, lang),
            t("sheet.qr_tracker", lang),
        )
    joiner = "・" if lang == "ja" else ", "
    return SheetHeader(
        snapshot.info.title,
        subtitle,
        (t("sheet.players_line", lang, names=joiner.join(snapshot.seats)), how_to),
        viewer_url(base_url, snapshot.info.public_id, lang),
        t("sheet.qr_viewer", lang),
    )


def _draw_header(canvas: Canvas, size: tuple[float, float], header: SheetHeader) -> None:
    font = register()
    width, height = size
    top = height - MARGIN
    qr_x = width - MARGIN - QR_SIZE
    text_width = qr_x - QR_GAP - MARGIN
    canvas.saveState()
    title, title_size = fit_line(header.title, font, 20, text_width, min_size=11)
    canvas.setFont(font, title_size)
    canvas.drawString(MARGIN, top - 8 * mm, title)
    line, line_size = fit_line(header.subtitle, font, 11, text_width)
    canvas.setFont(font, line_size)
    canvas.drawString(MARGIN, top - 15 * mm, line)
    for i, text in enumerate(header.lines[:2]):
        line, line_size = fit_line(text, font, 9, text_width)
        canvas.setFont(font, line_size)
        canvas.drawString(MARGIN, top - (22 + 6 * i) * mm, line)
    draw_qr(canvas, header.qr_url, qr_x, top - QR_SIZE, QR_SIZE)
    caption, caption_size = fit_line(header.qr_caption, font, 8, 60 * mm)
    canvas.setFont(font, caption_size)
    canvas.drawRightString(qr_x - 2 * mm, top - 3 * mm, caption)
    url, url_size = fit_line(header.qr_url, font, 6.5, 60 * mm, min_size=5)
    canvas.setFont(font, url_size)
    canvas.drawRightString(qr_x - 2 * mm, top - 7 * mm, url)
    canvas.restoreState()


def build_pdf(
    header: SheetHeader,
    story: Sequence[Flowable],
    *,
    size: tuple[float, float],
    lang: str,
    author: str,
) -> bytes:
    """One document: the header on every page, ``story`` in the frame below it."""
    font = register()
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=size,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN + HEADER,
        bottomMargin=MARGIN,
        title=header.title,
        author=author,
        subject=header.subtitle,
        lang=lang,
        initialFontName=font,  # no stray, unembedded Helvetica in the page resources
    )
    body = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body")
    doc.addPageTemplates(
        [PageTemplate(id="sheet", frames=[body], onPage=lambda c, d: _draw_header(c, size, header))]
    )
    doc.build(list(story))
    return buffer.getvalue()


def body_width(size: tuple[float, float]) -> float:
    return float(size[0] - 2 * MARGIN)


def render_sheet(
    sheet: Any,
    game: AnyGame,
    snapshot: Snapshot | None,
    base_url: str,
    lang: str,
    paper: str = "a4",
) -> bytes:
    """A game's sheet as PDF bytes: the frame's header, the game's ``story`` below it.

    ``snapshot`` is the table as a viewer sees it (a printed sheet is public), or None for the
    blank sheet printed before game night.
    """
    size = page_size(game, paper)
    game_sheet: GameSheet = sheet
    story = game_sheet.story(snapshot, lang, body_width(size), styles(lang))
    return build_pdf(
        header_for(game, snapshot, base_url, lang),
        story,
        size=size,
        lang=lang,
        author=t("app.name", lang),
    )
