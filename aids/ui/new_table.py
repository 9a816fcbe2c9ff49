"""The form for a new table of any registered game: on the home page, and on an event's page
for a table started inside the event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from aids import registry
from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.tables import TableInfo
from aids.ui.common import lang, md_text, service, tr
from aids.ui.context import page_for

Create = Callable[[str, str, dict[str, Any]], tuple[TableInfo, str]]


def table_form(
    create: Create | None = None,
    *,
    prefix: str = "new",
) -> tuple[TableInfo, str] | None:
    """The form for a new table of any registered game. ``create(kind, title, setup)`` makes
    it (by default the table service's ``create``); returns the new table and its referee key
    once, or None (not submitted, or refused: the message is shown)."""
    current = lang()  # bound now: AppTest calls format_func outside the script run
    kinds = list(registry.entries())
    wanted = st.query_params.get("game")  # a rule card's QR code names its game
    kind = st.selectbox(
        tr("table.game"),
        options=kinds,
        index=kinds.index(wanted) if wanted in kinds else 0,
        format_func=lambda k: t(f"{k}.name", current),
        key=f"{prefix}_game",
    )
    before = getattr(page_for(kind), "setup_before_form", None)
    if before is not None:  # inputs the form's fields depend on (a map file, say)
        before(current)
    with st.form(f"{prefix}_{kind}", enter_to_submit=False):
        title = st.text_input(tr("table.title"), key=f"{prefix}_title", max_chars=80)
        setup = page_for(kind).setup_fields(current)
        submitted = st.form_submit_button(tr("table.create"), type="primary")
    if not submitted:
        return None
    try:
        return (create or service().create)(kind, title, setup)
    except AidsError as exc:
        st.error(md_text(exc.message(current)))
        return None
