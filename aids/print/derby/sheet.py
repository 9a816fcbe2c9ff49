"""The Derby score sheet's body: horse × fence grid with counter slots, scoring table, rulings.

The print frame (``aids.print.frame``) draws the paper, the header and the QR code; this module
gives only ``story``. The blank sheet has the default horses and numbered seats to write in. A
table's sheet is its record, filled in as far as the race has gone: each horse's top card per
fence (a black card white on black, cards beneath noted), counters as their owner's numbered
square, fallen horses struck through and marked with their fence, finishers ticked, and the
scores (counters × points per fence, total, winners). Marks never rely on colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepInFrame, Spacer, Table, TableStyle

from aids.core.i18n import t
from aids.games.derby import GAME, engine
from aids.games.derby.data import load
from aids.games.derby.model import DerbyState
from aids.games.palette import Colour
from aids.print.cells import (
    FAINT,
    INK,
    Centred,
    Dot,
    Grid,
    SeatMark,
    Style,
    TextBox,
    Tick,
    Value,
    ruled,
    unruled,
)
from aids.print.frame import Styles, join_list, rulings
from aids.tables import Snapshot

OUT = colors.HexColor("#dcdcdc")  # fences after a horse fell: nothing more to write there
ROW = 9.5 * mm
SCORE_HEAD = (9 * mm, 5 * mm)
SCORE_ROW = 8.5 * mm


@dataclass(frozen=True, slots=True)
class Named:
    """A player or horse: its name and colour (no colour: a blank seat to write in)."""

    name: str
    hex: str | None


@dataclass(frozen=True, slots=True)
class Top:
    """The top card of a horse at a fence, and the cards beneath it."""

    value: int
    black: bool
    under: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DerbySheetView:
    """What the body shows. The blank sheet has empty seats and nothing recorded."""

    players: tuple[Named, ...]
    horses: tuple[Named, ...]
    tops: dict[tuple[int, int], Top] = field(default_factory=dict)  # (fence, row) → card
    counters: dict[tuple[int, int], int] = field(default_factory=dict)  # (fence, row) → seat
    fallen: tuple[int | None, ...] = ()  # per row: the fence it fell at
    fence: int = 0  # the fence being run, 0 on the blank sheet
    over: bool = False
    scores: tuple[int, ...] = ()
    winners: frozenset[int] = frozenset()


def sheet_view(snapshot: Snapshot | None, lang: str) -> DerbySheetView:
    """The blank sheet's default horses and seats, or a table's record so far."""
    data = load()
    if snapshot is None:
        return DerbySheetView(
            players=tuple(Named("", None) for _ in range(data.max_players)),
            horses=tuple(Named(c.name(lang), c.hex) for c in data.horse_colours),
        )
    state: DerbyState = snapshot.state
    tops: dict[tuple[int, int], Top] = {}
    for fence, column in enumerate(state.columns, start=1):
        for row, stack in enumerate(column):
            if stack:
                under = tuple(c.localized(lang) for c in reversed(stack[:-1]))
                tops[fence, row] = Top(stack[-1].value, stack[-1].is_black, under)
    over = engine.is_over(state)
    return DerbySheetView(
        players=tuple(
            Named(p.name, _hex(data.counter_colour(p.colour))) for p in state.setup.players
        ),
        horses=tuple(Named(h.name, _hex(data.horse_colour(h.colour))) for h in state.setup.horses),
        tops=tops,
        counters={(c.fence, c.horse): c.player for c in state.counters},
        fallen=state.fallen,
        fence=state.fence,
        over=over,
        scores=engine.scores(state),
        winners=frozenset(engine.winners(state)) if over else frozenset(),
    )


def _hex(colour: Colour | None) -> str:
    return colour.hex if colour is not None else "#999999"


def story(snapshot: Snapshot | None, lang: str, width: float, styles: Styles) -> list[Flowable]:
    view = sheet_view(snapshot, lang)
    return [_grid(view, lang, width), Spacer(1, 3 * mm), _bottom(view, lang, width, styles)]


def _centred(text: str, size: float = 9, **kw: Any) -> TextBox:
    return TextBox(text, size, align="centre", **kw)


def _grid(view: DerbySheetView, lang: str, width: float) -> Table:
    """Horses × fences: for fences 1–4 a counter slot then the card column; fence 5 has none."""
    data = load()
    payout = data.payout
    # relative widths: row no., horse, (slot, card) × 4, card 5, finished
    weights = [3, 18] + [5.5, 10] * 4 + [10, 7]
    unit = width / sum(weights)
    fence_row: list[Any] = ["", ""]
    sub_row: list[Any] = [_centred("#"), _centred(t("derby.sheet.horse", lang))]
    for fence in range(1, data.fences + 1):
        label = _centred(t("derby.sheet.fence", lang, n=fence))
        card = _centred(t("derby.sheet.card", lang))
        if fence in payout:
            fence_row += [label, ""]
            sub_row += [_centred(t("derby.sheet.slot", lang, points=payout[fence]), 7.5), card]
        else:
            fence_row += [label]
            sub_row += [card]
    fence_row += [_centred(t("derby.sheet.finished", lang), 7.5, max_lines=2)]
    sub_row += [""]
    rows: list[list[Any]] = [fence_row, sub_row]
    style: Style = []
    for row, horse in enumerate(view.horses):
        fell = view.fallen[row] if view.fallen else None
        name = TextBox(
            horse.name, 10, min_size=6.5, mark=Dot(horse.hex or "#ffffff"), strike=fell is not None
        )
        cells: list[Any] = [_centred(str(row + 1), 10), name]
        for fence in range(1, data.fences + 1):
            out = fell is not None and fence > fell
            if fence in payout:
                cells.append(_slot(view, fence, row, out))
            cells.append(_card(view.tops.get((fence, row)), lang))
            if out:
                col = len(cells) - (2 if fence in payout else 1)
                style.append(("BACKGROUND", (col, row + 2), (len(cells) - 1, row + 2), OUT))
        cells.append(_finished(view, fell, lang))
        rows.append(cells)
    table = Grid(
        rows,
        colWidths=[w * unit for w in weights],
        rowHeights=[6 * mm, 8 * mm] + [ROW] * len(view.horses),
    )
    style += [*ruled(2), ("SPAN", (0, 0), (1, 0)), ("SPAN", (-1, 0), (-1, 1))]
    col = 2
    for fence in range(1, data.fences + 1):
        if fence in payout:
            style += [
                ("SPAN", (col, 0), (col + 1, 0)),
                ("LINEAFTER", (col + 1, 0), (col + 1, -1), 1.4, colors.black),
            ]
            col += 2
        else:
            style.append(("LINEAFTER", (col, 0), (col, -1), 1.4, colors.black))
            col += 1
    table.setStyle(TableStyle(style))
    return table


def _slot(view: DerbySheetView, fence: int, row: int, out: bool) -> Any:
    """The owner's numbered square, or an empty slot to mark by hand."""
    seat = view.counters.get((fence, row))
    if seat is None:
        return "" if out else _centred("○", 14, colour=FAINT)
    return Centred(SeatMark(seat + 1, view.players[seat].hex, side=13))


def _card(top: Top | None, lang: str) -> Any:
    if top is None:
        return ""
    under = t("print.under", lang, cards=join_list(top.under, lang))
    return Value(str(top.value), inverse=top.black, note=under if top.under else "")


def _finished(view: DerbySheetView, fell: int | None, lang: str) -> Any:
    if fell is not None:
        return _centred(t("print.fell_at", lang, fence=fell), 7, max_lines=2)
    return Tick() if view.over else _centred("□", 14, colour=FAINT)


def _bottom(view: DerbySheetView, lang: str, width: float, styles: Styles) -> Table:
    """Scoring table (left) and the notes: status, key to the marks, rulings (right)."""
    data = load()
    bottom = sum(SCORE_HEAD) + data.max_players * SCORE_ROW  # the same height on every sheet
    score_width = width * 0.6
    notes_width = width - score_width - 4 * mm
    notes: list[Flowable] = []
    if view.fence:
        notes.append(TextBox(_status(view, lang), 8.5, max_lines=2, grow=True, space_after=2))
    legend = t("print.legend", lang)
    notes.append(TextBox(legend, 7, grow=True, space_after=3))
    notes += rulings(GAME, lang, styles)
    counters = t("derby.sheet.counters_note", lang, small=data.counters[2], large=data.counters[4])
    notes.append(TextBox(counters, 7, grow=True))
    outer = Grid(
        [
            [
                _scores(view, lang, score_width),
                KeepInFrame(notes_width, bottom, notes, mode="shrink"),
            ]
        ],
        colWidths=[score_width + 4 * mm, notes_width],
        rowHeights=[bottom],
    )
    outer.setStyle(TableStyle(unruled()))
    return outer


def _status(view: DerbySheetView, lang: str) -> str:
    if view.over:
        return t("print.final", lang)
    return t("print.in_progress", lang, fence=view.fence, fences=load().fences)


def _number(n: int) -> TextBox:
    """A count or score: a zero faint, so the numbers that matter stand out."""
    return _centred(str(n), 11, colour=INK if n else FAINT)


def _scores(view: DerbySheetView, lang: str, width: float) -> Table:
    """Player × fence: counters still scoring, × the fence's points, and the total.

    On the blank sheet every cell is empty and wide enough to write in; a table in progress
    shows the counters so far, a finished one the points, the total and the winners.
    """
    payout = load().payout
    head: list[Any] = [_centred(t("derby.sheet.player", lang))]
    sub: list[Any] = [""]
    for f, p in payout.items():
        head += [_centred(t("derby.sheet.score_col", lang, n=f, points=p), 8.5), ""]
        sub += [_centred(t("print.count", lang), 7.5), _centred(t("print.points", lang), 7.5)]
    head.append(_centred(t("derby.sheet.total", lang)))
    sub.append("")
    rows: list[list[Any]] = [head, sub]
    for seat, player in enumerate(view.players):
        mark = SeatMark(seat + 1, player.hex)
        cells: list[Any] = [TextBox(player.name, 9, min_size=6.5, max_lines=2, mark=mark)]
        for f, p in payout.items():
            count = sum(
                1
                for (fence, row), owner in view.counters.items()
                if owner == seat and fence == f and view.fallen[row] is None
            )
            reached = bool(view.fence) and f <= view.fence
            cells.append(_number(count) if reached else "")
            cells.append(_number(count * p) if view.over else "")
        if view.over:
            won = seat in view.winners
            note = t("print.winner", lang) if won else ""
            cells.append(Value(str(view.scores[seat]), size=11, note=note))
        else:
            cells.append("")
        rows.append(cells)
    weights = [9.5] + [2.2, 2.6] * len(payout) + [3.2]
    unit = width / sum(weights)
    score = Grid(
        rows,
        colWidths=[w * unit for w in weights],
        rowHeights=[*SCORE_HEAD] + [SCORE_ROW] * len(view.players),
    )
    style = [
        *ruled(2),
        ("LINEBEFORE", (-1, 0), (-1, -1), 1.4, colors.black),
        ("SPAN", (0, 0), (0, 1)),
        ("SPAN", (-1, 0), (-1, 1)),
    ]
    for i in range(len(payout)):
        col = 1 + 2 * i
        style += [
            ("SPAN", (col, 0), (col + 1, 0)),
            ("LINEBEFORE", (col, 0), (col, -1), 1.2, colors.black),
        ]
    score.setStyle(TableStyle(style))
    return score


# --- the rule cards' numbers and tables (aids.print.cards), from the same seed as the engine ---


def card_values() -> dict[str, str]:
    d = load()
    points = "/".join(str(d.payout[place]) for place in sorted(d.payout))
    counters = sorted(set(d.counters.values()), reverse=True)
    return {
        "horses": str(d.horse_count),
        "fences": str(d.fences),
        "hand_size": str(d.hand_size),
        "players_min": str(d.min_players),
        "players_max": str(d.max_players),
        "counter_points": points,
        "counters": "/".join(map(str, counters)),
    }


def card_table(table: str, lang: str) -> list[list[str]]:
    """``points``: what a counter under each finishing place scores."""
    d = load()
    head = [t("derby.cards.fence", lang), t("derby.cards.points", lang)]
    return [head, *([str(place), str(d.payout[place])] for place in sorted(d.payout))]
