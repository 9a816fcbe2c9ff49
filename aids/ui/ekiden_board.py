"""The Ekiden's board: the road split by its centre lines, standings, leg results (a leg in
full on demand) and the 順位変動 chart. Read-only: the viewer's page too."""

from __future__ import annotations

import streamlit as st

from aids.core.i18n import t
from aids.games.ekiden import engine
from aids.games.ekiden.data import load
from aids.games.ekiden.describe import MARK_SIGNS, runner_text, team_label
from aids.games.ekiden.model import EkidenState
from aids.ui.common import html_text, tr
from aids.ui.context import TableContext

# --- the road, standings, legs, chart --------------------------------------------------------

SIDE_KEYS = {"L": "ekiden.ui.side_L", "R": "ekiden.ui.side_R"}
ROAD_CSS = """
<style>
.road { overflow-x: auto; }
.road.ahead { direction: rtl; }  /* opens scrolled to the far end, where the leaders run */
.road.ahead > table { direction: ltr; }
table.road { border-collapse: collapse; font-size: 12px; }
table.road td { border: 1px solid #c9ccd1; min-width: 12px; height: 34px;
  vertical-align: middle; padding: 0 1px; white-space: nowrap; }
table.road td.l { text-align: right; border-right: 2px dashed #777; }
table.road td.r { text-align: left; border-left: 0; }
table.road td.start { background: #fff4c2; }
table.road td.off { background: #f2f2f2; color: #555; }
table.road th { font-weight: 400; color: #444; font-size: 11px; }
.piece { display: inline-block; width: 20px; height: 20px; border-radius: 10px; color: #fff;
  font-weight: 700; line-height: 20px; font-size: 12px; margin: 0 1px; text-align: center; }
.piece.light { color: #111; }
table.legs { border-collapse: collapse; font-size: 13px; }
table.legs td, table.legs th { padding: 2px 6px; white-space: nowrap; text-align: center; }
@media (max-width: 480px) {
  table.road th { font-size: 8px; }
  table.road td { min-width: 4px; height: 26px; }
  .piece { width: 15px; height: 15px; line-height: 15px; font-size: 9px; border-radius: 8px; }
}
</style>
"""


def board(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    _road(state)
    _standings(ctx)
    if state.history:
        _legs(ctx)  # the 順位変動 chart is the frame's race chart (``charts``)


def _road(state: EkidenState) -> None:
    """The printed road's 27 columns, each split by its centre line: the pieces stand on the
    side they crossed to, nearest the line first; columns past the printed road are grey."""
    d = load()
    half = d.road_half
    columns = range(
        min(-half, *(p.column for p in state.places)),
        max(half, *(p.column for p in state.places)) + 1,
    )
    side = engine.side_after(len(state.history))
    head, cells = [], []
    for column in columns:
        head.append(f'<th colspan="2">{column:+d}</th>' if column else '<th colspan="2">S</th>')
        here = sorted(
            (t_ for t_ in range(state.teams) if state.places[t_].column == column),
            key=lambda t_: state.places[t_].slot,
        )
        # left of the line the nearest piece is the rightmost; right of it, the leftmost
        pieces = "".join(_piece(state, t_) for t_ in (reversed(here) if side == "L" else here))
        css = "start" if column == 0 else ("off" if abs(column) > half else "")
        left, right = (pieces, "") if side == "L" else ("", pieces)
        cells.append(f'<td class="l {css}">{left}</td><td class="r {css}">{right}</td>')
    ahead = max(p.column for p in state.places) > 2  # the leaders are out ahead: show them
    st.html(
        f'{ROAD_CSS}<div class="road{" ahead" if ahead else ""}"><table class="road">'
        f"<tr>{''.join(head)}</tr><tr>{''.join(cells)}</tr></table></div>"
    )
    st.caption(tr("ekiden.ui.road_note", side=tr(SIDE_KEYS[side])))
    if any(abs(p.column) > half for p in state.places):
        st.warning(tr("ekiden.ui.past_road"))


def _piece(state: EkidenState, team: int) -> str:
    colour = load().colour(state.setup.teams[team].colour)
    hex_ = colour.hex if colour else "#777"
    light = " light" if colour and colour.key == "yellow" else ""
    name = html_text(state.setup.teams[team].name)
    return f'<span class="piece{light}" style="background:{hex_}" title="{name}">{team + 1}</span>'


def _standings(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    rows = []
    for place, team in enumerate(engine.standings(state), start=1):
        p = state.places[team]
        rows.append(
            f"<tr><td>{place}</td><td>{html_text(team_label(state, team))}</td>"
            f"<td>{p.column:+d}</td></tr>"
        )
    keys = ("ekiden.sheet.standing", "ekiden.ui.team", "ekiden.sheet.column")
    head = "".join(f"<th>{html_text(tr(k))}</th>" for k in keys)
    st.html(f"<table><tr>{head}</tr>{''.join(rows)}</table>")


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
        st.html(
            f'{ROAD_CSS}<div class="road"><table class="legs"><tr><th>#</th>{head}</tr>'
            f"{''.join(rows)}</table></div>"
        )
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
    st.html(
        f'{ROAD_CSS}<div class="road"><table class="legs"><tr>{head}</tr>'
        f"{''.join(rows)}</table></div>"
    )
