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

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    Frame,
    FrameBreak,
    KeepInFrame,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)

from aids.core.errors import DataError
from aids.core.i18n import t
from aids.games.base import AnyGame
from aids.paths import TEMPLATES
from aids.print.cells import Prose
from aids.print.fonts import DESCENT, register, wrap
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


@dataclass(frozen=True, slots=True)
class Look:
    """How one kind of card text is set: size, line spacing, space after, colour."""

    size: float
    leading: float
    after: float = 0
    colour: colors.Color = colors.black

    def __call__(self, text: str, *, bullet: bool = False) -> Prose:
        return Prose(text, self.size, self.leading, colour=self.colour, space_after=self.after,
                     bullet="•" if bullet else "", indent=9 if bullet else 0)  # fmt: skip


#: Every line of a card is ``Prose``: broken by the print frame's kinsoku rules in both
#: languages (ReportLab's CJK wrapping may end a line on an opening bracket).
TITLE = Look(7.5, 9, colour=colors.HexColor("#555555"))
HEADING = Look(14, 18, after=5)
BODY = Look(9.4, 13.6, after=4)
BULLET = Look(9.4, 13.6, after=1.5)
CELL = Look(7.6, 9.4)
LINK = Look(6, 7.2)


def _text(body: str, values: Mapping[str, str]) -> list[Flowable]:
    """The card's paragraphs, placeholders filled; ``- `` lines are bullets."""
    out: list[Flowable] = []
    for line in body.format_map(dict(values)).splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("- "):
            out.append(BULLET(line[2:], bullet=True))
        else:
            out.append(BODY(line))
    return out


def _table(rows: Sequence[Sequence[str]]) -> Table:
    cells = [[CELL(str(v)) for v in row] for row in rows]
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


class Foot(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """A card's foot: the QR code at the bottom left and, beside it, what it opens and the
    link itself (for a phone without a camera), their last line level with the code's foot."""

    def __init__(self, url: str, label: str) -> None:
        super().__init__()
        self.url, self.label = url, label
        self.lines: list[str] = []

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        room = max(1.0, availWidth - QR - 2 * mm)
        self.lines = [*wrap(self.label, room, LINK.size), *wrap(self.url, room, LINK.size)]
        self.width, self.height = availWidth, QR
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        draw_qr(c, self.url, 0, 0, QR)
        c.setFillColor(colors.black)
        first = (len(self.lines) - 1) * LINK.leading + DESCENT * LINK.size
        text = c.beginText(QR + 2 * mm, first)
        text.setFont(register(), LINK.size, LINK.leading)
        text.textLines(self.lines, trim=0)
        c.drawText(text)


def cards(
    game: AnyGame, sheet: Any, lang: str, url: str, label: str
) -> list[tuple[str, list[Flowable]]]:
    """Each card of ``game`` in ``lang`` as (heading, flowables), the rulings cards last."""
    kind = game.info.kind
    text = load_cards(kind, lang)
    values: dict[str, str] = sheet.card_values() if hasattr(sheet, "card_values") else {}
    every: list[tuple[str, list[Flowable]]] = []
    for card in text.cards:
        body = _text(card.body, values)
        if card.table and hasattr(sheet, "card_table"):
            body += [Spacer(1, 2 * mm), _table(sheet.card_table(card.table, lang))]
        every.append((card.heading, body))
    rulings = [t(key, lang) for key in game.info.rulings]
    heading = t("print.cards.rulings", lang)
    per_card = 6
    for start in range(0, len(rulings), per_card):
        chunk = rulings[start : start + per_card]
        body = [BODY(t("print.cards.rulings_note", lang))]
        body += [BULLET(r, bullet=True) for r in chunk]
        every.append((heading, body))
    total = len(every)
    out = []
    for n, (title, body) in enumerate(every, start=1):
        head = t("print.cards.card_of", lang, game=text.title, n=n, total=total)
        flow: list[Flowable] = [
            TITLE(head),
            HEADING(title),
            *body,
            Foot(url, label),  # the foot is last: the card's layout puts it at the bottom
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


class Card(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """One card, the whole frame it is given: its text from the top — shrunk to fit if need
    be, so nothing ever runs past the cut — and its foot (the last flowable) at the bottom.

    What ``KeepInFrame(mode="shrink")`` in a two-row table did, in one flowable: a card is
    the pack's commonest thing, and the nested layout cost more than the text it held.
    """

    def __init__(self, flow: list[Flowable]) -> None:
        super().__init__()
        self.text, self.foot = flow[:-1], flow[-1]
        self.scale = 1.0
        self.placed: list[tuple[Flowable, float]] = []

    def _lay_out(self, width: float) -> float:
        """Wrap the text at ``width``; its height, spaces between flowables included."""
        self.placed, total = [], 0.0
        for i, flowable in enumerate(self.text):
            _, h = flowable.wrap(width, 1e6)
            total += (flowable.getSpaceBefore() if i else 0.0) + h
            self.placed.append((flowable, total))  # its bottom, down from the top
            total += flowable.getSpaceAfter()
        return total

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        room = availHeight - FOOT_H
        scale = 1.0
        for _ in range(12):  # each try wraps wider and sets it smaller; two are usual
            total = self._lay_out(availWidth / scale)
            if total * scale <= room + 0.01:
                break
            scale = min(scale * 0.98, room / total)
        self.scale = scale
        self.foot.wrap(availWidth, FOOT_H)
        self.width, self.height = availWidth, availHeight
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        c.saveState()
        c.translate(0, self.height)
        c.scale(self.scale, self.scale)
        for flowable, bottom in self.placed:
            flowable.drawOn(c, 0, -bottom)
        c.restoreState()
        self.foot.drawOn(c, 0, 0)


#: Where each card of a front page lands on its back, printed double-sided and turned over
#: the long edge (portrait A4's usual duplex): left and right swap, top and bottom stay.
BACK_OF = (1, 0, 3, 2)


def card_story(
    per_lang: Mapping[str, list[tuple[str, list[Flowable]]]], *, duplex: bool = False
) -> list[Flowable]:
    """The cards in reading order. With two languages, each card's versions sit side by
    side; or, ``duplex``, the first language fills the fronts and the second the backs, each
    card's translation right behind it when the sheet is printed on both sides (flip on the
    long edge) — cut once, every card is ja on one face and en on the other."""
    langs = list(per_lang)
    if duplex and len(langs) == 2:
        return _duplex_story(per_lang[langs[0]], per_lang[langs[1]])
    count = max(len(v) for v in per_lang.values())
    story: list[Flowable] = []
    for i in range(count):
        for lang in langs:
            cards_of = per_lang[lang]
            if i < len(cards_of):
                story.append(Card(cards_of[i][1]))
            story.append(FrameBreak())
    return story


def _duplex_story(
    front: list[tuple[str, list[Flowable]]], back: list[tuple[str, list[Flowable]]]
) -> list[Flowable]:
    story: list[Flowable] = []
    for first in range(0, max(len(front), len(back)), 4):
        for side, slots in ((front, range(4)), (back, BACK_OF)):
            for slot in slots:  # frame by frame: the card whose front is in the slot facing
                n = first + slot
                if n < len(side):
                    story.append(Card(side[n][1]))
                story.append(FrameBreak())
    return story


def summary_story(game: AnyGame, sheet: Any, lang: str, width: float, height: float,
                  url: str, label: str) -> list[Flowable]:  # fmt: skip
    """One A4 page of the whole game in ``lang``: every card's text in two columns."""
    column = (width - 6 * mm) / 2
    flows = cards(game, sheet, lang, url, label)
    title = HEADING(load_cards(game.info.kind, lang).title)
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
    note = BODY(t("print.cards.rulings_elsewhere", lang))
    return [title, grid, Spacer(1, 2 * mm), note, Foot(url, label)]
