"""The table page frame every game shares.

The frame resolves the reader's role from the URL's key (one function, in the table service),
reads the table through that role's view, and draws what is the same for every game: header,
language, the live view for viewers, undo/redo, the log, the rulings, share/QR/print/export
and the keys. A game's page module (``GamePage``) draws only its own parts: the setup fields,
the status line, the record controls and the board.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

import qrcode
import streamlit as st

from aids import registry
from aids.core.errors import AidsError
from aids.core.i18n import Lang
from aids.core.links import referee_url, viewer_url
from aids.games.base import VIEWER, AnyGame, Role
from aids.print.frame import render_sheet
from aids.tables import LogEntry, Snapshot
from aids.ui.common import (
    base_url,
    esc,
    heading,
    lang,
    page_header,
    paper_choice,
    run_write,
    service,
    show_flash,
    tr,
)

REFRESH_SECONDS = 1.0  # the viewer polls the store; a change shows within this (plus a run)
LOG_LINES = 40
NEW_LINK = "_new_link"


@dataclass(frozen=True, slots=True)
class TableContext:
    """One run of a table page: the snapshot as this reader may see it, and how to write."""

    snapshot: Snapshot
    key: str | None
    game: AnyGame
    lang: Lang

    @property
    def role(self) -> Role:
        return self.snapshot.role

    @property
    def state(self) -> Any:
        return self.snapshot.state

    @property
    def can_write(self) -> bool:
        return not self.role.is_viewer

    def write(self, action: Any) -> Callable[[], None]:
        """A widget callback that records ``action`` against the sequence this page was drawn
        from (a double click or a second device gets "refreshed, try again")."""
        pid, key, seq = self.snapshot.info.public_id, self.key, self.snapshot.seq
        return lambda: run_write(lambda: service().record(pid, key, seq, action))


class GamePage(Protocol):
    """What a game's page module provides (``aids/ui/<kind>_page.py``)."""

    def setup_fields(self, lang: Lang) -> dict[str, Any]:
        """Draw the setup inputs (inside the create form); return the raw setup dict."""
        ...

    def status(self, ctx: TableContext) -> None:
        """One banner: whose turn, where the race stands, or how it ended."""
        ...

    def controls(self, ctx: TableContext) -> None:
        """The record controls for ``ctx.role``, offering only what the engine allows."""
        ...

    def board(self, ctx: TableContext) -> None:
        """The board and standings (read-only; also the viewer's page)."""
        ...


def page_for(kind: str) -> GamePage:
    return cast(GamePage, registry.page_module(kind))


# --- the table page ------------------------------------------------------------------------


def render_table(public_id: str, key: str | None) -> None:
    """The page of one table for whoever holds the URL."""
    try:
        role = service().role_for(public_id, key)
        snapshot = service().snapshot(public_id, role)
    except AidsError as exc:
        st.error(exc.message(lang()))
        if st.button(tr("table.back_home")):
            st.query_params.clear()
            st.rerun()
        return
    game = service().game(snapshot.info.kind)
    head = page_header()
    with head:
        heading(snapshot.info.title)
        who = tr(f"table.role.{role.kind}", seat=_seat(snapshot, role))
        st.caption(f"{tr(game.info.name_key)} · {who}")
    if key and role.is_viewer:
        st.error(tr("table.key_invalid"))
    if role.is_viewer:
        _live(public_id)
        return
    ctx = TableContext(snapshot, key, game, lang())
    page = page_for(snapshot.info.kind)
    show_flash()
    _new_link_notice()
    page.status(ctx)
    controls, board = st.columns([2, 3], gap="medium")  # stacked on a phone
    with controls, st.container(key="controls"):
        if role.is_referee:
            _undo_redo(ctx)
        page.controls(ctx)
    with board:
        page.board(ctx)
    _log(ctx, expanded=True)
    _rulings(game)
    if role.is_referee:
        _share(ctx)


@st.fragment(run_every=REFRESH_SECONDS)
def _live(public_id: str) -> None:
    """The viewer: no controls; re-reads the store on every tick (the URL holds the table)."""
    snapshot = service().snapshot(public_id, VIEWER)
    game = service().game(snapshot.info.kind)
    ctx = TableContext(snapshot, None, game, lang())
    page = page_for(snapshot.info.kind)
    page.status(ctx)
    page.board(ctx)
    _log(ctx, expanded=False)
    _rulings(game)


def _seat(snapshot: Snapshot, role: Role) -> str:
    if role.seat is not None and 0 <= role.seat < len(snapshot.seats):
        return snapshot.seats[role.seat]
    return ""


def _undo_redo(ctx: TableContext) -> None:
    pid, key, seq = ctx.snapshot.info.public_id, ctx.key, ctx.snapshot.seq
    steps = (
        ("undo", "↶", ctx.snapshot.can_undo, service().undo),
        ("redo", "↷", ctx.snapshot.can_redo, service().redo),
    )
    for column, (name, arrow, possible, write) in zip(st.columns(2), steps, strict=True):
        column.button(
            f"{arrow} {tr(f'table.{name}')}",
            key=name,
            disabled=not possible,
            on_click=run_write,
            args=(lambda w=write: w(pid, key, seq),),
            use_container_width=True,
        )


# --- log and rulings -----------------------------------------------------------------------

LOG_CSS = """
<style>
ol.aids-log { list-style: none; padding-left: 0; margin: 0; font-size: 14px; }
ol.aids-log li { padding: 1px 0; }
ol.aids-log .seq { display: inline-block; min-width: 2.2em; color: #555; font-family: monospace; }
ol.aids-log li.undone span.text { text-decoration: line-through; color: #666; }
</style>
"""


def describe_entry(ctx: TableContext, entry: LogEntry) -> str:
    """One log line in the page language: the game's words, or the frame's for undo/redo and
    for a choice still sealed."""
    if entry.kind in ("undo", "redo"):
        return tr(f"table.log_{entry.kind}", n=entry.target)
    if entry.sealed or entry.action is None:
        return tr("table.log_sealed", actor=_seat(ctx.snapshot, entry.actor) or str(entry.actor))
    return ctx.game.describe(ctx.state, entry.action, ctx.lang)


def _log(ctx: TableContext, *, expanded: bool) -> None:
    snapshot = ctx.snapshot
    with st.expander(tr("table.log", n=snapshot.seq), expanded=expanded):
        if not snapshot.log:
            st.caption(tr("table.log_empty"))
            return
        items = []
        for entry in reversed(snapshot.log[-LOG_LINES:]):
            undone = f" ({esc(tr('table.undone'))})" if entry.undone else ""
            css = "undone" if entry.undone else ""
            items.append(
                f'<li class="{css}"><span class="seq">{entry.seq}</span>'
                f'<span class="text">{esc(describe_entry(ctx, entry))}</span>{undone}</li>'
            )
        st.html(f'{LOG_CSS}<ol class="aids-log">{"".join(items)}</ol>')


def _rulings(game: AnyGame) -> None:
    """Where the rulebook is silent, say what the program assumes (same keys as the sheet)."""
    with st.expander(tr("table.rulings")):
        st.html("<ul>" + "".join(f"<li>{esc(tr(k))}</li>" for k in game.info.rulings) + "</ul>")


# --- share, print, export, keys ------------------------------------------------------------


def qr_png(url: str) -> bytes:
    image = qrcode.make(url, border=4)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _share(ctx: TableContext) -> None:
    pid = ctx.snapshot.info.public_id
    kind = ctx.snapshot.info.kind
    current = ctx.lang
    link = viewer_url(base_url(), pid, current)
    with st.expander(tr("table.share_print")):
        st.caption(tr("table.referee_link_hint"))
        qr_col, text_col = st.columns([1, 2])
        qr_col.image(qr_png(link), width=180)
        text_col.markdown(f"**{esc(tr('table.viewer_link'))}**")
        text_col.code(link, language=None)
        paper = paper_choice("paper", text_col)
        text_col.download_button(
            tr("table.download_sheet"),
            data=lambda: render_sheet(
                registry.sheet_module(kind),
                ctx.game,
                service().snapshot(pid, VIEWER),  # a printed sheet is public
                base_url(),
                current,
                paper,
            ),
            file_name=f"{kind}-sheet-{current}-{paper}.pdf",
            mime="application/pdf",
            on_click="ignore",
            key="download_sheet",
        )
        text_col.download_button(
            tr("table.export_json"),
            data=lambda: json.dumps(service().export(pid), ensure_ascii=False, indent=2),
            file_name=f"table-{pid[:8]}.json",
            mime="application/json",
            on_click="ignore",
            key="download_export",
        )
    _keys(ctx)


def _keys(ctx: TableContext) -> None:
    """Rotate the referee link; issue, rotate and revoke seat links where a game has them."""
    pid, key = ctx.snapshot.info.public_id, ctx.key
    with st.expander(tr("table.keys")):
        st.caption(tr("table.keys_hint"))
        st.button(
            tr("table.rotate_referee"),
            key="rotate_referee",
            on_click=_rotate,
            args=(pid, key, Role("referee")),
        )
        if not ctx.game.info.seat_keys:
            return
        live = {k.role for k in service().keys(pid, key) if k.revoked_at is None}
        for seat, name in enumerate(ctx.snapshot.seats):
            role = Role.seat_of(seat)
            name_col, issue_col, revoke_col = st.columns([2, 1, 1])
            name_col.text(
                f"{name} — {tr('table.has_link') if role in live else tr('table.no_link')}"
            )
            issue_col.button(
                tr("table.issue_seat"),
                key=f"issue_{seat}",
                on_click=_rotate,
                args=(pid, key, role),
            )
            revoke_col.button(
                tr("table.revoke_seat"),
                key=f"revoke_{seat}",
                disabled=role not in live,
                on_click=run_write,
                args=(lambda r=role: service().revoke_key(pid, key, r),),
            )


def _rotate(public_id: str, key: str | None, role: Role) -> None:
    """A new key for ``role``; the referee's own new key replaces the one in the URL."""
    new: list[str] = []
    run_write(lambda: new.append(service().rotate_key(public_id, key, role)))
    if not new:
        return
    if role.is_referee:
        st.query_params["key"] = new[0]
    st.session_state[NEW_LINK] = (str(role), referee_url(base_url(), public_id, new[0], lang()))


def _new_link_notice() -> None:
    """A freshly issued link, shown once (only its hash is kept)."""
    pending = st.session_state.pop(NEW_LINK, None)
    if not pending:
        return
    role, link = pending
    label = (
        tr("table.new_referee_link") if role == "referee" else tr("table.new_seat_link", role=role)
    )
    with st.container(border=True, key="new_link"):
        st.success(label)
        qr_col, text_col = st.columns([1, 3])
        qr_col.image(qr_png(link), width=140)
        text_col.code(link, language=None)
