"""Home: the list of tables, a new table for each game, import of an exported table.

A URL with ``?table=<public id>`` shows that table instead (viewer, or referee with ``&key=``),
so printed QR codes and shared links can point at the site root.
"""

from __future__ import annotations

import streamlit as st

from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.core.links import viewer_url
from aids.core.tables import load_export
from aids.ui import derby_page
from aids.ui.common import base_url, esc, lan_warning, lang, page_header, service, tr

GAME_PAGES = {"derby": derby_page}


def render() -> None:
    table = st.query_params.get("table")
    if table:
        _render_table(table)
        return
    page_header().title(tr("app.name"))
    lan_warning()
    tab_tables, tab_new, tab_import = st.tabs(
        [tr("ui.tables"), tr("ui.new_table"), tr("ui.import")]
    )
    with tab_tables:
        _table_list()
    with tab_new:
        current = lang()  # bound now: AppTest calls format_func outside the script run
        game = st.selectbox(
            tr("ui.game"),
            options=list(GAME_PAGES),
            format_func=lambda kind: t(f"{kind}.name", current),
            key="new_game",
        )
        GAME_PAGES[game].create_form()
    with tab_import:
        _import_form()


def _render_table(public_id: str) -> None:
    try:
        snapshot = service().snapshot(public_id)
    except AidsError as exc:
        st.error(exc.message(lang()))
        if st.button(tr("ui.back_home")):
            st.query_params.clear()
            st.rerun()
        return
    key = st.query_params.get("key")
    if key and not service().is_referee(public_id, key):
        st.error(tr("errors.table/forbidden"))
        key = None
    GAME_PAGES[snapshot.info.kind].render(snapshot, key)


def _table_list() -> None:
    tables = service().list()
    if not tables:
        st.info(tr("ui.no_tables"))
        return
    base = base_url()
    for info, seq in tables:
        game = tr(f"{info.kind}.name")
        link = viewer_url(base, info.public_id, lang())
        st.markdown(
            f"**{esc(info.title)}** · {esc(game)} · {esc(info.created_at[:16].replace('T', ' '))}"
            f" · {tr('ui.steps', n=seq)} · [{tr('ui.open_viewer')}]({link})"
        )


def _import_form() -> None:
    upload = st.file_uploader(tr("ui.import_file"), type=["json"], key="import_file")
    if upload is not None and st.button(tr("ui.import"), key="import_go"):
        try:
            info = service().import_(load_export(upload.getvalue()))
        except AidsError as exc:
            st.error(exc.message(lang()))
            return
        st.success(f"{tr('ui.imported')}: {info.title}")
        st.markdown(f"[{tr('ui.open_viewer')}]({viewer_url(base_url(), info.public_id, lang())})")
