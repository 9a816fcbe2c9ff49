"""The end of a game on the table page, for every game: the results from the ``Outcome``
(place with ties, name, the game's own score) and, on the referee's page, the print buttons
(the post-game report, the filled-in score sheet) beside them, so the first screen after
the last action holds what the table wants next. A viewer gets the results. Names no game:
the words are the game's ``<kind>.report.score``/``score_value`` and
``<kind>.outcome.<reason>``, as in the printed report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from aids import registry
from aids.games.base import VIEWER
from aids.print.frame import render_sheet
from aids.print.report import render_report, score_words
from aids.ui.common import base_url, html_text, kept_paper, service, tr

if TYPE_CHECKING:
    from aids.ui.context import TableContext

RESULTS_CSS = """
<style>
table.aids-results { border-collapse: collapse; font-size: 15px; width: 100%; }
table.aids-results th, table.aids-results td { padding: 3px 8px;
  border-bottom: 1px solid #d0d3d8; text-align: left; color: #111; }
table.aids-results th { font-size: 13px; font-weight: 600; color: #333; }
table.aids-results td.place { width: 3em; text-align: center; font-weight: 700; }
table.aids-results .score { text-align: right; white-space: nowrap;
  font-variant-numeric: tabular-nums; }
table.aids-results tr.won td { background: #fff4c2; font-weight: 600; }
table.aids-results td.name { overflow-wrap: anywhere; }
table.aids-results .you { margin-left: .35em; padding: 0 .35em; border-radius: 3px;
  background: #111; color: #fff; font-size: 11px; font-weight: 700; }
p.aids-results-why { margin: 0; font-size: 14px; color: #333; }
</style>
"""


def results(ctx: TableContext) -> None:
    """The results of a finished game (nothing while it runs); with the print buttons for
    the referee."""
    outcome = ctx.snapshot.outcome
    if outcome is None:
        return
    kind = ctx.snapshot.info.kind
    seats = ctx.snapshot.seats
    mine = ctx.role.seat  # a seat's own link: its row says "you"
    rows = []
    place = 1
    for group in outcome.ranking:
        for seat in group:
            name = seats[seat] if 0 <= seat < len(seats) else str(seat + 1)
            score = score_words(outcome.scores[seat], kind, ctx.lang)
            css = ' class="won"' if place == 1 else ""
            you = f'<span class="you">{html_text(tr("table.you"))}</span>' if seat == mine else ""
            rows.append(
                f'<tr{css}><td class="place">{place}</td>'
                f'<td class="name">{html_text(name)}{you}</td>'
                f'<td class="score">{html_text(score)}</td></tr>'
            )
        place += len(group)
    head = (
        f"<tr><th>{html_text(tr('report.place'))}</th><th>{html_text(tr('report.name'))}</th>"
        f'<th class="score">{html_text(tr(f"{kind}.report.score"))}</th></tr>'
    )
    why = tr(f"{kind}.outcome.{outcome.reason}")
    with st.container(border=True, key="results"):
        st.html(
            f'{RESULTS_CSS}<p class="aids-head">{html_text(tr("report.results"))}</p>'
            f'<p class="aids-results-why">{html_text(why)}</p>'
            f'<table class="aids-results">{head}{"".join(rows)}</table>'
        )
        if ctx.role.is_referee:
            _print_buttons(ctx)


def _print_buttons(ctx: TableContext) -> None:
    """The post-game report and the filled-in sheet, each made only when tapped, from the
    viewer's snapshot (both are public), on the paper chosen under Share (A4 by default)."""
    pid, kind, lang = ctx.snapshot.info.public_id, ctx.snapshot.info.kind, ctx.lang
    paper = kept_paper("paper")
    sheet = registry.sheet_module(kind)
    row = st.container(horizontal=True, key="end_print")
    row.download_button(
        tr("report.download"),
        data=lambda: render_report(
            ctx.game, sheet, service().snapshot(pid, VIEWER), base_url(), lang, paper
        ),
        file_name=f"{kind}-report-{pid[:8]}-{lang}-{paper}.pdf",
        mime="application/pdf",
        on_click="ignore",
        type="primary",
        key="end_report",
    )
    row.download_button(
        tr("table.download_sheet"),
        data=lambda: render_sheet(
            sheet, ctx.game, service().snapshot(pid, VIEWER), base_url(), lang, paper
        ),
        file_name=f"{kind}-sheet-{lang}-{paper}.pdf",
        mime="application/pdf",
        on_click="ignore",
        key="end_sheet",
    )
