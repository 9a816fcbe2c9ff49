"""The tracker's entry: page setup and navigation (pages live in aids/ui), and the server's own
routes beside them: the live view every phone follows (aids/live)."""

from pathlib import Path

import streamlit as st

from aids import live
from aids.ui import home, print_page
from aids.ui.common import set_pages, tr


def main() -> None:
    st.set_page_config(page_title=tr("app.name"), page_icon="🏇", layout="wide")
    pages = [  # named in the reader's language: the switch reloads with ?lang=, so do they
        st.Page(home.render, title=tr("app.nav_tables"), icon="🏇", default=True),
        st.Page(print_page.render, title=tr("app.nav_print"), icon="🖨️", url_path="print"),
    ]
    set_pages(pages)  # the phone's header links to them: Streamlit's bar is hidden there
    page = st.navigation(pages, position="top")
    page.run()


# Streamlit runs this file as ``__main__`` for each page; ``streamlit run`` first imports it as
# ``streamlit_app`` and serves ``app`` (Streamlit's pages and our routes on one server); the
# live-chances worker process (spawned) imports it as ``__mp_main__`` and does neither.
if __name__ == "__main__":
    main()
elif __name__ == "streamlit_app":
    app = st.App(Path(__file__).resolve(), routes=live.routes())
