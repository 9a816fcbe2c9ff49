"""Grand National sheet parts shared by its pages: sizes, small cell helpers, and the
flowables they compose (a fill, a QR code, a speed-point grid)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from aids.core.i18n import t
from aids.print.cells import (
    FAINT,
    GRID_LINE,
    INK,
    SHADE,
    Mark,
    TextBox,
    ruled,
)
from aids.print.fonts import ASCENT, register
from aids.print.qr import draw_qr

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
        c.setStrokeColor(STROKE)
        c.setLineWidth(0.9)
        inset = min(cw, rh) * 0.12
        fill = None  # set only when it changes: 64 cells a grid, 8 grids a stable
        for i in range(self.cells):
            number = self.cells - i
            r, k = divmod(i, GRID_COLS)
            x, y = k * cw, self.height - (r + 1) * rh
            mark = self.mark(number)
            if mark:
                c.setFillColor(OUT if mark == "out" else USED)
                c.rect(x, y, cw, rh, stroke=0, fill=1)
                fill = None
            ink = FAINT if mark == "out" else INK
            if ink is not fill:
                c.setFillColor(ink)
                fill = ink
            base = y + rh / 2 - (ASCENT - 0.5) * size
            c.drawCentredString(x + cw / 2, base, str(number))
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
