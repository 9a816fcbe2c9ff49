"""Grand National: a stable's card — its facts, its private link, the going table and its
four horses with their speed-point grids."""

from __future__ import annotations

import math
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from aids.core.i18n import t
from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import money
from aids.games.grand_national.model import GnState
from aids.print.cells import (
    FAINT,
    INK,
    SHADE,
    Dot,
    Grid,
    SeatMark,
    TextBox,
    Tick,
    Value,
    ruled,
    unruled,
)
from aids.print.gn.parts import (
    BAND_H,
    CARD_HEAD,
    CARD_TITLE,
    CARD_VALUE,
    CARD_WEIGHTS,
    FACT_H,
    FACT_HEAD,
    FACT_WEIGHTS,
    GAP,
    GOING_HEAD,
    GOING_ROW,
    GRID_COLS,
    GRID_ROW_MIN,
    LINK_QR,
    LINK_W,
    NAME_H,
    STROKE,
    Fill,
    QrCode,
    SpeedGrid,
    _c,
    _head,
    _shaded,
    _widths,
)

# --- a stable's card -------------------------------------------------------------------------


def _stable_page(
    state: GnState | None, seat: int | None, link: str | None, lang: str, width: float
) -> list[Flowable]:
    band = Grid(
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
    table = Grid(
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
        box = Grid(
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
    caption = Grid(
        [
            [TextBox(t("gn.sheet.private_link", lang), 9, max_lines=3, min_size=6.5)],
            [TextBox(t("gn.sheet.private_use", lang), 6.5, max_lines=2, min_size=5)],
            [TextBox(link, 6, max_lines=4, min_size=4.5)],
        ],
        colWidths=[text_w],
        rowHeights=[11 * mm, 6 * mm, BAND_H - 17 * mm],
    )
    caption.setStyle(TableStyle(unruled()))
    box = Grid(
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
    table = Grid(
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
    table = Grid(grid, colWidths=[card_w, GAP, card_w], rowHeights=heights)
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
    table = Grid(
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
