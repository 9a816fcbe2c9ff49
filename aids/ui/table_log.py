"""The log and the rulings of the table page, for every game.

The newest line comes first and is marked "latest" in words as well as in colour. Both
sections keep one identity across runs (a fixed key and a fixed label: the step count is
inside), so one a reader opened stays open while the viewer re-reads the store every second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from aids.games.base import AnyGame
from aids.tables import LogEntry
from aids.ui.common import html_text, tr

if TYPE_CHECKING:
    from aids.ui.context import TableContext

LOG_LINES = 40

LOG_CSS = """
<style>
ol.aids-log { list-style: none; padding-left: 0; margin: 0; font-size: 14px; }
ol.aids-log li { padding: 2px 4px; border-left: 4px solid transparent; }
ol.aids-log li.latest { border-left-color: #111; background: #fff4c2; font-weight: 600; }
ol.aids-log .seq { display: inline-block; min-width: 2.2em; color: #4a4a4a;
  font-family: monospace; }
ol.aids-log .tag { display: inline-block; margin-left: .4em; padding: 0 .35em;
  border: 1px solid #111; border-radius: 3px; font-size: 12px; font-weight: 700; }
ol.aids-log li.undone span.text { text-decoration: line-through; color: #4a4a4a; }
p.aids-log-count { margin: 0 0 .3rem 0; font-size: 14px; color: #4a4a4a; }
</style>
"""


def describe_entry(ctx: TableContext, entry: LogEntry) -> str:
    """One log line in the page language: the game's words, or the frame's for undo/redo and
    for a choice still sealed."""
    if entry.kind in ("undo", "redo"):
        return tr(f"table.log_{entry.kind}", n=entry.target)
    if entry.sealed or entry.action is None:
        seats = ctx.snapshot.seats
        seat = entry.actor.seat
        name = seats[seat] if seat is not None and 0 <= seat < len(seats) else str(entry.actor)
        return tr("table.log_sealed", actor=name)
    return ctx.game.describe(ctx.state, entry.action, ctx.lang)


def log(ctx: TableContext, *, expanded: bool) -> None:
    snapshot = ctx.snapshot
    with st.expander(tr("page.log_title"), expanded=expanded, key="log_section"):
        if not snapshot.log:
            st.caption(tr("table.log_empty"))
            return
        items = []
        newest = snapshot.log[-1].seq
        for entry in reversed(snapshot.log[-LOG_LINES:]):
            undone = f" ({html_text(tr('table.undone'))})" if entry.undone else ""
            latest = entry.seq == newest
            css = " ".join(c for c, on in (("undone", entry.undone), ("latest", latest)) if on)
            tag = f'<span class="tag">{html_text(tr("page.latest"))}</span>' if latest else ""
            items.append(
                f'<li class="{css}"><span class="seq">{entry.seq}</span>'
                f'<span class="text">{html_text(describe_entry(ctx, entry))}</span>'
                f"{undone}{tag}</li>"
            )
        count = html_text(tr("table.log", n=snapshot.seq))
        st.html(
            f'{LOG_CSS}<p class="aids-log-count">{count}</p>'
            f'<ol class="aids-log">{"".join(items)}</ol>'
        )


def rulings(game: AnyGame) -> None:
    """Where the rulebook is silent, say what the program assumes (same keys as the sheet)."""
    with st.expander(tr("table.rulings"), key="rulings_section"):
        st.html(
            "<ul>" + "".join(f"<li>{html_text(tr(k))}</li>" for k in game.info.rulings) + "</ul>"
        )
