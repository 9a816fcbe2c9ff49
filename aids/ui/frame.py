"""The table page frame every game shares.

The frame resolves the reader's role from the URL's key (one function, in the table service),
reads the table through that role's view, and draws what is the same for every game: header
(with the referee's tools: the players' QR code, undo, redo), language, the live view for
viewers, a new link shown once, the step-through replay and the live chances (``insights``),
who leads (the game's rows drawn by ``standings``; a phone's first screen holds it with the
chances), the race chart (``charts``), the log, the rulings (``table_log``),
share/print/export and the keys (``sharing``), and once the game is over its results with
the print buttons where the controls were (``results``). A game's page module (``GamePage``)
draws only its own parts: the setup fields, the status line, the record controls, the
standings' rows and the board (shared pieces for those in ``layout``).

A page is drawn once per change, not once per tick: a small fragment (``_watch``) asks every
second (viewers) or two (referee, seats) for the log's position and redraws the whole page only
when it differs from the one shown, or when the newest chances are ready; while they are being
computed it asks every quarter of a second.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from aids.core.errors import AidsError, StoreError
from aids.games.base import Role
from aids.tables import NO_KEY, Snapshot
from aids.ui.charts import render_chart
from aids.ui.common import (
    banner,
    client,
    heading,
    lang,
    md_text,
    md_tr,
    page_error,
    page_header,
    role_or_viewer,
    run_write,
    service,
    show_flash,
    tr,
)
from aids.ui.context import GamePage, TableContext, page_for
from aids.ui.insights import chances, chances_ready, replay
from aids.ui.results import results
from aids.ui.sharing import players_qr, share, show_new_link
from aids.ui.standings import standings_table
from aids.ui.table_log import log, rulings

# A viewer's tick asks the table service for the log's length: SQLite reads it from the file;
# PostgreSQL answers from the notices its listening connection heard (no query per tick). A
# change shows within this (plus a drawing of the page).
REFRESH_SECONDS = 1.0
FOLLOW_SECONDS = 2.0  # how soon a referee or seat page notices another device's write
#: while a page shows its position without the figures (being computed), it asks this often:
#: the figures show a quarter of a second after they are in, not a tick later
SOON_SECONDS = 0.25
__all__ = ["GamePage", "TableContext", "page_for", "render_table"]


# --- the table page ------------------------------------------------------------------------


def render_table(public_id: str, key: str | None) -> None:
    """The page of one table for whoever holds the URL."""
    try:
        ask = partial(service().access, public_id, key, client=client())
        access, _ = role_or_viewer(ask, NO_KEY, "table/key_attempts")
        role = access.role
        key = key if access.status == "live" else None  # a page writes only with a live key
        snapshot = service().snapshot(public_id, role)
    except AidsError as exc:
        page_error(exc)
        return
    game = service().game(snapshot.info.kind)
    ctx = TableContext(snapshot.in_language(game, lang()), key, game, lang())

    def tools() -> None:
        _toolbar(ctx)

    with page_header(tools if role.is_referee else None):
        heading(snapshot.info.title)
        who = md_tr(f"table.role.{role.kind}", seat=_seat(snapshot, role))
        st.caption(f"{tr(game.info.name_key)} · {who}")
    if access.status == "replaced":
        st.warning(tr("table.key_replaced"))
    elif access.status == "wrong":
        st.error(tr("table.key_invalid"))
    page = page_for(snapshot.info.kind)
    _mark(snapshot.seq)
    shown = _drawn(public_id, snapshot.info.kind, snapshot.seq), _new_run()
    waiting = shown[0][2] is False  # the figures of this position are being computed
    if role.is_viewer:
        (_watch_soon if waiting else _watch_viewer)(public_id, shown)
        _viewer(ctx, page)
        return
    (_watch_soon if waiting else _watch_player)(public_id, shown)
    show_flash()
    show_new_link()
    if role.is_referee:
        _referee(ctx, page)
    else:
        _seat_page(ctx, page)


def _referee(ctx: TableContext, page: GamePage) -> None:
    """The referee: the status, then the next action's controls beside (on a phone: above)
    the standings, the board and the chart; then the chances, the log, the rulings and
    the sharing tools."""
    with st.container(key="status"):
        _status(ctx, page)
    controls, board = st.columns([1, 1], gap="medium")  # stacked on a phone
    with controls, st.container(key="controls"):
        results(ctx)  # a finished game: where the next action was, with the print buttons
        page.controls(ctx)
    with board:
        _standings(ctx, page)
        page.board(replay(ctx))
        render_chart(ctx)
    chances(ctx)
    log(ctx, expanded=True)
    rulings(ctx.game)
    share(ctx)


def _seat_page(ctx: TableContext, page: GamePage) -> None:
    """A player's own link, mostly read on a phone: who leads with the seat's own row
    marked, what the seat has to do (its secret choices), its chances, then the board."""
    with st.container(key="status"):
        _status(ctx, page)
    results(ctx)
    _standings(ctx, page)
    with st.container(key="controls"):
        page.controls(ctx)
    chances(ctx)
    page.board(replay(ctx))
    render_chart(ctx)
    log(ctx, expanded=True)
    rulings(ctx.game)


def _viewer(ctx: TableContext, page: GamePage) -> None:
    """The viewer: no controls; who leads and the chances on the first screen, then the
    board, the chart, the log and the rulings. Every element keeps its place and key from
    one drawing to the next, so a section the reader opened stays open."""
    with st.container(key="status"):
        _status(ctx, page)
    results(ctx)
    _standings(ctx, page)
    chances(ctx)
    page.board(replay(ctx))
    render_chart(ctx)
    log(ctx, expanded=False)
    rulings(ctx.game)


def _standings(ctx: TableContext, page: GamePage) -> None:
    """Who leads while the game runs (its results say it once it is over)."""
    if ctx.snapshot.outcome is not None:
        return
    with st.container(key="standings"):
        drawn = page.standings(ctx)
        standings_table(drawn.head, drawn.rows, mine=ctx.role.seat, title=drawn.title)
        if drawn.note:
            st.caption(md_text(drawn.note))


def _status(ctx: TableContext, page: GamePage) -> None:
    for line in page.status(ctx):
        banner(line.text, done=line.done)


Drawn = tuple[str, int, bool | None]  # the game, the log's position, whether chances are ready
Shown = tuple[Drawn, int]  # what the page was drawn from, and which full run of it drew it
_RUN, _WATCHED = "_page_run", "_page_watched"


def _drawn(public_id: str, kind: str, seq: int) -> Drawn:
    """What a page is drawn from: it is drawn again when this changes, and only then."""
    return kind, seq, chances_ready(public_id, kind, seq)


def _new_run() -> int:
    """A number for this full run of the page (its fragments' ticks keep the number)."""
    run = st.session_state[_RUN] = st.session_state.get(_RUN, 0) + 1
    return int(run)


@st.fragment(run_every=REFRESH_SECONDS)
def _watch_viewer(public_id: str, shown: Shown) -> None:
    """A phone's page redraws when the table moves on or its newest chances are ready;
    between those a tick asks the service two numbers (on PostgreSQL not even the
    database)."""
    _watch(public_id, shown)


@st.fragment(run_every=FOLLOW_SECONDS)
def _watch_player(public_id: str, shown: Shown) -> None:
    """Referee and seat pages redraw when someone else writes (another seat's secret choice,
    a second device) or the newest chances are ready. A choice half-made on the old page is
    dropped with it: it was made against old state."""
    _watch(public_id, shown)


@st.fragment(run_every=SOON_SECONDS)
def _watch_soon(public_id: str, shown: Shown) -> None:
    """Any page while its position's figures are computed: they show as soon as they are
    in (a tick asks the service two numbers; the computing takes a tenth of a second to a
    few), then the page goes back to its usual tick."""
    _watch(public_id, shown)


def _watch(public_id: str, shown: Shown) -> None:
    """Redraw the whole page if it is out of date. Not on the page's own full run: there the
    fragment runs inline, just after the page read what it draws, and a rerun from it (the
    chances becoming ready in between) would drop the tap the run is carrying — the
    referee's "Record", the link dialog's "Done"."""
    drawn, run = shown
    if st.session_state.get(_WATCHED) != run:
        st.session_state[_WATCHED] = run
        return
    try:
        now = _drawn(public_id, drawn[0], service().seq(public_id))
    except StoreError:  # a phone is not told where the database is, only that it will return
        st.warning(tr("table.store_away"))
        return
    except AidsError as exc:
        st.warning(md_text(exc.message(lang())))
        return
    if now != drawn:
        st.rerun(scope="app")


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
