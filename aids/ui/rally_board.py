"""The rally's board: the map drawn from the table's own map file (SVG, no tile server, so it
works on a venue's Wi-Fi with no internet), the standings, and the turns so far. Read-only:
the viewer's page too."""

from __future__ import annotations

import base64
import math

import streamlit as st

from aids.core.i18n import t
from aids.games.rally import engine
from aids.games.rally.board import RallyMap
from aids.games.rally.data import load
from aids.games.rally.describe import car_label, cards_text
from aids.games.rally.model import RallyState
from aids.ui.common import html_text, ink_on, md_tr, tr
from aids.ui.context import TableContext

MAP_CSS = """
<style>
.rally-map img { width: 100%; height: auto; max-height: 62vh; object-fit: contain;
  background: #eef4f8; border: 1px solid #c9ccd1; border-radius: 6px; }
table.cars { border-collapse: collapse; font-size: 14px; }
table.cars td, table.cars th { padding: 3px 6px; text-align: left; white-space: nowrap; }
table.cars td.num { text-align: right; }
.car { display: inline-block; min-width: 20px; height: 20px; border-radius: 10px;
  text-align: center; font-weight: 700; line-height: 20px; font-size: 12px; }
</style>
"""
WIDTH = 600  # the SVG's own units; it scales to the column


def board(ctx: TableContext) -> None:
    state: RallyState = ctx.state
    st.html(MAP_CSS + map_image(state, ctx.lang))
    _standings(ctx)
    _turns(ctx)


# --- the map -----------------------------------------------------------------------------------


def _projection(board_map: RallyMap, focus: set[str]) -> tuple[float, float, float, float]:
    """(west, north, km-free scale, height) of the box around the ``focus`` towns: a plain
    equirectangular view, squeezed by the cosine of the mean latitude, widened or heightened
    so a long thin course still fills a screen-shaped box."""
    towns = [board_map.town(i) for i in focus] or list(board_map.towns)
    lats, lons = [t_.lat for t_ in towns], [t_.lon for t_ in towns]
    squeeze = math.cos(math.radians(sum(lats) / len(lats)))
    pad = 0.45
    west, east = min(lons) - pad / squeeze, max(lons) + pad / squeeze
    south, north = min(lats) - pad, max(lats) + pad
    span_x, span_y = (east - west) * squeeze, north - south
    if span_x < span_y * 0.8:  # too thin: widen around the middle
        grow = (span_y * 0.8 - span_x) / squeeze / 2
        west, span_x = west - grow, span_y * 0.8
    elif span_y < span_x * 0.6:  # too flat: heighten around the middle
        grow = (span_x * 0.6 - span_y) / 2
        north, span_y = north + grow, span_x * 0.6
    scale = WIDTH / span_x
    return west, north, scale, span_y * scale


def map_image(state: RallyState, lang: str) -> str:
    """The map as an image with its description (the page's HTML sanitiser keeps an ``img``
    with a data URI, not inline SVG)."""
    svg = map_svg(state, lang)
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    label = html_text(tr("rally.ui.map_label", map=state.setup.board.name(lang)))
    return (
        f'<div class="rally-map"><img src="data:image/svg+xml;base64,{data}" alt="{label}"></div>'
    )


def map_svg(state: RallyState, lang: str) -> str:
    """The map around the course and the cars: roads, the ferry (dashed), the best route
    (thick), start ⚑ and goal 🏁, jams 🚧, and each car as its coloured numbered disc."""
    board_map = state.setup.board
    route = [town for town, _, _ in board_map.route(state.setup.start, state.setup.goal)]
    focus = set(route) | set(state.towns) | set(state.jams)
    west, north, scale, height = _projection(board_map, focus)
    width = WIDTH
    squeeze = math.cos(math.radians(sum(board_map.town(i).lat for i in focus) / len(focus)))
    kx, ky = scale * squeeze, scale

    def xy(town_id: str) -> tuple[float, float]:
        town = board_map.town(town_id)
        return (town.lon - west) * kx, (north - town.lat) * ky

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}">',
        "<style>text { font-family: sans-serif; paint-order: stroke; stroke: #fff;"
        " stroke-width: 3px; }</style>",
    ]
    for road in board_map.roads:
        (x1, y1), (x2, y2) = xy(road.a), xy(road.b)
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            'stroke="#9aa5b1" stroke-width="1.4"/>'
        )
    for a, b in board_map.ferries:
        (x1, y1), (x2, y2) = xy(a), xy(b)
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            'stroke="#1565c0" stroke-width="2" stroke-dasharray="6 4"/>'
        )
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in map(xy, route))
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="#f9a825" stroke-width="5" '
        'stroke-opacity="0.55" stroke-linejoin="round"/>'
    )
    for town in board_map.towns:
        x, y = xy(town.id)
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="#52606d"/>')
    marked = {state.setup.start, state.setup.goal, *state.towns, *state.jams}
    in_view = [
        t_.id
        for t_ in board_map.towns
        if 0 <= xy(t_.id)[0] <= width and 0 <= xy(t_.id)[1] <= height
    ]
    quiet = [i for i in in_view if i not in marked] if len(in_view) <= 25 else []
    for town_id in quiet:  # the other towns in view, small and grey
        x, y = xy(town_id)
        parts.append(
            f'<text x="{x + 6:.1f}" y="{y - 5:.1f}" font-size="13" fill="#52606d">'
            f"{html_text(board_map.town_name(town_id, lang))}</text>"
        )
    for town_id in sorted(marked):
        x, y = xy(town_id)
        mark = (
            "🏁 " if town_id == state.setup.goal else "⚑ " if town_id == state.setup.start else ""
        )
        jam = "🚧 " if town_id in state.jams else ""
        parts.append(
            f'<text x="{x + 8:.1f}" y="{y - 8:.1f}" font-size="18" font-weight="700">'
            f"{html_text(jam + mark + board_map.town_name(town_id, lang))}</text>"
        )
    by_town: dict[str, list[int]] = {}
    for seat, town_id in enumerate(state.towns):
        by_town.setdefault(town_id, []).append(seat)
    for town_id, seats in by_town.items():
        x, y = xy(town_id)
        for i, seat in enumerate(seats):
            colour = load().colour(state.setup.players[seat].colour)
            fill = colour.hex if colour else "#777"
            cx, cy = x + i * 20 - (len(seats) - 1) * 10, y + 16
            parts.append(
                f"<g><title>{html_text(car_label(state, seat))}</title>"
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="10" fill="{fill}" stroke="#fff"/>'
                f'<text x="{cx:.1f}" y="{cy + 5:.1f}" font-size="14" text-anchor="middle" '
                f'fill="{ink_on(fill)}" style="stroke:none;font-weight:700">{seat + 1}</text></g>'
            )
    parts.append("</svg>")
    return "".join(parts)


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
        f'{MAP_CSS}<div class="aids-scroll-x" style="overflow-x:auto" tabindex="0" role="region" '
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
