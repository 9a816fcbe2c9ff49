"""Grand National's sheets: a stable card per stable, the odds board, the money ledger, rulings.

The print frame draws the paper, the header (its QR code is always the viewer link) and turns
pages; this module gives the body, in this order:

1. **A stable card per stable** (one blank card before game night): the stable's name, colour,
   seat, the going and its grid top, cash and whether its blind bet is written; the going →
   grid-top table; then its four horses, two by two, each with its cap, name, reserve price,
   handicap, speed left, stamina penalty, running-too-free box and status above the 1–64
   speed-point grid of the paper card. The grid reads like text from 64 down to 1, so points
   are struck from the top: the going's cells above its top are crossed out (×, grey) and the
   speed points a horse has used are struck (／, shaded) from the top down; the highest number
   left is the speed left. With ``seat_links`` each card carries its owner's private link as a
   second QR code; without, a box says to ask the referee.
2. **The odds board**, landscape, in large type: every runner by stable with its owner,
   handicap, reserve price and the Win and Show odds posted (the table's defaults until the
   bookmaker changes them). Whole stables per page, as many as large rows allow.
3. **Money and bets**: each stable's cash and how it came about, the prize money and the
   reserve-price odds table (from the seed file), the bets taken, and the ledger line by line
   (blank: ruled rows to write on).
4. The rulings.

The snapshot is the reader's view: a blind bet is sealed until settlement and only "written"
is printed; it reaches the bets and the ledger when the race is settled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Spacer, Table, TableStyle

from aids.core.i18n import t
from aids.games.grand_national import GAME, engine
from aids.games.grand_national.data import GnData, load
from aids.games.grand_national.describe import money
from aids.games.grand_national.model import BANK, HELD, GnState, Line, Wager
from aids.print.cells import (
    FAINT,
    GRID_LINE,
    INK,
    SHADE,
    Dot,
    Mark,
    SeatMark,
    TextBox,
    Tick,
    Value,
    ruled,
    unruled,
)
from aids.print.fonts import ASCENT, register
from aids.print.frame import Styles, rulings, turn_to
from aids.print.qr import draw_qr
from aids.tables import Snapshot

GAP = 3 * mm
# a stable card's band: the stable's name, its facts, and the private link
NAME_H, FACT_HEAD, FACT_H = 12 * mm, 5 * mm, 11 * mm
BAND_H = NAME_H + FACT_HEAD + FACT_H
FACT_WEIGHTS = (15, 14, 21, 18, 16, 16)  # seat, colour, going, grid top, cash, blind bet
LINK_W = 72 * mm  # the private link's box: caption column and QR code
LINK_QR = BAND_H - 2 * mm
GOING_HEAD, GOING_ROW = 6.5 * mm, 5 * mm
# a horse's card above its grid
CARD_TITLE, CARD_HEAD, CARD_VALUE = 10 * mm, 6 * mm, 9.5 * mm
CARD_WEIGHTS = (19, 15, 16, 17, 14, 19)  # price, handicap, speed left, penalty, too free, status
GRID_COLS = 8
GRID_ROW_MIN = 5 * mm
OUT = colors.HexColor("#cfcfcf")  # above the going's top: not in this race
USED = colors.HexColor("#e6ebf2")  # speed points used
STROKE = colors.HexColor("#333333")
# the odds board
BOARD_TITLE, BOARD_HEAD, BOARD_FOOT = 11 * mm, 9 * mm, 9 * mm
BOARD_ROW_MIN, BOARD_ROW_MAX = 10 * mm, 19 * mm
BOARD_WEIGHTS = (31, 21, 9, 13, 13.5, 12.5)  # runner, owner, handicap, price, Win, Show
# money and bets
CASH_WEIGHTS = (28, 12, 12, 12, 12, 12, 12)
BET_WEIGHTS = (24, 28, 13, 11, 9, 15)  # stable, horse, kind, stake, odds, result
LEDGER_WEIGHTS = (7, 24, 24, 13, 14, 22)  # no., from, to, amount, reason, horse
ROW = 6 * mm
LEDGER_ROW = 5.6 * mm
HEAD = 7 * mm
BLANK_BETS = 8


def _c(text: str, size: float = 9, **kw: Any) -> TextBox:
    return TextBox(text, size, align="centre", **kw)


def _head(keys: Sequence[str], lang: str, size: float = 7.5) -> list[Any]:
    return [_c(t(f"gn.sheet.{k}", lang), size, max_lines=2, min_size=5.5) for k in keys]


def _shaded(row: int, *, pad: float = 2.5) -> list[tuple[Any, ...]]:
    """A ruled grid whose heading is row ``row`` (the rows above it hold a name or a title)."""
    style = [rule for rule in ruled(1, pad=pad) if rule[0] != "BACKGROUND"]
    return [*style, ("BACKGROUND", (0, row), (-1, row), SHADE)]


def _widths(weights: Sequence[float], width: float) -> list[float]:
    unit = width / sum(weights)
    return [w * unit for w in weights]


def story(
    snapshot: Snapshot | None,
    lang: str,
    width: float,
    styles: Styles,
    *,
    seat_links: Mapping[int, str] | None = None,
) -> list[Flowable]:
    """The stable cards, the odds board (landscape), money and bets, then the rulings.

    ``seat_links``: seat index (from 0) → that stable's private link, printed as a QR code
    on its own card only.
    """
    state: GnState | None = snapshot.state if snapshot is not None else None
    links = seat_links or {}
    out: list[Flowable] = []
    seats: Sequence[int | None] = range(state.seats) if state is not None else [None]
    for i, seat in enumerate(seats):
        if i:
            out.append(PageBreak())
        link = links.get(seat) if seat is not None else None
        out += _stable_page(state, seat, link, lang, width)
    out += turn_to("landscape")
    out.append(OddsBoard(_board_groups(state, lang), _board_title(state, lang), lang))
    out += turn_to("portrait")
    out += _money(state, lang, width)
    out += [Spacer(1, 4 * mm), KeepTogether(rulings(GAME, lang, styles))]  # whole, on one page
    return out


class Blank(Mark):
    """Room for a mark that is not there: keeps a column's names in line."""

    def __init__(self, width: float) -> None:
        self.width = width

    def draw(self, canvas: Any, x: float, y: float) -> None:
        return None


# --- flowables this sheet composes ---------------------------------------------------------


class Fill(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """A part built for the room it is given: the width, and the height left on the page."""

    def __init__(self, build: Callable[[float, float], Flowable]) -> None:
        super().__init__()
        self.build = build
        self.inner: Flowable | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.inner = self.build(availWidth, availHeight)
        self.width, self.height = self.inner.wrap(availWidth, availHeight)
        return self.width, self.height

    def draw(self) -> None:
        assert self.inner is not None
        self.inner.drawOn(self.canv, 0, 0)


class QrCode(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """A QR code ``size`` wide, at the right of the width it is given."""

    def __init__(self, url: str, size: float) -> None:
        super().__init__()
        self.url, self.size = url, size
        self.avail = size

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.avail = availWidth
        return availWidth, self.size

    def draw(self) -> None:
        draw_qr(self.canv, self.url, self.avail - self.size, 0, self.size)


class SpeedGrid(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """A horse's 1–64 speed-point grid, read like text from 64 down to 1.

    ``top``: the going's grid top (None: not spun yet); cells above it are crossed out (two
    diagonals on grey). ``used``: speed points struck from the top down (one diagonal on a
    shade). Each mark is a shape as well as a shade, so a black-and-white copy loses nothing.
    """

    def __init__(self, cells: int, top: int | None, used: int, row: float) -> None:
        super().__init__()
        self.cells, self.top, self.used, self.row = cells, top, used, row
        self.rows = math.ceil(cells / GRID_COLS)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = availWidth, self.rows * self.row
        return self.width, self.height

    def mark(self, number: int) -> str:
        """``out`` above the going's top, ``used`` if struck by a move, else ``""``."""
        if self.top is None:
            return ""
        if number > self.top:
            return "out"
        return "used" if number > self.top - self.used else ""

    def draw(self) -> None:
        c = self.canv
        cw, rh = self.width / GRID_COLS, self.row
        size = min(12.0, rh * 0.45, cw * 0.36)
        c.saveState()
        c.setFont(register(), size)
        for i in range(self.cells):
            number = self.cells - i
            r, k = divmod(i, GRID_COLS)
            x, y = k * cw, self.height - (r + 1) * rh
            mark = self.mark(number)
            if mark:
                c.setFillColor(OUT if mark == "out" else USED)
                c.rect(x, y, cw, rh, stroke=0, fill=1)
            c.setFillColor(FAINT if mark == "out" else INK)
            base = y + rh / 2 - (ASCENT - 0.5) * size
            c.drawCentredString(x + cw / 2, base, str(number))
            inset = min(cw, rh) * 0.12
            c.setStrokeColor(STROKE)
            c.setLineWidth(0.9)
            if mark:  # ／ for a used point, × for one above the top
                c.line(x + inset, y + inset, x + cw - inset, y + rh - inset)
            if mark == "out":
                c.line(x + inset, y + rh - inset, x + cw - inset, y + inset)
        c.setStrokeColor(GRID_LINE)
        c.setLineWidth(0.5)
        c.grid([k * cw for k in range(GRID_COLS + 1)], [r * rh for r in range(self.rows + 1)])
        c.setStrokeColor(colors.black)
        c.setLineWidth(1.2)
        c.line(4 * cw, 0, 4 * cw, self.height)  # halves, to count by
        c.rect(0, 0, self.width, self.height, stroke=1, fill=0)
        c.restoreState()


# --- a stable's card -------------------------------------------------------------------------


def _stable_page(
    state: GnState | None, seat: int | None, link: str | None, lang: str, width: float
) -> list[Flowable]:
    band = Table(
        [[_facts(state, seat, lang, width - LINK_W - GAP), "", _link_box(link, lang)]],
        colWidths=[width - LINK_W - GAP, GAP, LINK_W],
        rowHeights=[BAND_H],
    )
    band.setStyle(TableStyle(unruled()))
    return [
        band,
        Spacer(1, 2 * mm),
        _going_table(state, lang, width),
        Spacer(1, GAP),
        Fill(lambda w, h: _horses(state, seat, lang, w, h)),
    ]


def _facts(state: GnState | None, seat: int | None, lang: str, width: float) -> Table:
    """The stable's name across the top; its seat, colour, going, grid top, cash, blind bet."""
    d = load()
    keys = ("col_stable", "colour", "going", "grid_top", "cash", "blind")
    head = _head(keys, lang)
    values: list[Any] = [""] * len(keys)
    if state is None or seat is None:
        name: Any = TextBox(t("gn.sheet.stable_blank", lang), 7.5, colour=FAINT, max_lines=1)
    else:
        stable = state.setup.stables[seat]
        colour = d.colour(stable.colour)
        hex_ = colour.hex if colour else None
        name = TextBox(
            stable.name, 15, min_size=8, max_lines=2, mark=SeatMark(seat + 1, hex_, side=16)
        )
        note = t("gn.sheet.bookmaker", lang) if seat == state.setup.bookmaker else ""
        going = t(f"gn.going.{state.going}", lang) if state.going else ""
        blind = state.blind[seat]
        if blind is None:
            blind_text = t("gn.sheet.blind_waiting", lang)
        elif not state.settled:  # sealed, even in its writer's own view
            blind_text = t("gn.sheet.blind_sealed", lang)
        elif blind.stake == 0:
            blind_text = t("gn.sheet.blind_none", lang)
        else:  # settled: in the bets and the ledger
            blind_text = t("gn.sheet.blind_settled", lang)
        values = [
            Value(str(seat + 1), size=13, note=note),
            _c(colour.name(lang) if colour else stable.colour, 9, mark=Dot(hex_ or "#ffffff")),
            _c(
                going or t("gn.sheet.going_unknown", lang),
                8.5,
                max_lines=2,
                min_size=6,
                colour=INK if going else FAINT,
            ),
            _top_value(state, lang),
            _c(money(engine.cash(state, seat)), 10, max_lines=1),
            _c(blind_text, 7.5, max_lines=2, min_size=5.5),
        ]
    table = Table(
        [[name, "", "", "", "", ""], head, values],
        colWidths=_widths(FACT_WEIGHTS, width),
        rowHeights=[NAME_H, FACT_HEAD, FACT_H],
    )
    style = _shaded(1)
    style += [("SPAN", (0, 0), (-1, 0)), ("LEFTPADDING", (0, 0), (0, 0), 2 * mm)]
    table.setStyle(TableStyle(style))
    return table


def _top_value(state: GnState, lang: str) -> Flowable:
    """The grid top and which cells it strikes (``55–64 struck``), once the going is known."""
    if state.going is None:
        return _c("", 9)
    top, grid = state.top(), load().grid
    if top < grid:
        note = t("gn.sheet.struck", lang, low=top + 1, high=grid)
    else:
        note = t("gn.sheet.none_struck", lang, grid=grid)
    return Value(str(top), size=13, note=note)


def _link_box(link: str | None, lang: str) -> Table:
    """The stable's private link as a QR code with its caption, or where to get one."""
    if link is None:
        box = Table(
            [[_c(t("gn.sheet.private_ask", lang), 9, max_lines=4, min_size=6.5)]],
            colWidths=[LINK_W],
            rowHeights=[BAND_H],
        )
        style = unruled()
        style += [
            ("BOX", (0, 0), (-1, -1), 1.0, STROKE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            *((side, (0, 0), (-1, -1), 3 * mm) for side in ("LEFTPADDING", "RIGHTPADDING")),
        ]
        box.setStyle(TableStyle(style))
        return box
    text_w = LINK_W - LINK_QR - 2 * mm
    caption = Table(
        [
            [TextBox(t("gn.sheet.private_link", lang), 9, max_lines=3, min_size=6.5)],
            [TextBox(t("gn.sheet.private_use", lang), 6.5, max_lines=2, min_size=5)],
            [TextBox(link, 6, max_lines=4, min_size=4.5)],
        ],
        colWidths=[text_w],
        rowHeights=[11 * mm, 6 * mm, BAND_H - 17 * mm],
    )
    caption.setStyle(TableStyle(unruled()))
    box = Table(
        [[caption, QrCode(link, LINK_QR)]],
        colWidths=[text_w, LINK_W - text_w],
        rowHeights=[BAND_H],
    )
    style = unruled()
    style += [
        ("BOX", (0, 0), (-1, -1), 1.4, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (0, 0), 1.5 * mm),
        ("RIGHTPADDING", (1, 0), (1, 0), 1 * mm),
    ]
    box.setStyle(TableStyle(style))
    return box


def _going_table(state: GnState | None, lang: str, width: float) -> Table:
    """Every going and the grid top it sets (the spun one shaded)."""
    d = load()
    head: list[Any] = [_c(t("gn.sheet.going_table", lang), 7.5, max_lines=2, min_size=5.5)]
    head += [_c(t(f"gn.going.{g}", lang), 7.5, max_lines=2, min_size=5.5) for g in d.goings]
    tops: list[Any] = [_c(t("gn.sheet.grid_top", lang), 7.5, max_lines=1, min_size=5.5)]
    tops += [_c(str(top), 10) for top in d.tops]
    first = width * 0.16
    table = Table(
        [head, tops],
        colWidths=[first] + [(width - first) / len(d.goings)] * len(d.goings),
        rowHeights=[GOING_HEAD, GOING_ROW],
    )
    style = ruled(1)
    style.append(("BACKGROUND", (0, 0), (0, -1), SHADE))
    if state is not None and state.going is not None:
        col = d.goings.index(state.going) + 1
        style += [
            ("BACKGROUND", (col, 0), (col, -1), colors.HexColor("#c9d3e0")),
            ("BOX", (col, 0), (col, -1), 1.6, colors.black),
        ]
    table.setStyle(TableStyle(style))
    return table


def _horses(
    state: GnState | None, seat: int | None, lang: str, width: float, height: float
) -> Table:
    """The stable's four horses two by two, their grids as tall as the page allows (cells no
    taller than wide)."""
    d = load()
    card_w = (width - GAP) / 2
    card_h = (height - GAP) / 2 - 0.5
    row = (card_h - CARD_TITLE - CARD_HEAD - CARD_VALUE) / math.ceil(d.grid / GRID_COLS)
    row = max(GRID_ROW_MIN, min(row, card_w / GRID_COLS * 0.85))
    cards = [_card(state, seat, slot, lang, card_w, row) for slot in range(d.horses)]
    tall = CARD_TITLE + CARD_HEAD + CARD_VALUE + math.ceil(d.grid / GRID_COLS) * row
    grid: list[list[Any]] = []
    heights: list[float] = []
    for i in range(0, len(cards), 2):
        if i:
            grid.append(["", "", ""])
            heights.append(GAP)
        grid.append([cards[i], "", cards[i + 1] if i + 1 < len(cards) else ""])
        heights.append(tall)
    table = Table(grid, colWidths=[card_w, GAP, card_w], rowHeights=heights)
    table.setStyle(TableStyle(unruled()))
    return table


def _card(
    state: GnState | None, seat: int | None, slot: int, lang: str, width: float, row: float
) -> Table:
    """One horse: its cap and name, its numbers, and its speed-point grid."""
    d = load()
    cap = d.caps[slot]
    cap_colour = d.colour(cap)
    cap_cell = TextBox(
        t(f"gn.caps.{cap}", lang),
        8,
        max_lines=2,
        min_size=6,
        mark=Dot(cap_colour.hex if cap_colour else "#ffffff", 9),
    )
    keys = ("price", "handicap", "speed_left", "penalty", "too_free", "status")
    head = _head(keys, lang, 7)
    if state is None or seat is None:
        name: Any = TextBox(t("gn.sheet.horse_blank", lang), 7.5, colour=FAINT, max_lines=1)
        values: list[Any] = ["", "", "", "", _c("□", 12, colour=FAINT), ""]
        grid = SpeedGrid(d.grid, None, 0, row)
    else:
        h = seat * d.horses + slot
        horse = state.setup.horse(h)
        out = state.status[h] in ("fallen", "withdrawn", "pulled_up")
        name = TextBox(horse.name, 11, min_size=6.5, max_lines=2, strike=out)
        dealt = t("gn.sheet.dealt", lang, mark=horse.handicap)
        known = state.going is not None
        values = [
            _c(money(horse.price), 9.5, max_lines=1),
            Value(
                str(state.handicap[h]),
                size=13,
                note=dealt if state.handicap[h] != horse.handicap else "",
            ),
            Value(str(state.speed_left(h)), size=13) if known else "",
            Value(str(state.penalty[h]), size=13) if state.phase in ("race", "over") else "",
            Tick(10) if h in state.too_free_done else _c("□", 12, colour=FAINT),
            _c(_status(state, h, lang), 8, max_lines=2, min_size=5.5),
        ]
        grid = SpeedGrid(d.grid, state.top() if known else None, state.used[h], row)
    widths = _widths(CARD_WEIGHTS, width)
    table = Table(
        [[cap_cell, name, "", "", "", ""], head, values, [grid, "", "", "", "", ""]],
        colWidths=widths,
        rowHeights=[CARD_TITLE, CARD_HEAD, CARD_VALUE, grid.rows * row],
    )
    style = _shaded(1, pad=2)
    style += [
        ("SPAN", (1, 0), (-1, 0)),
        ("SPAN", (0, 3), (-1, 3)),
        ("BACKGROUND", (0, 0), (0, 0), SHADE),
        *((side, (0, 3), (-1, 3), 0) for side in ("LEFTPADDING", "RIGHTPADDING")),
        *((side, (0, 3), (-1, 3), 0) for side in ("TOPPADDING", "BOTTOMPADDING")),
    ]
    table.setStyle(TableStyle(style))
    return table


def _status(state: GnState, horse: int, lang: str) -> str:
    status = state.status[horse]
    if status == "finished" and horse in state.placed:
        return t("gn.sheet.placed", lang, place=state.placed.index(horse) + 1)
    if status == "running" and state.phase != "race":
        return ""
    return t(f"gn.status.{status}", lang)


# --- the odds board ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Runner:
    """A row of the odds board (blank: only the cap)."""

    cap: str
    name: str = ""
    handicap: str = ""
    price: str = ""
    win: str = ""
    show: str = ""
    out: bool = False


@dataclass(frozen=True, slots=True)
class Group:
    """A stable's block of the board: its owner cell and its four runners."""

    owner: str
    hex: str | None
    runners: tuple[Runner, ...]


def _board_groups(state: GnState | None, lang: str) -> list[Group]:
    d = load()
    if state is None:  # a block per stable the game allows, to write in
        blank = tuple(Runner(cap) for cap in d.caps)
        return [Group("", None, blank) for _ in range(d.max_stables)]
    groups = []
    for seat, stable in enumerate(state.setup.stables):
        colour = d.colour(stable.colour)
        owner = t(
            "gn.sheet.owner_cell",
            lang,
            name=stable.name,
            colour=colour.name(lang) if colour else stable.colour,
        )
        runners = []
        for slot in range(d.horses):
            h = seat * d.horses + slot
            win, show = state.odds[h]
            runners.append(
                Runner(
                    d.caps[slot],
                    state.setup.horse(h).name,
                    str(state.handicap[h]),
                    money(state.setup.horse(h).price),
                    win.text(),
                    show.text(),
                    state.status[h] in ("fallen", "withdrawn", "pulled_up"),
                )
            )
        groups.append(Group(owner, colour.hex if colour else None, tuple(runners)))
    return groups


def _board_title(state: GnState | None, lang: str) -> str:
    if state is None or state.going is None:
        return ""
    return t("gn.sheet.board_going", lang, going=t(f"gn.going.{state.going}", lang))


def _defaults_text(lang: str) -> str:
    d = load()
    parts = [f"{money(p)} {d.odds[p][0].text()} · {d.odds[p][1].text()}" for p in d.prices]
    return f"{t('gn.sheet.defaults', lang)} " + " ／ ".join(parts)


class OddsBoard(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """The odds board across the page: whole stables, rows as large as the page allows.

    Rows are at least ``BOARD_ROW_MIN`` tall (type to read across a room); when the stables do
    not all fit, the board goes on over as few pages as that needs, shared out evenly.
    """

    def __init__(
        self, groups: list[Group], going: str, lang: str, part: int = 1, parts: int = 1
    ) -> None:
        super().__init__()
        self.groups, self.going, self.lang = groups, going, lang
        self.part, self.parts = part, parts
        self.inner: Flowable | None = None

    def _room(self, height: float) -> float:
        return float(height - BOARD_TITLE - BOARD_HEAD - BOARD_FOOT - 2)

    def _fits(self, height: float) -> int:
        """How many stables fit at the smallest row."""
        horses = load().horses
        return int(self._room(height) // BOARD_ROW_MIN) // horses

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self._fits(availHeight) < len(self.groups):
            self.width, self.height = availWidth, availHeight + 1  # to split
            return self.width, self.height
        rows = sum(len(g.runners) for g in self.groups)
        row = min(BOARD_ROW_MAX, self._room(availHeight) / max(rows, 1))
        self.inner = self._build(availWidth, row)
        self.width, self.height = self.inner.wrap(availWidth, availHeight)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        fits = self._fits(availHeight)
        if fits < 1 or fits >= len(self.groups):
            return []
        pages = math.ceil(len(self.groups) / fits)
        per = math.ceil(len(self.groups) / pages)
        parts = self.part - 1 + pages if self.parts == 1 else self.parts
        first = OddsBoard(self.groups[:per], self.going, self.lang, self.part, parts)
        rest = OddsBoard(self.groups[per:], self.going, self.lang, self.part + 1, parts)
        return [first, PageBreak(), rest]

    def draw(self) -> None:
        assert self.inner is not None
        self.inner.drawOn(self.canv, 0, 0)

    def _build(self, width: float, row: float) -> Table:
        lang = self.lang
        title = t("gn.sheet.board_title", lang)
        if self.parts > 1:
            title = t("gn.sheet.board_part", lang, part=self.part, parts=self.parts)
        if self.going:
            title = f"{title}　{self.going}"
        keys = ("runner", "owner", "handicap", "price")
        label, kind = min(max(11, row * 0.3), 16), min(max(14, row * 0.4), 22)
        head = [_c(t(f"gn.sheet.{k}", lang), label, max_lines=2, min_size=7) for k in keys]
        head += [
            _c(t(f"gn.kind.{k}", lang), kind, max_lines=1, min_size=8) for k in ("win", "show")
        ]
        name_size, odds_size = min(row * 0.5, 26.0), min(row * 0.74, 40.0)
        rows: list[list[Any]] = [
            [TextBox(title, min(max(18, row * 0.5), 26), max_lines=1, min_size=11)] + [""] * 5,
            head,
        ]
        style = _shaded(1, pad=3)
        style.append(("SPAN", (0, 0), (-1, 0)))
        for group in self.groups:
            first = len(rows)
            for i, r in enumerate(group.runners):
                cap = load().colour(r.cap)
                mark = Dot(cap.hex if cap else "#ffffff", min(row * 0.42, 16))
                if r.name:
                    runner: Any = TextBox(
                        r.name, name_size, min_size=7, max_lines=2, mark=mark, strike=r.out
                    )
                else:
                    runner = TextBox(t(f"gn.caps.{r.cap}", lang), 8, colour=FAINT, mark=mark)
                owner: Any = ""
                if i == 0 and group.owner:
                    owner = TextBox(
                        group.owner,
                        min(row * 0.44, 20),
                        min_size=6.5,
                        max_lines=4,
                        mark=Dot(group.hex or "#ffffff", min(row * 0.36, 14)),
                    )
                rows.append(
                    [
                        runner,
                        owner,
                        _c(r.handicap, min(row * 0.62, 30), max_lines=1),
                        _c(r.price, min(row * 0.46, 22), max_lines=1, min_size=7),
                        _c(r.win, odds_size, max_lines=1, min_size=8),
                        _c(r.show, odds_size, max_lines=1, min_size=8),
                    ]
                )
            last = len(rows) - 1
            style += [
                ("SPAN", (1, first), (1, last)),
                ("LINEBELOW", (0, last), (-1, last), 1.6, colors.black),
            ]
        rows.append([TextBox(_defaults_text(lang), 9, max_lines=2, min_size=6.5)] + [""] * 5)
        style += [
            ("SPAN", (0, -1), (-1, -1)),
            ("LINEBEFORE", (4, 1), (4, -2), 1.6, colors.black),
            ("BACKGROUND", (4, 2), (-1, -2), colors.HexColor("#f7f7f7")),
        ]
        runners = len(rows) - 3
        table = Table(
            rows,
            colWidths=_widths(BOARD_WEIGHTS, width),
            rowHeights=[BOARD_TITLE, BOARD_HEAD] + [row] * runners + [BOARD_FOOT],
        )
        table.setStyle(TableStyle(style))
        return table


# --- money and bets ---------------------------------------------------------------------------


def _money(state: GnState | None, lang: str, width: float) -> list[Flowable]:
    d = load()
    out: list[Flowable] = [
        TextBox(t("gn.sheet.money_title", lang), 14, max_lines=1, space_after=2 * mm),
        _title("cash_title", lang),
        _cash_table(state, lang, width),
        Spacer(1, GAP),
    ]
    side = Table(
        [[_prizes_table(d, lang, width * 0.44), "", _odds_table(d, lang, width * 0.52)]],
        colWidths=[width * 0.44, width * 0.04, width * 0.52],
    )
    side.setStyle(TableStyle(unruled()))
    out += [side, Spacer(1, GAP), _title("bets_title", lang), _bets_table(state, lang, width)]
    out += [Spacer(1, GAP), _title("ledger_title", lang)]
    if state is None:
        out.append(Fill(lambda w, h: _blank_ledger(lang, w, h)))
        return out
    out.append(_ledger_table(state, lang, width))
    out.append(Spacer(1, 1.5 * mm))
    out.append(TextBox(_totals(state, lang), 8, grow=True))
    return out


def _title(key: str, lang: str) -> TextBox:
    return TextBox(t(f"gn.sheet.{key}", lang), 10, max_lines=2, grow=True, space_after=1.2 * mm)


def _party(state: GnState, party: int, lang: str, size: float = 8) -> TextBox:
    if party in (BANK, HELD):
        key = "gn.sheet.bank" if party == BANK else "gn.sheet.held"
        return TextBox(t(key, lang), size, max_lines=2, min_size=5.5, mark=Blank(9))
    stable = state.setup.stables[party]
    colour = load().colour(stable.colour)
    mark = SeatMark(party + 1, colour.hex if colour else None, side=9)
    return TextBox(stable.name, size, max_lines=2, min_size=5.5, mark=mark)


def _flow(ledger: Sequence[Line], seat: int, reasons: tuple[str, ...], incoming: bool) -> int:
    return sum(
        line.amount
        for line in ledger
        if line.reason in reasons and (line.to if incoming else line.frm) == seat
    )


def _cash_table(state: GnState | None, lang: str, width: float) -> Table:
    """Each stable's cash and how it came about, from the ledger's lines."""
    keys = (
        "col_stable",
        "col_start",
        "col_horses",
        "col_staked",
        "col_prizes",
        "col_paid",
        "col_cash",
    )
    rows: list[list[Any]] = [_head(keys, lang)]
    if state is None:
        for seat in range(load().max_stables):
            rows.append([TextBox("", 9, mark=SeatMark(seat + 1, None))] + [""] * 6)
    else:
        ledger = state.ledger
        for seat in range(state.seats):
            flows = [
                _flow(ledger, seat, ("start",), True),
                -_flow(ledger, seat, ("horse",), False),
                -_flow(ledger, seat, ("bet", "blind"), False),
                _flow(ledger, seat, ("prize",), True),
                _flow(ledger, seat, ("stake_back", "payout"), True),
            ]
            rows.append(
                [_party(state, seat, lang, 8.5)]
                + [_c(money(v) if v else "—", 8.5, max_lines=1, min_size=6) for v in flows]
                + [_c(money(engine.cash(state, seat)), 10, max_lines=1, min_size=6)]
            )
    table = Table(
        rows,
        colWidths=_widths(CASH_WEIGHTS, width),
        rowHeights=[HEAD] + [ROW + mm] * (len(rows) - 1),
    )
    style = ruled(1)
    style.append(("LINEBEFORE", (-1, 0), (-1, -1), 1.4, colors.black))
    table.setStyle(TableStyle(style))
    return table


def _prizes_table(d: GnData, lang: str, width: float) -> Flowable:
    rows = [
        [_c(t("gn.sheet.place", lang), 7.5, max_lines=2)]
        + [_c(str(i + 1), 9) for i in range(len(d.prizes))],
        [_c(t("gn.sheet.prize", lang), 7.5, max_lines=2)]
        + [_c(money(p), 8.5, max_lines=1, min_size=6) for p in d.prizes],
    ]
    first = width * 0.2
    table = Table(
        rows,
        colWidths=[first] + [(width - first) / len(d.prizes)] * len(d.prizes),
        rowHeights=[ROW, ROW + mm],
    )
    table.setStyle(TableStyle([*ruled(1), ("BACKGROUND", (0, 0), (0, -1), SHADE)]))
    return _titled("prizes_title", table, lang)


def _odds_table(d: GnData, lang: str, width: float) -> Flowable:
    rows: list[list[Any]] = [
        [_c(t("gn.sheet.col_price", lang), 7.5, max_lines=2)]
        + [_c(money(p), 8, max_lines=1, min_size=6) for p in d.prices],
    ]
    for i, kind in enumerate(("win", "show")):
        rows.append(
            [_c(t(f"gn.kind.{kind}", lang), 8)]
            + [_c(d.odds[p][i].text(), 9, max_lines=1, min_size=6) for p in d.prices]
        )
    first = width * 0.16
    table = Table(
        rows,
        colWidths=[first] + [(width - first) / len(d.prices)] * len(d.prices),
        rowHeights=[ROW] * 3,
    )
    table.setStyle(TableStyle([*ruled(1), ("BACKGROUND", (0, 0), (0, -1), SHADE)]))
    return _titled("odds_title", table, lang)


def _titled(key: str, table: Table, lang: str) -> Table:
    out = Table([[TextBox(t(f"gn.sheet.{key}", lang), 8.5, max_lines=2, min_size=6.5)], [table]])
    out.setStyle(TableStyle([*unruled(), ("BOTTOMPADDING", (0, 0), (0, 0), 1.2 * mm)]))
    return out


def _results(state: GnState) -> list[str | int]:
    """Each wager's result from the settlement's lines, in the order they were settled: the
    amount returned, ``"lost"``, or ``"open"`` before settlement."""
    if not state.settled:
        return ["open"] * len(state.wagers)
    lines = [line for line in state.ledger if line.reason in ("stake_back", "payout", "lost")]
    out: list[str | int] = []
    i = 0
    for wager in state.wagers:
        if i < len(lines) and lines[i].reason == "lost" and lines[i].horse == wager.horse:
            out.append("lost")
            i += 1
        elif i + 1 < len(lines) and lines[i].reason == "stake_back" and lines[i].to == wager.seat:
            out.append(lines[i].amount + lines[i + 1].amount)
            i += 2
        else:  # not the engine's order: say nothing rather than something wrong
            out.append("")
    return out


def _bets_table(state: GnState | None, lang: str, width: float) -> Table:
    keys = ("col_stable", "col_horse", "col_kind", "col_stake", "col_odds", "col_result")
    rows: list[list[Any]] = [_head(keys, lang)]
    spans: list[tuple[Any, ...]] = []
    if state is None:
        rows += [[""] * len(keys) for _ in range(BLANK_BETS)]
    elif not state.wagers:
        rows.append([_c(t("gn.sheet.no_bets", lang), 8, colour=FAINT)] + [""] * 5)
        spans.append(("SPAN", (0, 1), (-1, 1)))
    else:
        for wager, result in zip(state.wagers, _results(state), strict=True):
            rows.append(_bet_row(state, wager, result, lang))
    table = Table(
        rows,
        colWidths=_widths(BET_WEIGHTS, width),
        rowHeights=[HEAD] + [ROW] * (len(rows) - 1),
        repeatRows=1,
    )
    table.setStyle(TableStyle([*ruled(1), *spans]))
    return table


def _bet_row(state: GnState, wager: Wager, result: str | int, lang: str) -> list[Any]:
    kind = t(f"gn.kind.{wager.kind}", lang)
    if wager.blind:
        kind = t("gn.sheet.blind_kind", lang, kind=kind)
    if isinstance(result, int):
        shown = t("gn.sheet.won", lang, amount=money(result))
    else:
        shown = t(f"gn.sheet.{result}", lang) if result else ""
    return [
        _party(state, wager.seat, lang),
        TextBox(state.setup.horse(wager.horse).name, 8, max_lines=2, min_size=5.5),
        _c(kind, 8, max_lines=1, min_size=5.5),
        _c(money(wager.stake), 8.5, max_lines=1, min_size=6),
        _c(wager.odds.text(), 9, max_lines=1),
        _c(shown, 8, max_lines=1, min_size=5.5),
    ]


def _ledger_head(lang: str) -> list[Any]:
    keys = ("col_no", "col_from", "col_to", "col_amount", "col_reason", "col_horse")
    return _head(keys, lang)


def _ledger_table(state: GnState, lang: str, width: float) -> Table:
    rows: list[list[Any]] = [_ledger_head(lang)]
    for i, line in enumerate(state.ledger):
        horse = state.setup.horse(line.horse).name if line.horse is not None else ""
        rows.append(
            [
                _c(str(i + 1), 8, colour=FAINT),
                _party(state, line.frm, lang),
                _party(state, line.to, lang),
                TextBox(money(line.amount), 8.5, max_lines=1, min_size=6, align="right"),
                _c(t(f"gn.reason.{line.reason}", lang), 7.5, max_lines=1, min_size=5.5),
                TextBox(horse, 8, max_lines=2, min_size=5.5),
            ]
        )
    table = Table(
        rows,
        colWidths=_widths(LEDGER_WEIGHTS, width),
        rowHeights=[HEAD] + [LEDGER_ROW] * len(state.ledger),
        repeatRows=1,
    )
    table.setStyle(TableStyle(ruled(1, pad=2)))
    return table


def _blank_ledger(lang: str, width: float, height: float) -> Table:
    """Ruled rows to the foot of the page (at least eight: else they start a new page)."""
    count = max(8, int((height - HEAD - 1) // (LEDGER_ROW + mm)))
    rows: list[list[Any]] = [_ledger_head(lang)]
    rows += [[_c(str(i + 1), 7, colour=FAINT), "", "", "", "", ""] for i in range(count)]
    table = Table(
        rows,
        colWidths=_widths(LEDGER_WEIGHTS, width),
        rowHeights=[HEAD] + [LEDGER_ROW + mm] * count,
    )
    table.setStyle(TableStyle(ruled(1, pad=2)))
    return table


def _totals(state: GnState, lang: str) -> str:
    stables = sum(engine.cash(state, s) for s in range(state.seats))
    held = engine.balance(state.ledger, HELD)
    bank = -engine.balance(state.ledger, BANK)  # what the bank has paid out, net
    return t("gn.sheet.totals", lang, stables=money(stables), held=money(held), bank=money(bank))


# --- the rule cards' numbers and tables (aids.print.cards), from the same seed as the engine ---


def card_values() -> dict[str, str]:
    d = load()
    return {
        "start_cash": money(d.start_cash),
        "blind_max": money(d.blind_max),
        "prizes": " / ".join(money(p) for p in d.prizes),
        "stables_min": str(d.min_stables),
        "stables_max": str(d.max_stables),
        "speed_min": str(d.speed[0]),
        "speed_max": str(d.speed[1]),
        "handicap_max": str(d.handicap[1]),
    }


def card_table(table: str, lang: str) -> list[list[str]]:
    """``odds``: Win and Show by reserve price; ``going``: each going's grid top;
    ``prizes``: prize money by place."""
    d = load()
    if table == "going":
        return [[t("gn.cards.going", lang), t("gn.cards.top", lang)],
                *([t(f"gn.going.{g}", lang), str(d.top(g))] for g in d.goings)]  # fmt: skip
    if table == "prizes":
        return [[t("gn.cards.place", lang), t("gn.cards.prize", lang)],
                *([str(i + 1), money(p)] for i, p in enumerate(d.prizes))]  # fmt: skip
    head = [t("gn.ui.price", lang), t("gn.kind.win", lang), t("gn.kind.show", lang)]
    return [head, *([money(p), d.odds[p][0].text(), d.odds[p][1].text()] for p in d.prices)]
