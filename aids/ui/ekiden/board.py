"""The Ekiden's board: the road split by its centre lines, leg results (a leg in full on
demand); and the standings the frame draws above it. Read-only: the viewer's page too."""

from __future__ import annotations

import streamlit as st

from aids.core.i18n import t
from aids.games.ekiden import engine
from aids.games.ekiden.data import load
from aids.games.ekiden.describe import MARK_SIGNS, runner_text, team_label
from aids.games.ekiden.model import EkidenState
from aids.ui.common import html_text, tr
from aids.ui.context import Standings, TableContext
from aids.ui.standings import NUM, Row

# --- the road, legs, standings --------------------------------------------------------------

SIDE_KEYS = {"L": "ekiden.ui.side_L", "R": "ekiden.ui.side_R"}
CARD_COLUMNS = 3  # a road card's columns: the road is drawn card by card
NARROW_ROW = 9  # columns per row where the whole road in one row would be too narrow
COLUMN_REM = 1.2  # the narrowest a column may be in one row (a piece is 1rem)
ROAD_CSS = """
<style>
.ek-road { container-type: inline-size; }
.ek-road .cols { display: grid; grid-template-columns: repeat(var(--cols), minmax(0, 1fr));
  border: 1px solid #c9ccd1; border-radius: 4px; overflow: hidden; }
.ek-road .col { position: relative; display: flex; flex-direction: column; align-items: center;
  gap: 2px; min-height: 2.6rem; padding: 0 0 3px; border-left: 1px solid #e6e7ea;
  border-bottom: 1px solid #e6e7ea; min-width: 0; }
.ek-road .col.card { border-left: 2px solid #8d9096; }
.ek-road .col::after { content: ""; position: absolute; top: 1.05rem; bottom: 0; left: 50%;
  border-left: 1px dashed #8d9096; }
.ek-road .col.start { background: #fff4c2; }
.ek-road .col.off { background: #eeeeee; }
.ek-road .num { font-size: 10px; line-height: 1rem; color: #444; white-space: nowrap; }
.ek-road .piece { position: relative; z-index: 1; display: block; width: 1rem; height: 1rem;
  border-radius: 50%; color: #fff; font-weight: 700; font-size: 10px; line-height: 1rem;
  text-align: center; box-shadow: 0 0 0 1px rgba(0, 0, 0, .35); }
.ek-road .col.L .piece { align-self: flex-start; }
.ek-road .col.R .piece { align-self: flex-end; }
.ek-road .piece.light { color: #111; }
</style>
"""
TABLE_CSS = """
<style>
.ek-wrap { container-type: inline-size; }
.ek-scroll { overflow-x: auto; }
.ek-hint { display: none; margin: .2rem 0 0; font-size: 12px; color: #555; }
table.legs { border-collapse: collapse; font-size: 13px; }
table.legs td, table.legs th { padding: 2px 6px; white-space: nowrap; text-align: center; }
</style>
"""


def board(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    st.html(road_html(state))
    st.caption(tr("ekiden.ui.road_note", side=tr(SIDE_KEYS[engine.side_after(len(state.history))])))
    if any(abs(p.column) > load().road_half for p in state.places):
        st.warning(tr("ekiden.ui.past_road"))
    if state.history:
        _legs(ctx)  # the 順位変動 chart is the frame's race chart (``charts``)


def road_columns(state: EkidenState) -> range:
    """The columns drawn: the printed road's 27 and any a piece stands on past either end."""
    half = load().road_half
    places = [p.column for p in state.places]
    return range(min(-half, *places), max(half, *places) + 1)


def road_html(state: EkidenState) -> str:
    """The whole road, every column on screen at once (no sideways scrolling, so no piece is
    ever out of sight): one row of 27 where a column can be 1.2 rem wide, else rows of 9
    (three road cards each). Each column is split by its centre line; the pieces stand on the
    side they crossed to, nearest the line first (top); columns past the printed road are
    grey."""
    half = load().road_half
    columns = road_columns(state)
    side = engine.side_after(len(state.history))
    cells = []
    for column in columns:
        here = sorted(
            (t_ for t_ in range(state.teams) if state.places[t_].column == column),
            key=lambda t_: state.places[t_].slot,
        )
        pieces = "".join(_piece(state, t_, column) for t_ in here)
        printed = abs(column) <= half
        css = ["col", side, "start" if column == 0 else ("" if printed else "off")]
        if printed and (column + half) % CARD_COLUMNS == 0:
            css.append("card")  # a road card begins here
        label = f"{column:+d}" if column else "S"
        cells.append(
            f'<div class="{" ".join(c for c in css if c)}" data-column="{column}">'
            f'<span class="num">{label}</span>{pieces}</div>'
        )
    # one row only while every column keeps its width; the container decides
    one_row = len(columns) * COLUMN_REM
    narrow = (
        f"@container (max-width: {one_row:.1f}rem) {{ .ek-road .cols "
        f"{{ grid-template-columns: repeat({NARROW_ROW}, minmax(0, 1fr)); }}"
        " .ek-road .piece { width: 1.15rem; height: 1.15rem; line-height: 1.15rem; } }"
    )
    words = html_text(tr("ekiden.ui.road_label"))
    return (
        f"{ROAD_CSS}<style>{narrow}</style>"
        f'<div class="ek-road" role="img" aria-label="{words}">'
        f'<div class="cols" style="--cols: {len(columns)}">{"".join(cells)}</div></div>'
    )


def _piece(state: EkidenState, team: int, column: int, *, inline: bool = False) -> str:
    """The team's piece: a disc of its colour with its seat number (``inline``: styled
    here, for a table outside the road's box)."""
    colour = load().colour(state.setup.teams[team].colour)
    hex_ = colour.hex if colour else "#777"
    light = colour is not None and colour.key == "yellow"
    if inline:
        ink = "#111" if light else "#fff"
        style = (
            f"display:inline-block;width:1.15em;height:1.15em;line-height:1.15em;"
            f"border-radius:50%;text-align:center;font-size:11px;font-weight:700;"
            f"background:{hex_};color:{ink};box-shadow:0 0 0 1px rgba(0,0,0,.35)"
        )
        return f'<span class="ek-chip" style="{style}" aria-hidden="true">{team + 1}</span>'
    name = html_text(f"{state.setup.teams[team].name} {column:+d}")
    css = "piece light" if light else "piece"
    return f'<span class="{css}" style="background:{hex_}" title="{name}">{team + 1}</span>'


def scroller(table: str, label: str, hint_below: float) -> str:
    """A table that may be wider than the screen, in a box that scrolls sideways (marked for
    the layout checks): a shadow at an edge with more columns beyond it, and a line saying
    so under it where the box is narrower than ``hint_below`` rem."""
    hint = html_text(tr("ekiden.ui.scroll_hint"))
    query = (
        f"<style>@container (max-width: {hint_below:.0f}rem)"
        f" {{ .ek-wrap .ek-hint.w{hint_below:.0f} {{ display: block; }} }}</style>"
    )
    return (
        f'{query}<div class="ek-wrap"><div class="aids-scroll-x ek-scroll" tabindex="0"'
        f' role="region" aria-label="{html_text(label)}">{table}</div>'
        f'<p class="ek-hint w{hint_below:.0f}">⇆ {hint}</p></div>'
    )


def standings(ctx: TableContext) -> Standings:
    """Who leads (the frame's standings box): the teams in standing order (the farthest
    column leads, in a column the piece nearer the line, so no two teams share a place), each
    with its piece as on the road, its column, how many columns it is behind the leader, and
    after a leg its leg rank and move there. A team's own link marks its row (seat = team)."""
    state: EkidenState = ctx.state
    order = engine.standings(state)
    lead = state.places[order[0]].column
    last = {e.team: e for e in state.history[-1]} if state.history else {}
    rows = []
    for place, team in enumerate(order, start=1):
        column = state.places[team].column
        name = html_text(state.setup.teams[team].name)
        cells = [
            f"{_piece(state, team, column, inline=True)} {name}",
            NUM + (f"{column:+d}" if column else "S"),
            NUM + (str(lead - column) if place > 1 else "–"),
        ]
        if last:
            e = last[team]
            move = f"{e.move:+d}" if e.move else "±0"
            cells.append(NUM + html_text(tr("ekiden.ui.leg_cell", rank=e.rank, move=move)))
        rows.append(Row(place, team, tuple(cells)))
    head = [tr("ekiden.ui.team"), tr("ekiden.ui.road"), tr("ekiden.ui.behind")]
    title = ""
    if state.history:
        head.append(tr("ekiden.ui.leg_n", n=len(state.history)))
        title = tr("ekiden.ui.standings_after", leg=len(state.history))
    return Standings(tuple(head), tuple(rows), title)


def _legs(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    with st.expander(tr("ekiden.ui.leg_results"), expanded=True):
        head = "".join(f"<th>{html_text(team_label(state, t_))}</th>" for t_ in range(state.teams))
        rows = []
        for leg, results in enumerate(state.history, start=1):
            by_team = {e.team: e for e in results}
            texts = [
                tr("ekiden.sheet.cell", declared=e.declared, rank=e.rank, standing=e.standing)
                for e in (by_team[t_] for t_ in range(state.teams))
            ]
            cells = "".join(f"<td>{html_text(text)}</td>" for text in texts)
            rows.append(f"<tr><td>{leg}</td>{cells}</tr>")
        out = engine.columns_gained(state, load().outbound)
        back = engine.columns_gained(state, load().return_legs)
        gained = "".join(f"<td>{o:+d} / {b:+d}</td>" for o, b in zip(out, back, strict=True))
        rows.append(f"<tr><td>{html_text(tr('ekiden.ui.out_back'))}</td>{gained}</tr>")
        table = f'<table class="legs"><tr><th>#</th>{head}</tr>{"".join(rows)}</table>'
        wide = 3 + 8 * state.teams  # rem: a leg's cell is about 8 rem
        st.html(TABLE_CSS + scroller(table, tr("ekiden.ui.leg_results"), wide))
        _leg_detail(ctx)


DETAIL = ("runner", "power", "bonus", "declared", "rank", "mark", "move", "column", "standing")


def _leg_detail(ctx: TableContext) -> None:
    """One finished leg in full, in leg-rank order: each team's runner, the declared power's
    breakdown, the leg rank and mark read there, the move, the column and the standing."""
    state: EkidenState = ctx.state
    leg = st.selectbox(
        tr("ekiden.ui.leg_detail"),
        options=list(range(len(state.history), 0, -1)),
        format_func=lambda n: t("ekiden.ui.leg_n", ctx.lang, n=n),  # AppTest formats later
        key="leg_detail",
    )
    words = [tr("ekiden.ui.team"), *(tr(f"ekiden.sheet.{k}") for k in DETAIL)]
    head = "".join(f"<th>{html_text(w)}</th>" for w in words)
    rows = []
    for e in state.history[(leg or 1) - 1]:
        bonus = e.skill_bonus + e.commander_bonus
        cells = [
            team_label(state, e.team),
            runner_text(e.runner, ctx.lang),
            str(e.runner.power),
            f"{bonus:+d}" if bonus else "0",
            str(e.declared),
            str(e.rank),
            MARK_SIGNS[e.mark] if e.mark else "",
            f"{e.move:+d}" if e.move else "0",
            f"{e.place.column:+d}" if e.place else "",
            str(e.standing),
        ]
        rows.append("<tr>" + "".join(f"<td>{html_text(c)}</td>" for c in cells) + "</tr>")
    table = f'<table class="legs"><tr>{head}</tr>{"".join(rows)}</table>'
    st.html(TABLE_CSS + scroller(table, tr("ekiden.ui.leg_detail"), 42))
