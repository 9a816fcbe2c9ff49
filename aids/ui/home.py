"""Home: the list of tables, a new table of any registered game, import of an exported table.

A URL with ``?table=<public id>`` shows that table instead (viewer, or the key's role with
``&key=``), so printed QR codes and shared links can point at the site root.
"""

from __future__ import annotations

import streamlit as st

from aids import registry
from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.core.links import viewer_url
from aids.tables import load_export
from aids.ui.common import base_url, esc, lan_warning, lang, page_header, plain, service, tr
from aids.ui.context import page_for
from aids.ui.frame import render_table
from aids.ui.sharing import announce_referee_link


def render() -> None:
    table = st.query_params.get("table")
    if table:
        render_table(table, st.query_params.get("key"))
        return
    page_header().title(tr("app.name"))
    lan_warning()
    tab_tables, tab_new, tab_import = st.tabs(
        [tr("table.tables"), tr("table.new_table"), tr("table.import")]
    )
    with tab_tables:
        _table_list()
    with tab_new:
        _create_form()
    with tab_import:
        _import_form()


def _create_form() -> None:
    current = lang()  # bound now: AppTest calls format_func outside the script run
    kinds = list(registry.entries())
    wanted = st.query_params.get("game")  # a rule card's QR code names its game
    kind = st.selectbox(
        tr("table.game"),
        options=kinds,
        index=kinds.index(wanted) if wanted in kinds else 0,
        format_func=lambda k: t(f"{k}.name", current),
        key="new_game",
    )
    before = getattr(page_for(kind), "setup_before_form", None)
    if before is not None:  # inputs the form's fields depend on (a map file, say)
        before(current)
    with st.form(f"new_{kind}", enter_to_submit=False):
        title = st.text_input(tr("table.title"), key="new_title", max_chars=80)
        setup = page_for(kind).setup_fields(current)
        submitted = st.form_submit_button(tr("table.create"), type="primary")
    if not submitted:
        return
    try:
        info, key = service().create(kind, title, setup)
    except AidsError as exc:
        st.error(plain(exc.message(current)))
        return
    st.query_params.update({"table": info.public_id, "key": key, "lang": current})
    announce_referee_link(info.public_id, key, created=True)  # once, with a QR code
    st.rerun()


def _table_list() -> None:
    tables = service().list_tables()
    if not tables:
        st.info(tr("table.no_tables"))
        return
    base = base_url()
    items = []
    for info, seq in tables:
        link = viewer_url(base, info.public_id, lang())
        items.append(
            f"<li><b>{esc(info.title)}</b> · {esc(tr(f'{info.kind}.name'))}"
            f" · {esc(info.created_at[:16].replace('T', ' '))} · {esc(tr('table.steps', n=seq))}"
            f' · <a href="{esc(link)}" target="_self">{esc(tr("table.open_viewer"))}</a></li>'
        )
    st.html(f"<ul>{''.join(items)}</ul>")


def _import_form() -> None:
    upload = st.file_uploader(tr("table.import_file"), type=["json"], key="import_file")
    if upload is not None and st.button(tr("table.import"), key="import_go"):
        try:
            info = service().import_(load_export(upload.getvalue()))
        except AidsError as exc:
            st.error(plain(exc.message(lang())))
            return
        st.success(f"{tr('table.imported')}: {info.title}")
        st.link_button(tr("table.open_viewer"), viewer_url(base_url(), info.public_id, lang()))
