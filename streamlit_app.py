"""The tracker's entry: page setup and navigation, nothing else (pages live in aids/ui)."""

import streamlit as st

from aids.ui import home, print_page


def main() -> None:
    st.set_page_config(page_title="Race-night table aids", page_icon="🏇", layout="wide")
    page = st.navigation(
        [
            st.Page(home.render, title="Tables · テーブル", icon="🏇", default=True),
            st.Page(print_page.render, title="Print · 印刷", icon="🖨️", url_path="print"),
        ],
        position="top",
    )
    page.run()


# Streamlit runs this file as ``__main__``; the live-chances worker process (spawned) imports
# it as ``__mp_main__`` and must not draw a page.
if __name__ == "__main__":
    main()
