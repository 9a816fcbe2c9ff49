"""The rally's board: the map drawn from the table's own map file (``rally_map``: no tile
server, so it works on a venue's Wi-Fi with no internet), the standings, and the turns so far.
Read-only: the viewer's page too."""

from __future__ import annotations

import streamlit as st

from aids.core.i18n import t
from aids.games.rally import engine
from aids.games.rally.data import load
from aids.games.rally.describe import car_label, cards_text
from aids.games.rally.model import RallyState
from aids.ui.common import html_text, ink_on, md_tr, tr
from aids.ui.context import TableContext
from aids.ui.rally_map import MAP_CSS, map_html

CARS_CSS = """
<style>
table.cars { border-collapse: collapse; font-size: 14px; }
table.cars td, table.cars th { padding: 3px 6px; text-align: left; white-space: nowrap; }
table.cars td.num { text-align: right; }
.car { display: inline-block; min-width: 20px; height: 20px; border-radius: 10px;
  text-align: center; font-weight: 700; line-height: 20px; font-size: 12px; }
</style>
"""


def board(ctx: TableContext, stop: str | None = None) -> None:
    """The map (with ``stop``, the town a movement being entered will stop at), the
    standings and the turns so far."""
    state: RallyState = ctx.state
    label = tr("rally.ui.map_label", map=state.setup.board.name(ctx.lang))
    st.html(MAP_CSS + map_html(state, ctx.lang, label, stop))
    _standings(ctx)
    _turns(ctx)


# --- standings ---------------------------------------------------------------------------------


def status_words(state: RallyState, seat: int, lang: str) -> str:
    words = [
        t(f"rally.status.{s}", lang, turns=state.police[seat]) for s in engine.statuses(state, seat)
    ]
    if seat in state.arrived:
        words.append(t("rally.status.arrived", lang, place=state.arrived.index(seat) + 1))
    return " · ".join(words)


def _standings(ctx: TableContext) -> None:
    state: RallyState = ctx.state
    board_map = state.setup.board
    teams = bool(state.setup.teams)
    points = engine.place_points(state)
    head = ["#", tr("rally.ui.car"), tr("rally.ui.town"), tr("rally.ui.to_goal"),
            tr("rally.ui.hand"), tr("rally.ui.status")]  # fmt: skip
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
                f'<span class="car" style="background:{fill};color:{ink_on(fill)}">{seat + 1}'
                "</span>"
            )
            cells = [
                str(place),
                f"{disc} {html_text(state.setup.players[seat].name)}",
                html_text(board_map.town_name(state.towns[seat], ctx.lang)),
                f'<span class="num">{km} km</span>',
                str(state.hand_sizes[seat]),
                html_text(status_words(state, seat, ctx.lang)),
            ]
            if teams:
                team = state.setup.players[seat].team or 0
                cells += [html_text(state.setup.teams[team]), str(points[seat])]
            rows.append("".join(f"<td>{c}</td>" for c in cells))
        place += len(group)
    heads = "".join(f"<th>{html_text(h)}</th>" for h in head)
    body = "".join(f"<tr>{r}</tr>" for r in rows)
    label = html_text(tr("rally.ui.standings"))
    st.html(
        f'{CARS_CSS}<div class="aids-scroll-x" style="overflow-x:auto" tabindex="0" role="region" '
        f'aria-label="{label}">'
        f'<table class="cars"><tr>{heads}</tr>{body}</table></div>'
    )
    if teams:
        totals = engine.team_totals(state)
        words = " · ".join(
            f"{name} {total}" for name, total in zip(state.setup.teams, totals, strict=True)
        )
        st.caption(md_tr("rally.ui.team_points", totals=words))


def _turns(ctx: TableContext) -> None:
    """Every finished turn, newest first: cards, km, from → to."""
    state: RallyState = ctx.state
    if not state.turns:
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
    with st.expander(tr("rally.ui.turns"), expanded=False):
        st.html("<br>".join(html_text(line) for line in lines))
