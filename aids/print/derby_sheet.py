"""The Derby score sheet: horse × fence grid with counter slots, scoring table, QR code.

``build_derby_sheet(view, lang)`` is a function of a small view so the same code prints a
table's sheet (title and players filled in, QR to its viewer link) and the blank sheet for
printing before game night (QR to the tracker's home page).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from aids.core.i18n import t
from aids.core.links import viewer_url
from aids.core.tables import Snapshot
from aids.games.derby.data import load
from aids.games.derby.model import DerbyState
from aids.print.fonts import register
from aids.print.qr import draw_qr

PAPERS = {"a4": landscape(A4), "letter": landscape(letter)}
MARGIN = 12 * mm
HEADER = 32 * mm
QR_SIZE = 30 * mm  # printed ≥ 20 mm so a phone reads it from arm's length
GRID_LINE = colors.HexColor("#555555")
SHADE = colors.HexColor("#eef1f5")


@dataclass(frozen=True, slots=True)
class Named:
    name: str
    hex: str


@dataclass(frozen=True, slots=True)
class DerbySheetView:
    """What the sheet shows; ``title is None`` means the blank sheet."""

    title: str | None
    players: tuple[Named, ...]
    horses: tuple[Named, ...]
    qr_url: str
    qr_is_viewer: bool


def sheet_view(snapshot: Snapshot, base_url: str, lang: str) -> DerbySheetView:
    """The sheet of a live table: its title, players and horses; QR to its viewer link."""
    state: DerbyState = snapshot.state
    data = load()
    return DerbySheetView(
        title=snapshot.info.title,
        players=tuple(
            Named(p.name, _hex(data.counter_colour(p.colour))) for p in state.setup.players
        ),
        horses=tuple(Named(h.name, _hex(data.horse_colour(h.colour))) for h in state.setup.horses),
        qr_url=viewer_url(base_url, snapshot.info.public_id, lang),
        qr_is_viewer=True,
    )


def blank_view(base_url: str, lang: str) -> DerbySheetView:
    """The sheet before game night: default horses, empty player lines, QR to the tracker."""
    data = load()
    return DerbySheetView(
        title=None,
        players=tuple(Named("", "#ffffff") for _ in range(data.max_players)),
        horses=tuple(Named(c.name(lang), c.hex) for c in data.horse_colours),
        qr_url=f"{base_url.rstrip('/')}/?lang={lang}",
        qr_is_viewer=False,
    )


def _hex(colour: Any) -> str:
    return str(colour.hex) if colour is not None else "#999999"


def build_derby_sheet(view: DerbySheetView, lang: str, paper: str = "a4") -> bytes:
    """Render the sheet to PDF bytes (one landscape page)."""
    font = register()
    size = PAPERS[paper]
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=size,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN + HEADER,
        bottomMargin=MARGIN,
        title=view.title or t("derby.sheet.blank_title", lang),
        author=t("app.name", lang),
        subject=t("derby.sheet.subtitle", lang),
        lang=lang,
        initialFontName=font,  # no stray, unembedded Helvetica in the page resources
    )
    frame = Frame(
        doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body", showBoundary=0
    )
    doc.addPageTemplates(
        [PageTemplate(id="sheet", frames=[frame], onPage=lambda c, d: _header(c, d, view, lang))]
    )
    styles = _styles(font, lang)
    doc.build(
        [
            _grid(view, lang, doc.width, styles),
            Spacer(1, 4 * mm),
            _bottom(view, lang, doc.width, styles),
        ]
    )
    return buffer.getvalue()


def _styles(font: str, lang: str) -> dict[str, ParagraphStyle]:
    # CJK wrapping breaks between any two characters: right for Japanese, wrong for English.
    wrap = "CJK" if lang == "ja" else None
    base = ParagraphStyle("base", fontName=font, fontSize=9, leading=11, wordWrap=wrap)
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9.5),
        "head": ParagraphStyle("head", parent=base, fontSize=9, leading=11, alignment=TA_CENTER),
        "horse": ParagraphStyle("horse", parent=base, fontSize=10, leading=12),
        "rule_title": ParagraphStyle("rule_title", parent=base, fontSize=9.5, leading=12),
    }


def _header(canvas: Canvas, doc: BaseDocTemplate, view: DerbySheetView, lang: str) -> None:
    font = register()
    width, height = doc.pagesize
    top = height - MARGIN
    canvas.saveState()
    canvas.setFont(font, 20)
    canvas.drawString(MARGIN, top - 8 * mm, view.title or t("derby.sheet.blank_title", lang))
    canvas.setFont(font, 11)
    canvas.drawString(MARGIN, top - 15 * mm, t("derby.sheet.subtitle", lang))
    canvas.setFont(font, 9)
    if view.title is None:
        canvas.drawString(MARGIN, top - 22 * mm, t("derby.sheet.date_line", lang))
    else:
        names = (
            "・".join(p.name for p in view.players)
            if lang == "ja"
            else ", ".join(p.name for p in view.players)
        )
        canvas.drawString(MARGIN, top - 22 * mm, t("derby.sheet.players_line", lang, names=names))
    canvas.drawString(MARGIN, top - 28 * mm, t("derby.sheet.how_to", lang))
    qr_x = width - MARGIN - QR_SIZE
    draw_qr(canvas, view.qr_url, qr_x, top - QR_SIZE, QR_SIZE)
    canvas.setFont(font, 8)
    caption = t("derby.sheet.qr_viewer" if view.qr_is_viewer else "derby.sheet.qr_tracker", lang)
    canvas.drawRightString(qr_x - 2 * mm, top - 6 * mm, caption)
    canvas.setFont(font, 6.5)
    canvas.drawRightString(qr_x - 2 * mm, top - 11 * mm, view.qr_url[:90])
    canvas.restoreState()


def _grid(
    view: DerbySheetView, lang: str, width: float, styles: dict[str, ParagraphStyle]
) -> Table:
    """Horses × fences: for fences 1–4 a counter slot then the card column; fence 5 has none."""
    data = load()
    payout = data.payout
    head, small, horse_style = styles["head"], styles["small"], styles["horse"]
    # relative widths: row no., horse, (slot, card) × 4, card 5, finished
    weights = [3, 15] + [5.5, 11] * 4 + [11, 6]
    unit = width / sum(weights)
    col_widths = [w * unit for w in weights]
    fence_row: list[Any] = ["", ""]
    sub_row: list[Any] = [
        Paragraph("#", head),
        Paragraph(t("derby.sheet.horse", lang), head),
    ]
    for fence in range(1, data.fences + 1):
        label = Paragraph(t("derby.sheet.fence", lang, n=fence), head)
        if fence in payout:
            fence_row += [label, ""]
            sub_row += [
                Paragraph(t("derby.sheet.slot", lang, points=payout[fence]), small),
                Paragraph(t("derby.sheet.card", lang), head),
            ]
        else:
            fence_row += [label]
            sub_row += [Paragraph(t("derby.sheet.card", lang), head)]
    fence_row += [Paragraph(t("derby.sheet.finished", lang), small)]
    sub_row += [""]
    rows: list[list[Any]] = [fence_row, sub_row]
    for i, horse in enumerate(view.horses, start=1):
        swatch = f'<font color="{horse.hex}" size="13">■</font> {escape(horse.name)}'
        cells: list[Any] = [Paragraph(str(i), head), Paragraph(swatch, horse_style)]
        for fence in range(1, data.fences + 1):
            cells += ["○", ""] if fence in payout else [""]
        rows.append([*cells, "□"])
    table = Table(rows, colWidths=col_widths, rowHeights=[6 * mm, 8 * mm] + [9.5 * mm] * 8)
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), register(), 9),
        ("GRID", (0, 0), (-1, -1), 0.6, GRID_LINE),
        ("BOX", (0, 0), (-1, -1), 1.4, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("BACKGROUND", (0, 0), (-1, 1), SHADE),
        ("TEXTCOLOR", (2, 2), (-1, -1), colors.HexColor("#b0b0b0")),
        ("FONTSIZE", (2, 2), (-1, -1), 14),
        ("SPAN", (0, 0), (1, 0)),
        ("SPAN", (-1, 0), (-1, 1)),
    ]
    col = 2
    for fence in range(1, data.fences + 1):
        if fence in payout:
            style += [
                ("SPAN", (col, 0), (col + 1, 0)),
                ("BACKGROUND", (col, 2), (col, -1), colors.HexColor("#fafafa")),
                ("LINEAFTER", (col + 1, 0), (col + 1, -1), 1.4, colors.black),
            ]
            col += 2
        else:
            style.append(("LINEAFTER", (col, 0), (col, -1), 1.4, colors.black))
            col += 1
    table.setStyle(TableStyle(style))
    return table


def _bottom(
    view: DerbySheetView, lang: str, width: float, styles: dict[str, ParagraphStyle]
) -> Table:
    """Scoring table (left) and the rulings the program assumes (right)."""
    data = load()
    head, base = styles["head"], styles["base"]
    score_rows: list[list[Any]] = [
        [Paragraph(t("derby.sheet.player", lang), head)]
        + [
            Paragraph(t("derby.sheet.score_col", lang, n=f, points=p), head)
            for f, p in data.payout.items()
        ]
        + [Paragraph(t("derby.sheet.total", lang), head)]
    ]
    for player in view.players:
        name = (
            f'<font color="{player.hex}" size="12">●</font> {escape(player.name)}'
            if player.name
            else ""
        )
        score_rows.append(
            [Paragraph(name, base)] + [f"   × {p} =" for p in data.payout.values()] + [""]
        )
    score_width = width * 0.6
    weights = [4] + [3] * len(data.payout) + [2.2]
    unit = score_width / sum(weights)
    score = Table(
        score_rows,
        colWidths=[w * unit for w in weights],
        rowHeights=[9 * mm] + [7.5 * mm] * len(view.players),
    )
    score.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), register(), 8),
                ("GRID", (0, 0), (-1, -1), 0.6, GRID_LINE),
                ("BOX", (0, 0), (-1, -1), 1.4, colors.black),
                ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
                ("TEXTCOLOR", (1, 1), (-1, -1), colors.HexColor("#888888")),
                ("LINEBEFORE", (-1, 0), (-1, -1), 1.4, colors.black),
            ]
        )
    )
    counters = t(
        "derby.sheet.counters_note",
        lang,
        small=data.counters[2],
        large=data.counters[4],
    )
    rulings = [Paragraph(t("derby.rulings.title", lang), styles["rule_title"])]
    for key in ("one_per_slot", "tie_farthest", "share_win", "pass_tracking", "no_cards_left"):
        rulings.append(Paragraph("• " + t(f"derby.rulings.{key}", lang), styles["small"]))
    rulings.append(Paragraph(counters, styles["small"]))
    outer = Table(
        [[score, rulings]], colWidths=[score_width + 4 * mm, width - score_width - 4 * mm]
    )
    outer.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), register(), 9),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ("LEFTPADDING", (0, 0), (0, 0), 0),
                ("LEFTPADDING", (1, 0), (1, 0), 4 * mm),
            ]
        )
    )
    return outer
