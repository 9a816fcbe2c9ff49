"""A page that shows every hostile name (``tests.ui.hostile``) on every Streamlit surface the
pages use: through ``md_text`` where Streamlit reads Markdown, as it is where Streamlit shows
text as it is. ``test_md_surfaces_browser`` opens it in chromium. Each surface sits in a
container keyed ``surface_<name>``, so the test can say which one went wrong."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from aids.ui.common import md_text
from tests.ui.hostile import CORPUS

NAMES = list(CORPUS)
ALL = " ".join(NAMES)  # one label holding every name, where a page has one of a kind
SAFE = [md_text(n) for n in NAMES]
MARKDOWN_SURFACES = (
    "markdown", "caption", "info", "success", "warning", "error", "subheader", "button",
    "checkbox", "toggle", "text_input", "number_input", "selectbox_label", "slider",
    "link_button", "download_button", "radio", "pills", "segmented_control", "expander",
    "tabs", "popover",
)  # fmt: skip
PLAIN_SURFACES = ("selectbox", "multiselect", "text", "code")


BOXES: dict[str, Any] = {}


def surface(name: str) -> Any:
    """The container of one surface, made the first time it is asked for."""
    if name not in BOXES:
        BOXES[name] = st.container(key=f"surface_{name}")
    return BOXES[name]


def main() -> None:
    st.set_page_config(page_title="md_text surfaces", layout="wide")
    for i, safe in enumerate(SAFE):
        with surface("markdown"):
            st.markdown(safe)
        with surface("caption"):
            st.caption(safe)
        for alert in ("info", "success", "warning", "error"):
            with surface(alert):
                getattr(st, alert)(safe)
        with surface("subheader"):
            st.subheader(safe, anchor=False)
        with surface("button"):
            st.button(safe, key=f"button_{i}")
        with surface("checkbox"):
            st.checkbox(safe, key=f"checkbox_{i}")
        with surface("toggle"):
            st.toggle(safe, key=f"toggle_{i}")
        with surface("text_input"):
            st.text_input(safe, key=f"text_input_{i}")
        with surface("number_input"):
            st.number_input(safe, key=f"number_input_{i}")
        with surface("selectbox_label"):
            st.selectbox(safe, options=[1], key=f"selectbox_label_{i}")
        with surface("slider"):
            st.slider(safe, 0, 3, key=f"slider_{i}")
        with surface("link_button"):
            st.link_button(safe, "http://127.0.0.1/")
        with surface("download_button"):
            st.download_button(safe, data=b"x", file_name="x.txt", key=f"download_{i}")
        with surface("expander"), st.expander(safe):
            st.write("")
        with surface("popover"), st.popover(safe):
            st.write("")
        with surface("selectbox"):  # options are shown as they are: the name itself
            st.selectbox("options", options=[NAMES[i]], key=f"selectbox_{i}")
    with surface("radio"):
        st.radio("radio", options=range(len(NAMES)), format_func=SAFE.__getitem__, key="radio")
    with surface("pills"):
        st.pills("pills", options=range(len(NAMES)), format_func=SAFE.__getitem__, key="pills")
    with surface("segmented_control"):
        st.segmented_control(
            "segmented", options=range(len(NAMES)), format_func=SAFE.__getitem__, key="segmented"
        )
    with surface("tabs"):
        st.tabs(SAFE)
    with surface("multiselect"):
        st.multiselect("multiselect", options=NAMES, default=NAMES, key="multiselect")
    with surface("text"):
        for name in NAMES:
            st.text(name)
    with surface("code"):
        st.code("\n".join(NAMES), language=None)
    st.toast(md_text(ALL), duration="infinite")
    st.dialog(md_text(ALL))(lambda: st.write(""))()


if __name__ == "__main__":  # as Streamlit runs it; not when pytest imports it
    main()
