"""Grand National's board: the race strip (horses by distance and lane among the landmarks),
the field with handicaps, speed points and penalties, each horse's stamina grid as on the
paper card, the odds board and the money ledger. Read-only: the viewer's page too."""

from __future__ import annotations

import base64

import streamlit as st

from aids.core.i18n import t
from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import horse_label, money, stable_label
from aids.games.grand_national.model import BANK, HELD, SEALED, GnState
from aids.ui.common import html_text, ink_on, md_text, md_tr, tr
from aids.ui.context import TableContext

CSS = """
<style>
.gn-strip img { width: 100%; height: auto; border: 1px solid #c9ccd1; border-radius: 6px; }
table.gn { border-collapse: collapse; font-size: 14px; }
table.gn td, table.gn th { padding: 3px 6px; white-space: nowrap; text-align: left; }
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
    st.html(CSS + _strip(state, ctx.lang))
    if state.phase == "race":
        _order(state)
    _field(ctx)
    if state.going is not None:
        _grids(ctx)
    _odds(ctx)
    _money(ctx)


def _disc(state: GnState, horse: int) -> tuple[str, str]:
    colour = load().colour(state.setup.stables[state.owner(horse)].colour)
    fill = colour.hex if colour else "#777"
    return fill, ink_on(fill)


def _strip(state: GnState, lang: str) -> str:
    """The two laps as one strip: lanes across, landmarks as ticks, each horse as a disc
    numbered by its cap (1 red, 2 black, 3 white, 4 blue) in its owner's colour."""
    track = state.setup.track
    finish = track.finish
    width, lane_h, left = 900.0, 22.0, 10.0
    height = lane_h * track.lanes + 40
    scale = (width - 2 * left) / finish

    def x(distance: int) -> float:
        return left + min(distance, finish) * scale

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#e8f3e4"/>',
    ]
    for lane in range(1, track.lanes):
        y = 20 + lane * lane_h
        parts.append(f'<line x1="{left}" x2="{width - left}" y1="{y}" y2="{y}" stroke="#c5d9bf"/>')
    marks = []
    for lap in range(load().laps):
        base = lap * track.lap
        marks += [(base + f, "#6d4c41", "▮") for f in track.fences]
        marks += [(base + track.water, "#1565c0", "≈"), (base + track.melling_road, "#777", "M")]
        marks += [(base + h, "#b8860b", "∩") for h in track.horseshoes]
    for at, colour, sign in marks:
        parts.append(
            f'<text x="{x(at):.1f}" y="14" font-size="11" text-anchor="middle" fill="{colour}">'
            f"{sign}</text>"
            f'<line x1="{x(at):.1f}" x2="{x(at):.1f}" y1="18" y2="{height - 4}" '
            f'stroke="{colour}" stroke-opacity="0.35"/>'
        )
    parts.append(
        f'<line x1="{x(finish):.1f}" x2="{x(finish):.1f}" y1="0" y2="{height}" stroke="#000" '
        'stroke-width="3"/>'
    )
    spots: dict[tuple[int, int], list[int]] = {}
    for h in range(state.horses):
        if state.status[h] not in ("fallen", "withdrawn"):
            spots.setdefault((state.distance[h], state.lane[h]), []).append(h)
    for (distance, lane), here in spots.items():
        for i, h in enumerate(here):  # horses sharing a spot side by side, not hidden
            fill, ink = _disc(state, h)
            cx = x(distance) + (i - (len(here) - 1) / 2) * 17
            cy = 20 + (lane - 0.5) * lane_h
            faded = ' opacity="0.45"' if state.status[h] == "pulled_up" else ""
            parts.append(
                f'<g{faded}><circle cx="{cx:.1f}" cy="{cy:.1f}" r="9" fill="{fill}" '
                f'stroke="#333"/><text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="11" '
                f'font-weight="700" text-anchor="middle" fill="{ink}">'
                f"{h % load().horses + 1}</text></g>"
            )
    parts.append("</svg>")
    data = base64.b64encode("".join(parts).encode()).decode("ascii")
    label = html_text(t("gn.ui.strip_label", lang, track=track.name(lang)))
    return f'<div class="gn-strip"><img src="data:image/svg+xml;base64,{data}" alt="{label}"></div>'


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
    head = ["#", tr("gn.ui.horse"), tr("gn.ui.distance"), tr("gn.ui.lane"), tr("gn.ui.handicap"),
            tr("gn.ui.speed_left"), tr("gn.ui.penalty"), tr("gn.ui.status")]  # fmt: skip
    order = engine.race_order(state)
    rest = [h for h in range(state.horses) if h not in order and h not in state.placed]
    rows = []
    place = {h: i + 1 for i, h in enumerate(state.placed)}
    for i, h in enumerate([*state.placed, *order, *rest]):
        lap = track.lap_of(state.distance[h])
        status = tr(f"gn.status.{state.status[h]}")
        if h in place:
            status = tr("gn.ui.placed", place=place[h])
        elif h in state.moved and state.phase == "race":
            status += " ✓"
        fill, ink = _disc(state, h)
        disc = (f'<span style="background:{fill};color:{ink};padding:0 5px;border-radius:8px">'
                f"{h % load().horses + 1}</span>")  # fmt: skip
        cells = [
            str(i + 1),
            f"{disc} {html_text(horse_label(state, h))}",
            html_text(tr("gn.ui.distance_at", distance=state.distance[h], lap=lap)),
            str(state.lane[h]),
            str(state.handicap[h]),
            f"{state.speed_left(h)} / {state.top()}",
            str(state.penalty[h] or ""),
            html_text(status),
        ]
        rows.append("".join(f"<td>{c}</td>" for c in cells))
    heads = "".join(f"<th>{html_text(h)}</th>" for h in head)
    label = html_text(tr("gn.ui.field"))
    st.html(
        f'{CSS}<div class="scroll aids-scroll-x" tabindex="0" role="region" aria-label="{label}">'
        f'<table class="gn"><tr>{heads}</tr>{"".join(f"<tr>{r}</tr>" for r in rows)}</table></div>'
    )


def _grids(ctx: TableContext) -> None:
    """Each horse's 1–64 grid like the paper card: cells past the going's top struck dark,
    speed points used struck grey (from the top down, as players strike them)."""
    state: GnState = ctx.state
    grid, top = load().grid, state.top()
    with st.expander(tr("gn.ui.grids"), expanded=False):
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
    with st.expander(tr("gn.ui.odds_board"), expanded=state.phase == "market"):
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
    state: GnState = ctx.state
    cash = " · ".join(
        f"{stable_label(state, s)} {money(engine.cash(state, s))}" for s in range(state.seats)
    )
    st.markdown(f"**{md_text(tr('gn.ui.cash'))}**: {md_text(cash)}")
    sealed = sum(1 for b in state.blind if b is SEALED)
    if sealed:
        st.caption(tr("gn.ui.blind_sealed", n=sealed))
    with st.expander(tr("gn.ui.ledger")):
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
