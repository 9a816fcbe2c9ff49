"""The Derby score sheet's body: horse × fence grid with counter slots, scoring table, rulings.

The print frame (``aids.print.frame``) draws the paper, the header and the QR code; this module
gives only ``story``. A table's sheet carries its horses and players; the blank sheet the
default horses and empty player lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from aids.core.i18n import t
from aids.games.derby import GAME
from aids.games.derby.data import Colour, load
from aids.games.derby.model import DerbyState
from aids.print.fonts import register
from aids.print.frame import Styles, rulings
from aids.tables import Snapshot

GRID_LINE = colors.HexColor("#555555")
SHADE = colors.HexColor("#eef1f5")


@dataclass(frozen=True, slots=True)
class Named:
    name: str
    hex: str


@dataclass(frozen=True, slots=True)
class DerbySheetView:
    """What the body shows: players (empty names on the blank sheet) and horses in row order."""

    players: tuple[Named, ...]
    horses: tuple[Named, ...]


def sheet_view(snapshot: Snapshot | None, lang: str) -> DerbySheetView:
    """A table's players and horses, or the blank sheet's default horses and empty lines."""
    data = load()
    if snapshot is None:
        return DerbySheetView(
            players=tuple(Named("", "#ffffff") for _ in range(data.max_players)),
            horses=tuple(Named(c.name(lang), c.hex) for c in data.horse_colours),
        )
    state: DerbyState = snapshot.state
    return DerbySheetView(
        players=tuple(
            Named(p.name, _hex(data.counter_colour(p.colour))) for p in state.setup.players
        ),
        horses=tuple(Named(h.name, _hex(data.horse_colour(h.colour))) for h in state.setup.horses),
    )


def _hex(colour: Colour | None) -> str:
    return colour.hex if colour is not None else "#999999"


def story(snapshot: Snapshot | None, lang: str, width: float, styles: Styles) -> list[Flowable]:
    view = sheet_view(snapshot, lang)
    return [_grid(view, lang, width, styles), Spacer(1, 4 * mm), _bottom(view, lang, width, styles)]


def _grid(view: DerbySheetView, lang: str, width: float, styles: Styles) -> Table:
    """Horses × fences: for fences 1–4 a counter slot then the card column; fence 5 has none."""
    data = load()
    payout = data.payout
    head, small, horse_style = styles["head"], styles["small"], styles["name"]
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


def _bottom(view: DerbySheetView, lang: str, width: float, styles: Styles) -> Table:
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
    notes = [*rulings(GAME, lang, styles), Paragraph(escape(counters), styles["small"])]
    outer = Table([[score, notes]], colWidths=[score_width + 4 * mm, width - score_width - 4 * mm])
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
