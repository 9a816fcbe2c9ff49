"""Shared pieces of the Streamlit pages: the service, the language, errors and links.

Nothing important lives only in session state: the table, role and language are in the URL,
the game in the store; session state holds just widget values and one pending message.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from typing import Any

import streamlit as st

from aids import registry
from aids.core.errors import AidsError, StaleState
from aids.core.i18n import DEFAULT_LANG, LANGS, Lang, normalise_lang, t
from aids.core.links import lan_address, public_base_url
from aids.paths import database_path
from aids.store.sqlite import SqliteStore
from aids.tables import TableService

LANG_LABELS = {"ja": "日本語", "en": "English"}
FLASH = "_flash"


def service() -> TableService:
    """One thread-safe service per store file, shared by every session of the server."""
    return _service_for(str(database_path()), os.environ.get("AIDS_GAME_PLUGINS", ""))


@st.cache_resource
def _service_for(path: str, plugins: str) -> TableService:
    # Keyed by path and plugins so a changed AIDS_DB (tests, a second data folder) or game
    # list gets its own service.
    return TableService(SqliteStore(path), registry.engines())


def lang() -> Lang:
    """The page language: ``?lang=`` in the URL, else ``AIDS_LANG``, else Japanese."""
    return normalise_lang(st.query_params.get("lang") or os.environ.get("AIDS_LANG", DEFAULT_LANG))


def tr(key: str, **params: object) -> str:
    return t(key, lang(), **params)


def esc(text: object) -> str:
    """Escape user text (names, titles) before it goes into HTML markup."""
    return html.escape(str(text), quote=True)


def language_switch() -> None:
    """ja/en toggle kept in the URL, so a refresh or a shared link keeps the language."""
    current = lang()
    choice = st.segmented_control(
        "🌐",
        options=list(LANGS),
        format_func=LANG_LABELS.__getitem__,
        default=current,
        key="lang_switch",
        label_visibility="collapsed",
    )
    if choice and choice != current:
        st.query_params["lang"] = choice
        st.rerun()


def heading(text: str) -> None:
    """A heading of user text (a table title), shown as text: never Markdown, never a link."""
    st.html(f'<h3 style="margin:0 0 .2rem 0">{esc(text)}</h3>')


def page_header() -> Any:
    """The language toggle at the top right; returns the column for the page's heading."""
    head, switch = st.columns([3, 1], vertical_alignment="center")
    with switch:
        language_switch()
    return head


def base_url() -> str:
    return public_base_url()


def lan_warning() -> None:
    if not os.environ.get("AIDS_PUBLIC_URL") and lan_address() is None:
        st.warning(tr("table.no_lan"))


def run_write(write: Callable[[], Any]) -> None:
    """Run a write from a widget callback; keep its error (in any language) for the next run."""
    try:
        write()
    except AidsError as exc:
        st.session_state[FLASH] = ("error", exc.code, exc.params, isinstance(exc, StaleState))
        return
    st.session_state.pop(FLASH, None)


def show_flash() -> None:
    """Show the error of the last write, rendered in the current language."""
    pending = st.session_state.get(FLASH)
    if not pending:
        return
    _, code, params, stale = pending
    message = AidsError(code, **params).message(lang())
    (st.warning if stale else st.error)(message, icon="⚠️")
    if st.button(tr("table.dismiss"), key="dismiss_flash", type="tertiary"):
        st.session_state.pop(FLASH, None)
        st.rerun()


PAPER_LABELS = {"a4": "A4", "letter": "US Letter"}


def paper_choice(key: str, where: Any = st) -> str:
    """A4 or US Letter for a printable (``where``: a column or container to draw in)."""
    return str(
        where.radio(
            tr("table.paper"),
            options=list(PAPER_LABELS),
            horizontal=True,
            key=key,
            format_func=PAPER_LABELS.__getitem__,
        )
    )
