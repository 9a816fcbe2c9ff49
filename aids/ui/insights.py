"""Around the board, on every table page (viewer, referee, seats): the live chances, and the
step-through replay (the board at any step of the log, read-only).

The chances come from ``aids.tables.chances``: computed after a write by a worker process,
cached per log position, never in a write's way. A page shows the newest figures it has at
once — the last position's while the newest is computed, marked as updating — with how they
were made: exact, or how many simulated games and the widest 95 % half-width, and the model
of the players' choices in one line, so anyone can reproduce them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

import streamlit as st

from aids.core.i18n import catalogue
from aids.games.chances import ChanceModel, Estimate, Measure
from aids.games.palette import Ink, line_inks
from aids.store import store_locator
from aids.tables import TableService
from aids.tables.chances import BUDGET_SECONDS, PLAYOUTS, Chances, ChanceService
from aids.ui.common import html_text, md_tr, service, shared, tr
from aids.ui.context import TableContext


def chance_service() -> ChanceService:
    """One chance service per table service (per store file and game list), shared by every
    session of the server."""
    tables = service()
    return _chances_for(
        store_locator(),
        os.environ.get("AIDS_GAME_PLUGINS", ""),
        os.environ.get("AIDS_CHANCE_PLAYOUTS", str(PLAYOUTS)),
        os.environ.get("AIDS_CHANCE_SECONDS", str(BUDGET_SECONDS)),
        _tables=tables,
    )


def _chances_for(
    where: str, plugins: str, playouts: str, seconds: str, _tables: TableService
) -> ChanceService:
    # Keyed like the table service (its store and plugins); ``_tables`` is not part of the key.
    return shared(
        ("chances", where, plugins, playouts, seconds),
        lambda: ChanceService(_tables, playouts=int(playouts), budget=float(seconds)),
    )


def replay(ctx: TableContext) -> TableContext:
    """A switch to step through the race: a slider over the actions in force; the board then
    shows the position after the chosen step (read-only), and says which action led to it.
    Returns the context the board is drawn from: the live one, or that step's."""
    snapshot = ctx.snapshot
    history = snapshot.history
    steps = len(history) - 1
    if steps < 1 or not st.toggle(tr("replay.toggle"), key="replay_on"):
        return ctx
    step = st.slider(tr("replay.step"), 0, steps, value=steps, key="replay_step")
    done = [e for e in snapshot.log if e.kind == "action" and not e.undone][:step]
    state = history[step]
    past = replace(
        snapshot,
        state=state,
        can_undo=False,
        can_redo=False,
        to_move=ctx.game.to_move(state),
        outcome=ctx.game.outcome(state),
        _log=lambda: tuple(done),
    )
    if step == 0:
        what = tr("replay.start")
    elif done[-1].sealed or done[-1].action is None:
        what = tr("replay.sealed")
    else:
        what = ctx.game.describe(history[step - 1], done[-1].action, ctx.lang)
    st.info(md_tr("replay.showing", step=step, steps=steps, action=what))
    return TableContext(past, None, ctx.game, ctx.lang)


def chances_ready(public_id: str, kind: str, seq: int) -> bool | None:
    """Whether the figures of the table at ``seq`` are ready (None for a game without
    chances): a page is drawn again when they become ready."""
    if service().game(kind).chances(()) is None:
        return None
    return chance_service().ready(public_id, seq)


def chances(ctx: TableContext) -> None:
    """The figures of the table's position as bars, with how they were made."""
    if ctx.game.chances(()) is None:
        return
    _draw(ctx, chance_service().latest(ctx.snapshot.info.public_id))


def _draw(ctx: TableContext, latest: Chances) -> None:
    with st.container(key="chances"):
        st.markdown(f"**{tr('chances.title')}**")
        if latest.estimate is None:
            st.caption(tr("chances.computing"))
            return
        st.html(_bars(ctx, latest.estimate) + _mark(latest))
        over = ctx.snapshot.outcome is not None
        st.caption(how_made(latest.estimate, stale=latest.stale, over=over))


def _mark(latest: Chances) -> str:
    """The log position the figures shown are for, while they are the newest, for machines
    (the figures benchmark times a write to the phones showing its figures): hidden."""
    if latest.stale:
        return ""
    return f'<span class="aids-figures" data-seq="{latest.seq}" hidden aria-hidden="true"></span>'


def how_made(est: Estimate, *, stale: bool, over: bool) -> str:
    """How the figures were made, in one line (exact, or sampled with their error)."""
    if est.exact:
        how = tr("chances.decided" if over else "chances.exact")
    else:
        how = tr("chances.sampled", n=f"{est.playouts:,}", error=f"{100 * est.worst_error:.1f}")
    meaning = est.model.removesuffix(".model") + ".meaning"  # the model's line for players
    first = f"{tr(meaning)} " if meaning in catalogue("en") else ""
    line = f"{first}{how} {tr(est.model)}"
    return f"{tr('chances.updating')} {line}" if stale else line


Figure = tuple[Measure, float, float]  # a measure, its value and its 95 % half-width


def figure_groups(model: ChanceModel, est: Estimate) -> list[tuple[str, list[Figure]]]:
    """The figures by the model's groups (a group with none left out), in the model's order."""
    out = []
    for group in model.groups:
        rows = [
            (m, v, e)
            for m, v, e in zip(est.measures, est.values, est.errors, strict=True)
            if m.group == group
        ]
        if rows:
            out.append((group, rows))
    return out


def bar_inks(model: ChanceModel, state: object, measures: Sequence[Measure]) -> dict[Measure, Ink]:
    """Each figure's bar ink: its piece's own colour (a red car's bar is the car's red, a
    horse's its own), a pale one edged in a darker ink of its hue; a figure whose piece has
    no colour (a team) takes an ink clear of every piece's, the same for the same name."""
    colours = [model.colour(state, m) for m in measures]
    names = [model.label(state, m, "en") for m in measures]
    return dict(zip(measures, line_inks(colours, keys=names), strict=True))


def bar_style(ink: Ink) -> str:
    """A bar's inline style: its ink, and a pale one's edge of its own hue."""
    edge = f";box-shadow:inset 0 0 0 1.5px {ink.edge}" if ink.edge else ""
    return f"background:{ink.fill}{edge}"


def bar(figure: Figure, group: list[Figure]) -> tuple[float, str, str]:
    """One figure as drawn among its ``group``: the bar's length (percent of the widest), the
    value's words, and its spread ("" when too small to show).

    >>> from aids.games.chances import Measure
    >>> bar((Measure("player", 0), 0.25, 0.02), [])
    (25.0, '25 %', ' ±2')
    """
    measure, value, error = figure
    if measure.kind == "probability":
        spread = f" ±{100 * error:.0f}" if error >= 0.005 else ""
        return 100 * value, f"{100 * value:.0f} %", spread
    if measure.kind == "rank":  # an expected place: 1 is best, the bar the longest
        spread = f" ±{error:.1f}" if error >= 0.05 else ""
        return 100 * (len(group) + 1 - value) / len(group), f"{value:.1f}", spread
    # points or money: whole units once they run to hundreds (no cents)
    top = max((v for _, v, _ in group), default=0.0) or 1.0
    places = 0 if top >= 100 else 1
    spread = f" ±{error:,.{places}f}" if error >= 0.5 * 10**-places else ""
    return 100 * value / top, f"{value:,.{places}f}", spread


def _bars(ctx: TableContext, est: Estimate) -> str:
    model = ctx.game.chances(())
    assert model is not None
    state = ctx.snapshot.state
    inks = bar_inks(model, state, est.measures)
    sections = []
    for group, figures in figure_groups(model, est):
        rows = []
        for figure in figures:
            name = html_text(model.label(state, figure[0], ctx.lang))
            width, text, spread = bar(figure, figures)
            style = bar_style(inks[figure[0]])
            rows.append(
                f'<tr><th scope="row">{name}</th>'
                f'<td class="bar"><span style="width:{width:.1f}%;{style}"></span></td>'
                f'<td class="num">{text}<small>{spread}</small></td></tr>'
            )
        sections.append(
            f'<table class="aids-chances">'
            f"<caption>{html_text(model.title(group, ctx.lang))}</caption>"
            f"{''.join(rows)}</table>"
        )
    return CHANCES_CSS + f'<div class="aids-chances-wrap">{"".join(sections)}</div>'


CHANCES_CSS = """
<style>
.aids-chances-wrap { display: flex; flex-wrap: wrap; gap: .2rem 1.2rem;
  align-items: flex-start; }
table.aids-chances { border-collapse: collapse; font-size: 14px; min-width: 260px;
  flex: 1 1 260px; }
table.aids-chances caption { text-align: left; font-weight: 600; font-size: 13px;
  color: #333; padding: .2rem 0; }
table.aids-chances th { text-align: left; font-weight: 400; white-space: nowrap;
  max-width: 9em; overflow: hidden; text-overflow: ellipsis; padding: 1px 6px 1px 0;
  color: #111; }
table.aids-chances td.bar { width: 100%; padding: 1px 0; }
table.aids-chances td.bar span { display: block; height: .8em; min-width: 1px;
  background: #1f5fbf; border-radius: 2px; }
table.aids-chances td.num { text-align: right; white-space: nowrap; padding-left: 6px;
  font-variant-numeric: tabular-nums; color: #111; }
table.aids-chances td.num small { color: #444; }
</style>
"""
