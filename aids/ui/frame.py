"""The table page frame every game shares.

The frame resolves the reader's role from the URL's key (one function, in the table service),
reads the table through that role's view, and draws what is the same for every game: header
(with the referee's tools: the players' QR code, undo, redo), language, the live view for
viewers, a new link shown once, the step-through replay and the live chances (``insights``),
the race chart (``charts``), the log, the rulings (``table_log``), share/print/export and the
keys (``sharing``). A game's page module (``GamePage``) draws only its own parts: the setup
fields, the status line, the record controls and the board (shared pieces for those in
``layout``).
"""

from __future__ import annotations

import streamlit as st

from aids.core.errors import AidsError, StoreError
from aids.games.base import VIEWER, Role
from aids.tables import Snapshot
from aids.ui.charts import render_chart
from aids.ui.common import heading, lang, page_header, plain, run_write, service, show_flash, tr
from aids.ui.context import GamePage, TableContext, page_for
from aids.ui.insights import chances, replay
from aids.ui.sharing import players_qr, share, show_new_link
from aids.ui.table_log import log, rulings

# A viewer's tick asks the table service for the log's length: SQLite reads it from the file;
# PostgreSQL answers from the notices its listening connection heard (no query per tick). A
# change shows within this (plus a run).
REFRESH_SECONDS = 1.0
FOLLOW_SECONDS = 2.0  # how soon a referee or seat page notices another device's write
__all__ = ["GamePage", "TableContext", "page_for", "render_table"]


# --- the table page ------------------------------------------------------------------------


def render_table(public_id: str, key: str | None) -> None:
    """The page of one table for whoever holds the URL."""
    try:
        try:
            role = service().role_for(public_id, key)
        except AidsError as exc:
            if exc.code != "table/key_attempts":
                raise
            st.warning(plain(exc.message(lang())))  # "try again in N s": follow meanwhile
            role, key = VIEWER, None
        snapshot = service().snapshot(public_id, role)
    except AidsError as exc:
        st.error(plain(exc.message(lang())))
        if st.button(tr("table.back_home")):
            st.query_params.clear()
            st.rerun()
        return
    game = service().game(snapshot.info.kind)
    ctx = TableContext(snapshot, key, game, lang())

    def tools() -> None:
        _toolbar(ctx)

    with page_header(tools if role.is_referee else None):
        heading(snapshot.info.title)
        who = tr(f"table.role.{role.kind}", seat=plain(_seat(snapshot, role)))
        st.caption(f"{tr(game.info.name_key)} · {who}")
    if key and role.is_viewer:
        st.error(tr("table.key_invalid"))
    if role.is_viewer:
        _live(public_id)
        return
    page = page_for(snapshot.info.kind)
    _mark(snapshot.seq)
    _follow(public_id, snapshot.seq)
    show_flash()
    show_new_link()
    page.status(ctx)
    controls, board = st.columns([1, 1], gap="medium")  # stacked on a phone
    with controls, st.container(key="controls"):
        page.controls(ctx)
    with board:
        page.board(replay(ctx))
        render_chart(ctx)
    chances(ctx)
    log(ctx, expanded=True)
    rulings(game)
    if role.is_referee:
        share(ctx)


@st.fragment(run_every=FOLLOW_SECONDS)
def _follow(public_id: str, drawn: int) -> None:
    """Referee and seat pages redraw when someone else writes (another seat's secret choice,
    a second device): a light check of the log's length, and a full redraw only if it grew.
    A choice half-made on the old page is dropped with it: it was made against old state."""
    try:
        seq = service().snapshot(public_id).seq
    except AidsError:
        return  # the store is out of reach for now: a write would say so; try next tick
    if seq != drawn:
        st.rerun(scope="app")


@st.fragment(run_every=REFRESH_SECONDS)
def _live(public_id: str) -> None:
    """The viewer: no controls; redrawn on every tick from the service's cached fold, which
    reads only new events, and only once told of them (the URL holds the table).

    Every element keeps its place and key from tick to tick, so a section the reader opened
    stays open. While the store is out of reach the page says so and tries again each tick."""
    try:
        snapshot = service().snapshot(public_id, VIEWER)
    except StoreError:  # a phone is not told where the database is, only that it will return
        st.warning(tr("table.store_away"))
        return
    except AidsError as exc:
        st.warning(plain(exc.message(lang())))
        return
    game = service().game(snapshot.info.kind)
    ctx = TableContext(snapshot, None, game, lang())
    page = page_for(snapshot.info.kind)
    _mark(snapshot.seq)
    page.status(ctx)
    page.board(replay(ctx))
    render_chart(ctx)
    chances(ctx)
    log(ctx, expanded=False)
    rulings(game)


def _mark(seq: int) -> None:
    """The log position the page was drawn from, for machines (the crowd benchmark and the
    browser tests wait on it): an empty element, hidden from every reader."""
    st.html(f'<span class="aids-seq" data-seq="{seq}" hidden aria-hidden="true"></span>')


def _seat(snapshot: Snapshot, role: Role) -> str:
    if role.seat is not None and 0 <= role.seat < len(snapshot.seats):
        return snapshot.seats[role.seat]
    return ""


def _toolbar(ctx: TableContext) -> None:
    """The referee's tools at the top of the page: the players' QR code, undo and redo (each
    as wide as its words, so a label is never cut)."""
    players_qr(ctx)
    pid, key, seq = ctx.snapshot.info.public_id, ctx.key, ctx.snapshot.seq
    steps = (
        ("undo", "↶", ctx.snapshot.can_undo, service().undo),
        ("redo", "↷", ctx.snapshot.can_redo, service().redo),
    )
    for name, arrow, possible, write in steps:
        st.button(
            f"{arrow} {tr(f'table.{name}')}",
            key=name,
            disabled=not possible,
            on_click=run_write,
            args=(lambda w=write: w(pid, key, seq),),
            width="content",
        )
