"""Sealed Sprint's page module: the smallest page a game can have on the table page frame."""

from __future__ import annotations

from typing import Any

import streamlit as st

from aids.core.i18n import Lang, t
from aids.ui.common import html_text, tr
from aids.ui.context import Standings, StatusLine, TableContext
from aids.ui.standings import NUM, Row
from tests.fakegame.game import DIE, SEALED, SPEEDS, Commit, Roll, SprintState


def setup_fields(lang: Lang) -> dict[str, Any]:
    names = [st.text_input(t("table.player_n", lang, n=i + 1), key=f"sprint_{i}") for i in range(4)]
    return {"names": [n for n in names if n.strip()]}


def status(ctx: TableContext) -> list[StatusLine]:
    state: SprintState = ctx.state
    if ctx.snapshot.outcome is not None:
        names = ", ".join(state.setup.names[s] for s in ctx.snapshot.outcome.winners)
        return [StatusLine(tr("sprint.over", winners=names), True)]
    if state.phase == "roll":
        return [StatusLine(tr("sprint.roll_now", round=state.round))]
    waiting = [state.setup.names[i] for i, p in enumerate(state.pending) if p is None]
    return [StatusLine(tr("sprint.waiting", round=state.round, names=", ".join(waiting)))]


def controls(ctx: TableContext) -> None:
    state: SprintState = ctx.state
    seq = ctx.snapshot.seq
    to_move = ctx.snapshot.to_move
    if ctx.role.kind == "seat" and ctx.role in to_move and ctx.role.seat is not None:
        speed = st.pills(tr("sprint.speed"), options=list(SPEEDS), key=f"speed_{seq}")
        st.button(
            tr("sprint.commit"),
            key="commit_go",
            disabled=speed is None,
            on_click=ctx.write(Commit(ctx.role.seat, speed, state.round)) if speed else None,
        )
    if ctx.role.is_referee and any(r.kind == "chance" for r in to_move):
        value = st.pills(tr("sprint.die"), options=list(DIE), key=f"die_{seq}")
        st.button(
            tr("sprint.record_roll"),
            key="roll_go",
            disabled=value is None,
            on_click=ctx.write(Roll(value)) if value else None,
        )


def standings(ctx: TableContext) -> Standings:
    """Who leads: the runners by position, equal positions sharing a place."""
    state: SprintState = ctx.state
    order = sorted(range(len(state.setup.names)), key=lambda i: (-state.positions[i], i))
    rows = tuple(
        Row(
            1 + sum(1 for p in state.positions if p > state.positions[i]),
            i,
            (html_text(state.setup.names[i]), f"{NUM}{state.positions[i]}"),
        )
        for i in order
    )
    return Standings((tr("sprint.runner"), tr("sprint.position")), rows)


def board(ctx: TableContext) -> None:
    st.html(board_top(ctx))


def board_top(ctx: TableContext) -> str:
    state: SprintState = ctx.state
    rows = []
    for i, name in enumerate(state.setup.names):
        pending = state.pending[i]
        mark = "" if pending is None else ("🔒" if pending == SEALED else str(pending))
        rows.append(
            f"<tr><td>{html_text(name)}</td><td>{state.positions[i]}</td><td>{mark}</td></tr>"
        )
    return f'<table class="sprint">{"".join(rows)}</table>'
