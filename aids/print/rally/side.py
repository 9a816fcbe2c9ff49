"""Japan Rally's log sheet, its side column (``aids.print.rally.sheet`` draws the rest): the
route card (the course's towns along the best way with their km; in two columns when the
page is short), the team points by place, the car's finish and, room allowing, a box for
notes. Also the ``Course`` a sheet shows and the spacing both parts share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from aids.core.i18n import t
from aids.games.rally import engine
from aids.games.rally.board import RallyMap
from aids.games.rally.data import load
from aids.games.rally.model import RallyState
from aids.print.cells import (
    FAINT,
    GRID_LINE,
    SHADE,
    Grid,
    TextBox,
    Value,
    ruled,
    unruled,
)

GAP = 3 * mm
GAP_SMALL = 1.2 * mm
ROUTE_ROW = 6.5 * mm
ROUTE_ROW_MIN = 5.2 * mm  # below this, the route card goes into two columns
ROUTE_HEAD = 5.5 * mm
NOTES_MIN = 14 * mm


def _c(text: str, size: float = 9, **kw: Any) -> TextBox:
    return TextBox(text, size, align="centre", **kw)


@dataclass(frozen=True, slots=True)
class Course:
    """The course a sheet's route card shows: its map, start and goal, and its name."""

    board: RallyMap
    start: str
    goal: str
    sample: bool  # the blank sheet's: the sample map's first course

    def name(self, lang: str) -> str:
        for course in self.board.courses:
            if (course.start, course.goal) == (self.start, self.goal):
                return course.name(lang)
        return f"{self.board.town_name(self.start, lang)} → {self.board.town_name(self.goal, lang)}"

    def route(self) -> tuple[tuple[str, int, bool], ...]:
        return self.board.route(self.start, self.goal)


def _side(
    state: RallyState | None, seat: int | None, course: Course, lang: str
) -> Callable[[float, float], list[Flowable]]:
    """The side column for a given width and height: the route card takes what the rest
    leaves (keeping room for notes), the notes box whatever is left after it."""

    teams = state is None or bool(state.setup.teams)  # a blank sheet may serve either

    def build(width: float, height: float) -> list[Flowable]:
        route = course.route()
        key = "rally.sheet.route_sample" if course.sample else "rally.sheet.route"
        title = t(key, lang, course=course.name(lang), km=route[-1][1])
        heading = TextBox(title, 9, min_size=7, max_lines=3, grow=True, space_after=GAP_SMALL)
        points: list[Flowable] = []
        if teams:  # team play: the points each place scores
            points = [
                TextBox(t("rally.sheet.points_title", lang), 8.5, max_lines=2, grow=True,
                        space_after=GAP_SMALL),
                _points(lang, width),
            ]  # fmt: skip
        finish = _finish(state, seat, lang, width, teams=teams)
        fixed = (heading, *points, finish)
        used = sum(f.wrap(width, height)[1] + f.getSpaceAfter() for f in fixed)
        used += (2 if points else 1) * GAP
        card = _route_card(course, route, lang, width, height - used - GAP - NOTES_MIN)
        used += card.wrap(width, height)[1]
        out: list[Flowable] = [heading, card]
        if points:
            out += [Spacer(1, GAP), *points]
        out += [Spacer(1, GAP), finish]
        if height - used - GAP >= NOTES_MIN:
            out += [Spacer(1, GAP), _notes(lang, width, height - used - GAP)]
        return out

    return build


def _route_card(
    course: Course,
    route: Sequence[tuple[str, int, bool]],
    lang: str,
    width: float,
    room: float,
) -> Table:
    """The towns along the best way with their km; in two columns if one would be cramped."""
    board = course.board
    head = [
        _c(t("rally.sheet.town", lang), 7.5),
        _c(t("rally.sheet.km", lang), 7.5),
        _c(t("rally.sheet.ferry_mark", lang), 7, max_lines=1),
    ]
    cells = [
        [
            TextBox(board.town_name(town, lang), 8, min_size=5.5, max_lines=2),
            _c(str(km), 8.5, max_lines=1),
            _c(t("rally.sheet.ferry_mark", lang), 7, max_lines=1) if ferry else "",
        ]
        for town, km, ferry in route
    ]
    columns = 1
    row = min(ROUTE_ROW, (room - ROUTE_HEAD) / len(cells))
    if row < ROUTE_ROW_MIN:
        columns = 2
        row = min(ROUTE_ROW, (room - ROUTE_HEAD) / -(-len(cells) // 2))
    per = -(-len(cells) // columns)
    weights = (0.56, 0.26, 0.18)  # town, km, ferry
    part = (width - (columns - 1) * 1.5 * mm) / columns
    rows: list[list[Any]] = [head * columns]
    for i in range(per):
        line: list[Any] = []
        for c in range(columns):
            k = c * per + i
            line += cells[k] if k < len(cells) else ["", "", ""]
        rows.append(line)
    col_widths: list[float] = []
    for c in range(columns):
        col_widths += [part * w for w in weights]
        if c < columns - 1:
            col_widths[-1] += 1.5 * mm  # the gap goes into the cell before it
    table = Grid(rows, colWidths=col_widths, rowHeights=[ROUTE_HEAD] + [max(row, 4 * mm)] * per)
    style = ruled(1, pad=1.8)
    if columns == 2:
        style.append(("LINEBEFORE", (3, 0), (3, -1), 1.4, colors.black))
    for i, (_, _, ferry) in enumerate(route):
        if ferry:
            r, c = i % per + 1, (i // per) * 3
            style.append(("BACKGROUND", (c, r), (c + 2, r), colors.HexColor("#e3eef8")))
    table.setStyle(TableStyle(style))
    return table


def _points(lang: str, width: float) -> Table:
    """Team play: the points each place scores (from the seed file)."""
    points = load().points
    head: list[Any] = [_c(t("rally.sheet.place", lang), 7.5, max_lines=2)]
    head += [_c(str(place), 9) for place in range(1, len(points) + 1)]
    values: list[Any] = [_c(t("rally.sheet.points", lang), 7.5, max_lines=2)]
    values += [_c(str(p), 10) for p in points]
    first = width * 0.22
    rest = (width - first) / len(points)
    table = Grid(
        [head, values], colWidths=[first] + [rest] * len(points), rowHeights=[5.5 * mm, 6.5 * mm]
    )
    table.setStyle(TableStyle([*ruled(1), ("BACKGROUND", (0, 0), (0, -1), SHADE)]))
    return table


def _finish(
    state: RallyState | None, seat: int | None, lang: str, width: float, *, teams: bool = True
) -> Table:
    """The car's place, and in team play its points and its team's total: filled once the
    race is over (individual play scores no points: the place is the result)."""
    keys = ("place", "points", "team") if teams else ("place",)
    head = [_c(t(f"rally.sheet.finish_{k}", lang), 7.5, max_lines=2) for k in keys]
    values: list[Any] = [""] * len(keys)
    if state is not None and seat is not None and state.phase == "over":
        place = 1
        for group in engine.placings(state):
            if seat in group:
                break
            place += len(group)
        team = state.setup.players[seat].team
        total = engine.team_totals(state)[team] if team is not None else None
        values = [
            Value(str(place), size=12),
            Value(str(engine.place_points(state)[seat]), size=12),
            Value(str(total), size=12) if total is not None else _c("—", 10, colour=FAINT),
        ][: len(keys)]
    table = Grid(
        [head, values], colWidths=[width / len(keys)] * len(keys), rowHeights=[5.5 * mm, 8.5 * mm]
    )
    table.setStyle(TableStyle(ruled(1)))
    return table


def _notes(lang: str, width: float, height: float) -> Table:
    """An open box to write in, as tall as the column has left."""
    label = TextBox(t("rally.sheet.notes", lang), 7.5, colour=FAINT, max_lines=1)
    table = Grid([[label]], colWidths=[width], rowHeights=[height])
    style = unruled()
    style += [
        ("BOX", (0, 0), (-1, -1), 0.6, GRID_LINE),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
    ]
    table.setStyle(TableStyle(style))
    return table
