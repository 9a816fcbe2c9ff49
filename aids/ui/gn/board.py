"""Grand National's board: the race strip (horses by distance and lane among the landmarks),
the field with handicaps, speed points and penalties, each horse's stamina grid as on the
paper card, the odds board and the money ledger. Read-only: the viewer's page too."""

from __future__ import annotations

import streamlit as st

from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import horse_label, money, stable_label
from aids.games.grand_national.model import BANK, HELD, SEALED, GnState
from aids.ui.common import html_text, ink_on, lazy_expander, md_tr, tr
from aids.ui.context import TableContext
from aids.ui.gn.track import course_html

CSS = """
<style>
table.gn { border-collapse: collapse; font-size: 14px; }
table.gn td, table.gn th { padding: 3px 5px; white-space: nowrap; text-align: left; }
table.gn td.n { text-align: right; }
.grid64 { display: grid; grid-template-columns: repeat(16, 16px); gap: 1px; margin: 2px 0 8px; }
.grid64 span { width: 16px; height: 14px; font-size: 8px; line-height: 14px; text-align: center;
  border: 1px solid #bbb; color: #333; }
.grid64 span.off { background: #555; color: #eee; }
.grid64 span.used { background: #d9d9d9; text-decoration: line-through; }
.scroll { overflow-x: auto; }
</style>
"""


def board(ctx: TableContext) -> None:
    state: GnState = ctx.state
    st.html(course_of(ctx))
    if state.phase == "race":
        _order(state)
    _field(ctx)
    if state.going is not None:
        _grids(ctx)
    _odds(ctx)
    _money(ctx)


def course_of(ctx: TableContext) -> str:
    """The course as HTML with its styles (the page, the live view, the wall)."""
    state: GnState = ctx.state
    label = tr("gn.ui.strip_label", track=state.setup.track.name(ctx.lang))
    return course_html(state, ctx.lang, label)


def _disc(state: GnState, horse: int) -> tuple[str, str]:
    colour = load().colour(state.setup.stables[state.owner(horse)].colour)
    fill = colour.hex if colour else "#777"
    return fill, ink_on(fill)


def disc_html(state: GnState, horse: int) -> str:
    """The horse's disc as on the course: its owner's colour, numbered by its cap."""
    fill, ink = _disc(state, horse)
    return (f'<span style="background:{fill};color:{ink};padding:0 5px;border-radius:8px">'
            f"{horse % load().horses + 1}</span>")  # fmt: skip


def _order(state: GnState) -> None:
    """Who moves this turn, in the engine's order; ✓ has moved."""
    horses = engine.turn_order(state)
    if not horses:
        return
    words = [horse_label(state, h) + (" ✓" if h in state.moved else "") for h in horses]
    st.caption(md_tr("gn.ui.order_now", order=" → ".join(words)))


def _field(ctx: TableContext) -> None:
    state: GnState = ctx.state
    track = state.setup.track
    # short heads, their full words as a tooltip: the table fits the laptop's column
    heads = [("#", "#"), ("gn.ui.horse", "gn.ui.horse"), ("gn.ui.col_distance", "gn.ui.distance"),
             ("gn.ui.lane", "gn.ui.lane"), ("gn.ui.col_handicap", "gn.ui.handicap"),
             ("gn.ui.col_speed", "gn.ui.speed_left"), ("gn.ui.col_penalty", "gn.ui.penalty"),
             ("gn.ui.status", "gn.ui.status")]  # fmt: skip
    order = engine.race_order(state)
    rest = [h for h in range(state.horses) if h not in order and h not in state.placed]
    rows = []
    place = {h: i + 1 for i, h in enumerate(state.placed)}
    for i, h in enumerate([*state.placed, *order, *rest]):
        lap = track.lap_of(state.distance[h])
        status = tr(f"gn.status.{state.status[h]}")
        if h in place:
            status = tr("gn.ui.placed", place=place[h])
        elif state.status[h] == "running" and state.phase == "race":
            status = "✓" if h in state.moved else ""  # running: moved this round, or not yet
        cells = [
            str(i + 1),
            f"{disc_html(state, h)} {html_text(horse_label(state, h))}",
            f"{state.distance[h]} ({lap})",
            str(state.lane[h]),
            str(state.handicap[h]),
            f"{state.speed_left(h)}/{state.top()}",
            str(state.penalty[h] or ""),
            html_text(status),
        ]
        rows.append("".join(f"<td>{c}</td>" for c in cells))
    head = "".join(
        f'<th title="{html_text(tr(full) if full != "#" else "#")}">'
        f"{html_text(tr(short) if short != '#' else '#')}</th>"
        for short, full in heads
    )
    label = html_text(tr("gn.ui.field"))
    st.html(
        f'{CSS}<div class="scroll aids-scroll-x" tabindex="0" role="region" aria-label="{label}">'
        f'<table class="gn"><tr>{head}</tr>{"".join(f"<tr>{r}</tr>" for r in rows)}</table></div>'
    )


def _grids(ctx: TableContext) -> None:
    """Each horse's 1–64 grid like the paper card: cells past the going's top struck dark,
    speed points used struck grey (from the top down, as players strike them)."""
    state: GnState = ctx.state
    grid, top = load().grid, state.top()
    section = lazy_expander(tr("gn.ui.grids"), "gn_grids")  # 64 cells a horse: drawn when open
    if section is None:
        return
    with section:
        for seat in range(state.seats):
            parts = [f"<p><b>{html_text(stable_label(state, seat))}</b></p>"]
            for slot in range(load().horses):
                h = seat * load().horses + slot
                used_from = top - state.used[h]
                cells = []
                for n in range(1, grid + 1):
                    css = "off" if n > top else ("used" if n > used_from else "")
                    cells.append(f'<span class="{css}">{n}</span>')
                parts.append(f"<div>{html_text(horse_label(state, h))} · "
                             f"{html_text(tr('gn.ui.speed_left'))} {state.speed_left(h)}</div>"
                             f'<div class="grid64">{"".join(cells)}</div>')  # fmt: skip
            st.html(CSS + "".join(parts))


def _odds(ctx: TableContext) -> None:
    state: GnState = ctx.state
    with st.expander(tr("gn.ui.odds_board"), expanded=state.phase == "market", key="gn_odds"):
        rows = []
        for h in range(state.horses):
            win, show = state.odds[h]
            price = state.setup.horse(h).price
            rows.append(
                f"<tr><td>{html_text(horse_label(state, h))}</td><td class='n'>{money(price)}</td>"
                f"<td class='n'>{state.handicap[h]}</td><td class='n'>{win.text()}</td>"
                f"<td class='n'>{show.text()}</td></tr>"
            )
        head = "".join(f"<th>{html_text(tr(k))}</th>" for k in ("gn.ui.horse", "gn.ui.price",
                       "gn.ui.handicap", "gn.kind.win", "gn.kind.show"))  # fmt: skip
        label = html_text(tr("gn.ui.odds_board"))
        st.html(f'{CSS}<div class="scroll aids-scroll-x" tabindex="0" role="region" '
                f'aria-label="{label}"><table class="gn"><tr>{head}</tr>{"".join(rows)}'
                "</table></div>")  # fmt: skip


def _money(ctx: TableContext) -> None:
    """The ledger and the sealed blind bets (each stable's cash is in the standings)."""
    state: GnState = ctx.state
    sealed = sum(1 for b in state.blind if b is SEALED)
    if sealed:
        st.caption(tr("gn.ui.blind_sealed", n=sealed, total=len(state.blind)))
    section = lazy_expander(tr("gn.ui.ledger"), "gn_ledger")  # a line a payment: when open
    if section is None:
        return
    with section:
        names = {BANK: tr("gn.ui.bank"), HELD: tr("gn.ui.held")}
        rows = []
        for line in state.ledger:
            frm = names.get(line.frm) or stable_label(state, line.frm)
            to = names.get(line.to) or stable_label(state, line.to)
            horse = horse_label(state, line.horse) if line.horse is not None else ""
            rows.append(
                f"<tr><td>{html_text(frm)}</td><td>→ {html_text(to)}</td>"
                f"<td class='n'>{money(line.amount)}</td>"
                f"<td>{html_text(tr(f'gn.reason.{line.reason}'))}</td><td>{html_text(horse)}</td></tr>"
            )
        label = html_text(tr("gn.ui.ledger"))
        body = "".join(rows)
        st.html(f'{CSS}<div class="scroll aids-scroll-x" tabindex="0" role="region" '
                f'aria-label="{label}"><table class="gn">{body}</table></div>')  # fmt: skip
