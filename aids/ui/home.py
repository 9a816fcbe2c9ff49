"""Home: the list of tables, a new table of any registered game, events of many tables,
import of an exported table.

A URL with ``?table=<public id>`` shows that table instead (viewer, or the key's role with
``&key=``), and ``?meet=<public id>`` an event (``meet_page``), so printed QR codes and shared
links can point at the site root.
"""

from __future__ import annotations

import streamlit as st

from aids.core.errors import AidsError
from aids.core.links import meet_url, viewer_url
from aids.tables import load_export
from aids.ui.common import (
    base_url,
    html_text,
    lan_warning,
    lang,
    md_text,
    meets,
    page_header,
    service,
    tr,
)
from aids.ui.frame import render_table
from aids.ui.meet_page import event_tab, render_meet
from aids.ui.new_table import table_form
from aids.ui.sharing import announce_referee_link
from aids.ui.uploads import file_box


def render() -> None:
    table = st.query_params.get("table")
    if table:
        render_table(table, st.query_params.get("key"))
        return
    meet = st.query_params.get("meet")
    if meet:
        render_meet(meet, st.query_params.get("key"))
        return
    page_header().title(tr("app.name"))
    lan_warning()
    tab_tables, tab_new, tab_events, tab_import = st.tabs(
        [tr("table.tables"), tr("table.new_table"), tr("meet.events"), tr("table.import")]
    )
    with tab_tables:
        _table_list()
    with tab_new:
        _create_form()
    with tab_events:
        event_tab()
    with tab_import:
        _import_form()


def _create_form() -> None:
    """Home's new table: made on its own, then its page opens with the referee key."""
    made = table_form()
    if made is None:
        return
    info, key = made
    st.query_params.update({"table": info.public_id, "key": key, "lang": lang()})
    announce_referee_link(info.public_id, key, created=True)  # once, with a QR code
    st.rerun()


def _table_list() -> None:
    tables = service().list_tables()
    if not tables:
        st.info(tr("table.no_tables"))
        return
    base = base_url()
    events = meets().membership()
    items = []
    for info, seq in tables:
        link = viewer_url(base, info.public_id, lang())
        event = events.get(info.public_id)
        within = ""
        if event is not None:
            page = meet_url(base, event.public_id, lang())
            name = html_text(tr("meet.in_event", title=event.title))
            within = f' · <a href="{html_text(page)}" target="_self">{name}</a>'
        items.append(
            f"<li><b>{html_text(info.title)}</b> · {html_text(tr(f'{info.kind}.name'))}"
            f" · {html_text(info.created_at[:16].replace('T', ' '))}"
            f" · {html_text(tr('table.steps', n=seq))}"
            f' · <a href="{html_text(link)}" target="_self">'
            f"{html_text(tr('table.open_viewer'))}</a>"
            f"{within}</li>"
        )
    st.html(f"<ul>{''.join(items)}</ul>")


def _import_form() -> None:
    upload = file_box(tr("table.import_file"), ["json"], "import_file")
    if upload is not None and st.button(tr("table.import"), key="import_go"):
        try:
            info = service().import_(load_export(upload.getvalue()))
        except AidsError as exc:
            st.error(md_text(exc.message(lang())))
            return
        st.success(f"{tr('table.imported')}: {md_text(info.title)}")
        st.link_button(tr("table.open_viewer"), viewer_url(base_url(), info.public_id, lang()))
