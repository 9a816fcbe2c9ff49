"""Rule cards: each game's rules in our own words, in Japanese and English.

The words live in ``templates/cards/<kind>.<lang>.toml`` (a translator edits them without
touching code); the numbers in them (``{prizes}``) and the key tables come from the game's
sheet module (``card_values()``, ``card_table(id, lang)``), which reads the same ``seeds/``
data as the engine, so the printed rules and the tracker cannot disagree. The rulings are the
game's own rulings, from the same message keys as the page and the sheets.

Two formats: A6 cards 4-up on A4 with cut marks (both languages: each card's Japanese and
English side by side in one row), and a one-page A4 summary per language. Every card carries a
QR code — the game's page on the tracker, or the table's viewer link — with the link under it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    Frame,
    FrameBreak,
    KeepInFrame,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from aids.core.errors import DataError
from aids.core.i18n import t
from aids.games.base import AnyGame
from aids.paths import TEMPLATES
from aids.print.fonts import register, wrap
from aids.print.qr import draw_qr

CARD_W, CARD_H = A4[0] / 2, A4[1] / 2  # an A6 card: a quarter of A4 (105 × 148.5 mm)
PAD = 7 * mm  # the card's inner margin: the cut leaves it whole
QR = 19 * mm
MARK = 4 * mm  # cut-mark length outside the cards' corners
CARDS_TEMPLATE = "cards"


@dataclass(frozen=True, slots=True)
class CardText:
    heading: str
    body: str
    table: str | None = None


@dataclass(frozen=True, slots=True)
class GameCards:
    title: str
    cards: tuple[CardText, ...]


@cache
def load_cards(kind: str, lang: str) -> GameCards:
    """A game's card texts in ``lang``, checked once."""
    path = TEMPLATES / "cards" / f"{kind}.{lang}.toml"
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
        cards = tuple(
            CardText(str(c["heading"]), str(c["body"]).strip(), c.get("table"))
            for c in raw["cards"]
        )
        return GameCards(str(raw["title"]), cards)
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise DataError("seeds/invalid", file=path.name, detail=str(exc)[:120]) from None


def _styles(lang: str) -> dict[str, ParagraphStyle]:
    font = register()
    wrap = "CJK" if lang == "ja" else None
    base = ParagraphStyle("card", fontName=font, fontSize=9.4, leading=13.6, wordWrap=wrap,
                          bulletFontName=font)  # fmt: skip
    return {
        "title": ParagraphStyle("title", parent=base, fontSize=7.5, leading=9,
                                textColor=colors.HexColor("#555555")),
        "heading": ParagraphStyle("heading", parent=base, fontSize=14, leading=18,
                                  spaceAfter=5),
        "body": ParagraphStyle("body", parent=base, spaceAfter=4),
        "bullet": ParagraphStyle("bullet", parent=base, leftIndent=9, bulletIndent=0,
                                 spaceAfter=1.5),
        "cell": ParagraphStyle("cell", parent=base, fontSize=7.6, leading=9.4),
        "link": ParagraphStyle("link", parent=base, fontSize=6, leading=7.2, wordWrap="CJK"),
    }  # fmt: skip


def _para(text: str, style: ParagraphStyle, width: float, lang: str, **kw: Any) -> Paragraph:
    """A paragraph; Japanese is broken into lines by the print frame's own kinsoku rules
    (ReportLab's CJK wrapping keeps closing marks off a line's start but may end a line on
    an opening bracket)."""
    if lang != "ja":
        return Paragraph(escape(text), style, **kw)
    room = width - style.leftIndent
    lines = wrap(text, room, style.fontSize, style.fontName)
    return Paragraph("<br/>".join(escape(line) for line in lines), style, **kw)


def _text(
    body: str,
    values: Mapping[str, str],
    styles: Mapping[str, ParagraphStyle],
    width: float,
    lang: str,
) -> list[Flowable]:
    """The card's paragraphs, placeholders filled; ``- `` lines are bullets."""
    out: list[Flowable] = []
    for line in body.format_map(dict(values)).splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("- "):
            out.append(_para(line[2:], styles["bullet"], width, lang, bulletText="•"))
        else:
            out.append(_para(line, styles["body"], width, lang))
    return out


def _table(rows: Sequence[Sequence[str]], styles: Mapping[str, ParagraphStyle]) -> Table:
    cells = [[Paragraph(escape(str(v)), styles["cell"]) for v in row] for row in rows]
    table = Table(cells, hAlign="LEFT", repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), register()),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#888888")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef1f5")),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
        )
    )
    return table


class QrCode(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """A QR code of ``url`` as a flowable, vector drawn."""

    def __init__(self, url: str, size: float) -> None:
        super().__init__()
        self.url, self.size = url, size
        self.width = self.height = size

    def draw(self) -> None:
        draw_qr(self.canv, self.url, 0, 0, self.size)


def _foot(url: str, label: str, styles: Mapping[str, ParagraphStyle]) -> Table:
    """The card's foot: the QR code, and beside it what it opens and the link itself."""
    words = [Paragraph(escape(label), styles["link"]), Paragraph(escape(url), styles["link"])]
    table = Table([[QrCode(url, QR), words]], colWidths=[QR + 2 * mm, None], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), register()),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return table


def cards(
    game: AnyGame, sheet: Any, lang: str, url: str, label: str, width: float = 0
) -> list[tuple[str, list[Flowable]]]:
    """Each card of ``game`` in ``lang`` as (heading, flowables), the rulings cards last."""
    kind = game.info.kind
    styles = _styles(lang)
    width = width or CARD_W - 2 * PAD
    text = load_cards(kind, lang)
    values: dict[str, str] = sheet.card_values() if hasattr(sheet, "card_values") else {}
    every: list[tuple[str, list[Flowable]]] = []
    for card in text.cards:
        body = _text(card.body, values, styles, width, lang)
        if card.table and hasattr(sheet, "card_table"):
            body += [Spacer(1, 2 * mm), _table(sheet.card_table(card.table, lang), styles)]
        every.append((card.heading, body))
    rulings = [t(key, lang) for key in game.info.rulings]
    heading = t("print.cards.rulings", lang)
    per_card = 6
    for start in range(0, len(rulings), per_card):
        chunk = rulings[start : start + per_card]
        body = [_para(t("print.cards.rulings_note", lang), styles["body"], width, lang)]
        body += [_para(r, styles["bullet"], width, lang, bulletText="•") for r in chunk]
        every.append((heading, body))
    total = len(every)
    out = []
    for n, (title, body) in enumerate(every, start=1):
        head = t("print.cards.card_of", lang, game=text.title, n=n, total=total)
        flow: list[Flowable] = [
            Paragraph(escape(head), styles["title"]),
            _para(title, styles["heading"], width, lang),
            *body,
            _foot(url, label, styles),  # the foot is last: the card's layout puts it at the bottom
        ]
        out.append((title, flow))
    return out


def _card_frames() -> list[Frame]:
    """The four A6 cards of an A4 page: top left, top right, bottom left, bottom right."""
    return [
        Frame(x * CARD_W, y * CARD_H, CARD_W, CARD_H, leftPadding=PAD, rightPadding=PAD,
              topPadding=PAD, bottomPadding=PAD, id=f"card{i}")
        for i, (x, y) in enumerate(((0, 1), (1, 1), (0, 0), (1, 0)))
    ]  # fmt: skip


def _cut_marks(canvas: Canvas, _doc: Any) -> None:
    """Short marks at the page edges and a cross at the centre, where the cards are cut."""
    width, height = A4
    canvas.saveState()
    canvas.setStrokeColor(colors.HexColor("#777777"))
    canvas.setLineWidth(0.4)
    for x in (CARD_W,):
        canvas.line(x, 0, x, MARK)
        canvas.line(x, height - MARK, x, height)
        canvas.line(x, CARD_H - MARK, x, CARD_H + MARK)
    for y in (CARD_H,):
        canvas.line(0, y, MARK, y)
        canvas.line(width - MARK, y, width, y)
        canvas.line(CARD_W - MARK, y, CARD_W + MARK, y)
    canvas.restoreState()


def cards_template() -> PageTemplate:
    return PageTemplate(id=CARDS_TEMPLATE, frames=_card_frames(), onPage=_cut_marks,
                        pagesize=A4)  # fmt: skip


FOOT_H = QR + 2 * mm


def _card(flow: list[Flowable]) -> Table:
    """One card: its text from the top (shrunk to fit if need be: nothing ever runs past the
    cut), its QR foot at the bottom."""
    width, height = CARD_W - 2 * PAD, CARD_H - 2 * PAD
    text = KeepInFrame(width, height - FOOT_H, flow[:-1], mode="shrink")
    table = Table([[text], [flow[-1]]], colWidths=[width], rowHeights=[height - FOOT_H, FOOT_H])
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), register()),
                ("VALIGN", (0, 0), (0, 0), "TOP"),
                ("VALIGN", (0, 1), (0, 1), "BOTTOM"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return table


def card_story(per_lang: Mapping[str, list[tuple[str, list[Flowable]]]]) -> list[Flowable]:
    """The cards in reading order: with two languages, each card's versions side by side."""
    langs = list(per_lang)
    count = max(len(v) for v in per_lang.values())
    story: list[Flowable] = []
    for i in range(count):
        for lang in langs:
            cards_of = per_lang[lang]
            if i < len(cards_of):
                story.append(_card(cards_of[i][1]))
            story.append(FrameBreak())
    return story


def summary_story(game: AnyGame, sheet: Any, lang: str, width: float, height: float,
                  url: str, label: str) -> list[Flowable]:  # fmt: skip
    """One A4 page of the whole game in ``lang``: every card's text in two columns."""
    column = (width - 6 * mm) / 2
    flows = cards(game, sheet, lang, url, label, width=column)
    styles = _styles(lang)
    title = Paragraph(escape(load_cards(game.info.kind, lang).title), styles["heading"])
    halves: list[list[Flowable]] = [[], []]
    rulings = t("print.cards.rulings", lang)
    flows = [(heading, body) for heading, body in flows if heading != rulings]
    for i, (_, body) in enumerate(flows):
        # each card's flowables without its head line and its QR foot (the rulings are on
        # the cards and the page: a one-page summary has no room for them)
        halves[0 if i < (len(flows) + 1) // 2 else 1] += [*body[1:-1], Spacer(1, 3 * mm)]
    grid = Table(
        [[KeepInFrame(column, height - 40 * mm, halves[0], mode="shrink"),
          KeepInFrame(column, height - 40 * mm, halves[1], mode="shrink")]],
        colWidths=[column + 3 * mm, column + 3 * mm],
    )  # fmt: skip
    grid.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), register()),
                              ("VALIGN", (0, 0), (-1, -1), "TOP"),
                              ("LEFTPADDING", (0, 0), (-1, -1), 0)]))  # fmt: skip
    note = _para(t("print.cards.rulings_elsewhere", lang), styles["body"], width, lang)
    return [title, grid, Spacer(1, 2 * mm), note, _foot(url, label, styles)]
