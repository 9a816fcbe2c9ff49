"""The print frame every sheet shares: paper, document template, header with title, players
and QR code, styles in the embedded Japanese font, and text that fits its box (``fonts.fit``).

A game's sheet module gives only its body: ``story(snapshot, lang, width, styles)`` returns
the flowables below the header (see ``GameSheet``). ``render_sheet`` does the rest, so every
sheet of every game has the same header, the same QR rules and the same metadata.
"""

from __future__ import annotations

import inspect
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A3, A4, landscape, letter, portrait
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
)

from aids.core.i18n import t
from aids.core.links import home_url, viewer_url
from aids.games.base import AnyGame
from aids.print.cells import TextBox
from aids.print.fonts import ASCENT, fit, register
from aids.print.qr import draw_qr
from aids.tables import Snapshot

PAPERS = {"a4": A4, "letter": letter, "a3": A3}
MARGIN = 12 * mm
CAPTION_WIDTH = 42 * mm  # the QR code's caption and link, in a column left of it
QR_SIZE = 30 * mm  # printed ≥ 20 mm so a phone reads it from arm's length
QR_GAP = 4 * mm

Styles = dict[str, ParagraphStyle]
Orientation = Literal["portrait", "landscape"]
ORIENTATIONS: tuple[Orientation, ...] = ("portrait", "landscape")


class GameSheet(Protocol):
    """What a game's sheet module provides (``aids/print/<kind>/sheet.py``)."""

    def story(
        self, snapshot: Snapshot | None, lang: str, width: float, styles: Styles
    ) -> list[Flowable]:
        """The body below the header: a blank sheet when ``snapshot`` is None.

        A sheet whose ``story`` also takes a keyword ``seat_links`` (seat index → that seat's
        private link) is given the links ``render_sheet`` was given; others never see them.
        """
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
    """Paragraph styles in the embedded font; Japanese wraps between any two characters.

    ReportLab's CJK wrapping may end a line on an opening bracket: for text that must keep
    kinsoku, use ``cells.TextBox`` (as ``rulings`` does).
    """
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


def rulings(game: AnyGame, lang: str, sheet_styles: Styles) -> list[Flowable]:
    """The game's rulings, from the same message keys as the page and the rule cards.

    Wrapped with kinsoku (``fonts.wrap``): no line ends on an opening bracket.
    """
    small = sheet_styles["small"].fontSize
    out: list[Flowable] = [
        TextBox(t("table.rulings", lang), sheet_styles["rule_title"].fontSize, grow=True)
    ]
    for key in game.info.rulings:
        out.append(TextBox("• " + t(key, lang), small, grow=True, space_after=1.5))
    return out


def join_list(items: Sequence[str], lang: str) -> str:
    """Names or cards in a row: ``あき・ちえ`` in Japanese, ``Aki, Chie`` in English."""
    return ("・" if lang == "ja" else ", ").join(items)


def page_size(game: AnyGame, paper: str) -> tuple[float, float]:
    size = PAPERS.get(paper, A4)
    oriented = landscape(size) if game.info.sheet_orientation == "landscape" else portrait(size)
    return float(oriented[0]), float(oriented[1])


def turn_to(orientation: Orientation) -> list[Flowable]:
    """Go on on a new page turned ``orientation`` (the same paper): a sheet's story puts these
    between its parts, e.g. a landscape board inside portrait sheets. The header follows the
    turn (its QR code top right); a flowable that fills the page sizes itself in ``wrap``."""
    return [NextPageTemplate(orientation), PageBreak()]


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
    return SheetHeader(
        snapshot.info.title,
        subtitle,
        (t("sheet.players_line", lang, names=join_list(snapshot.seats, lang)), how_to),
        viewer_url(base_url, snapshot.info.public_id, lang),
        t("sheet.qr_viewer", lang),
    )


@dataclass(frozen=True, slots=True)
class Placed:
    """One line of the header at its place: baseline ``y``, anchored left or right at ``x``."""

    text: str
    x: float
    y: float
    size: float
    right: bool = False


@dataclass(frozen=True, slots=True)
class HeaderLayout:
    """Where every line of the header goes, and how tall the header is (the body starts below)."""

    lines: tuple[Placed, ...]
    qr: tuple[float, float, float]  # x, y of the lower-left corner, size
    height: float


def qr_rect(size: tuple[float, float]) -> tuple[float, float, float, float]:
    """The QR code's box on the page (x0, y0, x1, y1): no text may enter it."""
    x0, y1 = size[0] - MARGIN - QR_SIZE, size[1] - MARGIN
    return x0, y1 - QR_SIZE, x0 + QR_SIZE, y1


def _block(
    text: str,
    top: float,
    x: float,
    box: tuple[float, float, float],
    *,
    min_size: float = 6,
    right: bool = False,
) -> tuple[list[Placed], float]:
    """``text`` fitted in a box (width, height, font size) whose top is at ``top``: its lines,
    anchored at ``x`` on the left (or the right), and the bottom of what they took."""
    width, height, size = box
    fitted = fit(text, size, width, height, min_size=min_size)
    lines = [
        Placed(line, x, top - ASCENT * fitted.size - i * fitted.leading, fitted.size, right)
        for i, line in enumerate(fitted.lines)
    ]
    return lines, top - fitted.height


def header_layout(size: tuple[float, float], header: SheetHeader) -> HeaderLayout:
    """Title, subtitle and the two lines on the left; the QR code top right with its caption
    and link in a column beside it. Each text shrinks, wraps, then ends with an ellipsis in
    its own box, so nothing runs into the QR code or its caption however long the title or the
    players' names (the full names are listed here, wrapped, for cells that had to cut them).
    """
    top = size[1] - MARGIN
    qr_x, qr_y, _, _ = qr_rect(size)
    right = qr_x - QR_GAP  # the caption column's right edge
    width = right - CAPTION_WIDTH - QR_GAP - MARGIN
    # Boxes (width, height, size): the title takes one line at 20 pt or two at 13 pt and less;
    # the players' line up to three small lines, the how-to two.
    placed, y = _block(header.title, top, MARGIN, (width, 28, 20), min_size=11)
    more, y = _block(header.subtitle, y - 4, MARGIN, (width, 11, 11), min_size=7)
    placed += more
    for text, height in zip(header.lines[:2], (23, 19.5), strict=False):
        more, y = _block(text, y - 4, MARGIN, (width, height, 9), min_size=6.5)
        placed += more
    more, below = _block(header.qr_caption, top, right, (CAPTION_WIDTH, 18, 8), right=True)
    placed += more
    link = (CAPTION_WIDTH, 22, 6.5)
    more, _ = _block(header.qr_url, below - 3, right, link, min_size=5, right=True)
    placed += more
    return HeaderLayout(tuple(placed), (qr_x, qr_y, QR_SIZE), max(top - y, QR_SIZE) + 3 * mm)


def _draw_header(canvas: Canvas, layout: HeaderLayout, url: str) -> None:
    font = register()
    canvas.saveState()
    for line in layout.lines:
        canvas.setFont(font, line.size)
        if line.right:
            canvas.drawRightString(line.x, line.y, line.text)
        else:
            canvas.drawString(line.x, line.y, line.text)
    draw_qr(canvas, url, *layout.qr)
    canvas.restoreState()


def build_pdf(
    header: SheetHeader,
    story: Sequence[Flowable],
    *,
    size: tuple[float, float],
    lang: str,
    author: str,
    extra_templates: Sequence[PageTemplate] = (),
) -> bytes:
    """One document: the header on every page, ``story`` in the frame below it. ``size`` is
    the first page's; ``turn_to`` in the story turns later pages (the same paper);
    ``extra_templates`` are other page layouts the story may turn to (the rule cards)."""
    font = register()
    layout = header_layout(size, header)
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=size,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN + layout.height,
        bottomMargin=MARGIN,
        title=header.title,
        author=author,
        subject=header.subtitle,
        lang=lang,
        initialFontName=font,  # no stray, unembedded Helvetica in the page resources
        invariant=1,  # no time stamp or random id: the same table prints the same bytes
    )
    doc.addPageTemplates(header_templates(header, size) + list(extra_templates))
    doc.build(list(story))
    return buffer.getvalue()


def header_templates(
    header: SheetHeader, size: tuple[float, float], prefix: str = ""
) -> list[PageTemplate]:
    """The two page templates of a sheet under ``header``: its own orientation (``size``)
    first, then the other one, which ``turn_to`` switches to. ``prefix`` names them apart in a
    document of several sheets (an event's print pack)."""
    first = "landscape" if size[0] > size[1] else "portrait"
    return [
        _template(orientation, size, header, prefix)
        for orientation in sorted(ORIENTATIONS, key=lambda o: o != first)
    ]


def _template(
    orientation: Orientation, paper: tuple[float, float], header: SheetHeader, prefix: str = ""
) -> Any:
    """A page turned ``orientation``: the header laid out for that size, the body under it."""
    turned = landscape(paper) if orientation == "landscape" else portrait(paper)
    size = (float(turned[0]), float(turned[1]))
    layout = header_layout(size, header)
    # No padding: the body is exactly ``body_width`` wide, inside the margins.
    body = Frame(
        MARGIN,
        MARGIN,
        size[0] - 2 * MARGIN,
        size[1] - 2 * MARGIN - layout.height,
        id=f"body-{orientation}",
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )

    def on_page(canvas: Canvas, _doc: BaseDocTemplate) -> None:
        _draw_header(canvas, layout, header.qr_url)

    return PageTemplate(id=prefix + orientation, frames=[body], onPage=on_page, pagesize=size)


def body_width(size: tuple[float, float]) -> float:
    return float(size[0] - 2 * MARGIN)


def render_sheet(
    sheet: Any,
    game: AnyGame,
    snapshot: Snapshot | None,
    base_url: str,
    lang: str,
    paper: str = "a4",
    *,
    seat_links: Mapping[int, str] | None = None,
) -> bytes:
    """A game's sheet as PDF bytes: the frame's header, the game's ``story`` below it.

    ``snapshot`` is the table as a viewer sees it (a printed sheet is public), or None for the
    blank sheet printed before game night. The header's QR code is always the viewer link.
    ``seat_links`` (seat index, from 0 → that seat's private link, key included) go to a sheet
    whose ``story`` takes them, to print each on its seat's own page; other sheets ignore them.
    """
    size = page_size(game, paper)
    game_sheet: GameSheet = sheet
    snapshot = snapshot.in_language(game, lang) if snapshot is not None else None
    extra: dict[str, Any] = {}
    if seat_links is not None and _takes(game_sheet.story, "seat_links"):
        extra["seat_links"] = dict(seat_links)
    story = game_sheet.story(snapshot, lang, body_width(size), styles(lang), **extra)
    return build_pdf(
        header_for(game, snapshot, base_url, lang),
        story,
        size=size,
        lang=lang,
        author=t("app.name", lang),
    )


def _takes(function: Any, keyword: str) -> bool:
    """Does ``function`` accept the keyword argument ``keyword``?"""
    parameters = inspect.signature(function).parameters.values()
    return any(
        (p.name == keyword and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))
        or p.kind == p.VAR_KEYWORD
        for p in parameters
    )
