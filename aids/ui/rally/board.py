"""The rally's board: the map drawn from the table's own map file (``map``: no tile
server, so it works on a venue's Wi-Fi with no internet) and the turns so far; the standings
the frame draws above it.
Read-only: the viewer's page too."""

from __future__ import annotations

import streamlit as st

from aids.core.i18n import t
from aids.games.rally import engine
from aids.games.rally.data import load
from aids.games.rally.describe import car_label, cards_text
from aids.games.rally.model import RallyState
from aids.ui.common import html_text, ink_on, lazy_expander, tr
from aids.ui.context import Standings, TableContext
from aids.ui.rally.map import MAP_CSS, map_html
from aids.ui.standings import NUM, Row

# a car's disc as on the map: its colour, its seat number (inline: the standings are the frame's)
DISC = (
    "display:inline-block;min-width:20px;height:20px;border-radius:10px;text-align:center;"
    "font-weight:700;line-height:20px;font-size:12px"
)
# a car's status under its name: smaller, and wrapping (the table's cells do not)
STATUS = "white-space:normal;font-size:12px;line-height:1.3;font-weight:400;color:#333"


def board(ctx: TableContext, stop: str | None = None) -> None:
    """The map (with ``stop``, the town a movement being entered will stop at) and the
    turns so far (the standings are the frame's: ``standings``)."""
    st.html(map_of(ctx, stop))
    _turns(ctx)


def map_of(ctx: TableContext, stop: str | None = None) -> str:
    """The map as HTML with its styles (the page, the live view, the wall)."""
    state: RallyState = ctx.state
    label = tr("rally.ui.map_label", map=state.setup.board.name(ctx.lang))
    return MAP_CSS + map_html(state, ctx.lang, label, stop)


# --- standings ---------------------------------------------------------------------------------


def status_words(state: RallyState, seat: int, lang: str) -> str:
    words = [
        t(f"rally.status.{s}", lang, turns=state.police[seat]) for s in engine.statuses(state, seat)
    ]
    if seat in state.arrived:
        words.append(t("rally.status.arrived", lang, place=state.arrived.index(seat) + 1))
    return " · ".join(words)


def standings(ctx: TableContext) -> Standings:
    """Who leads (the frame's standings box): the cars by their placing now (arrived cars
    by arrival, then the rest nearest the goal first; ``engine.placings``, ties sharing a
    place), each with its disc as on the map, its town, its km to the goal, its hand and its
    status; in team play its team and points, and the teams' totals under the table. A car's
    own link (a seat is a car) marks its row."""
    state: RallyState = ctx.state
    board_map = state.setup.board
    teams = bool(state.setup.teams)
    points = engine.place_points(state)
    head = [tr("rally.ui.car"), tr("rally.ui.town"), tr("rally.ui.to_goal"), tr("rally.ui.hand")]
    if teams:
        head += [tr("rally.ui.team"), tr("rally.ui.points")]
    rows = []
    place = 1
    for group in engine.placings(state):
        for seat in group:
            km, _ = engine.to_goal(state, state.towns[seat])
            colour = load().colour(state.setup.players[seat].colour)
            fill = colour.hex if colour else "#777"
            disc = (
                f'<span class="car" style="{DISC};background:{fill};color:{ink_on(fill)}">'
                f"{seat + 1}</span>"
            )
            # the status (jam, rain, police...) under the car, wrapping there: a column of
            # its own made the table wider than a phone
            words = status_words(state, seat, ctx.lang)
            under = f'<div style="{STATUS}">{html_text(words)}</div>' if words else ""
            cells = [
                f"{disc} {html_text(state.setup.players[seat].name)}{under}",
                html_text(board_map.town_name(state.towns[seat], ctx.lang)),
                f"{NUM}{km} km",
                f"{NUM}{state.hand_sizes[seat]}",
            ]
            if teams:
                team = state.setup.players[seat].team or 0
                cells += [html_text(state.setup.teams[team]), f"{NUM}{points[seat]}"]
            rows.append(Row(place, seat, tuple(cells)))
        place += len(group)
    note = ""
    if teams:
        totals = engine.team_totals(state)
        words = " · ".join(
            f"{name} {total}" for name, total in zip(state.setup.teams, totals, strict=True)
        )
        note = tr("rally.ui.team_points", totals=words)
    return Standings(tuple(head), tuple(rows), tr("rally.ui.standings"), note)


def _turns(ctx: TableContext) -> None:
    """Every finished turn, newest first: cards, km, from → to."""
    state: RallyState = ctx.state
    if not state.turns:
        return
    section = lazy_expander(tr("rally.ui.turns"), "rally_turns")  # a line a turn: when open
    if section is None:
        return
    lines = []
    for record in reversed(state.turns[-40:]):
        car = car_label(state, record.seat)
        town = state.setup.board.town_name
        if record.missed:
            lines.append(tr("rally.ui.turn_missed", round=record.round, car=car))
            continue
        lines.append(
            tr(
                "rally.ui.turn_line",
                round=record.round,
                car=car,
                cards=cards_text(record.cards, ctx.lang) or "—",
                km=record.km,
                start=town(record.start, ctx.lang),
                end=town(record.end, ctx.lang) + (" ⛴" if record.ferry else ""),
            )
        )
    section.html("<br>".join(html_text(line) for line in lines))
