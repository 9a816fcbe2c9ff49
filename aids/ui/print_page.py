"""Print: blank sheets for game night, in either language and paper size."""

from __future__ import annotations

import streamlit as st

from aids.ui.common import base_url, language_switch, tr


def render() -> None:
    from aids.print.derby_sheet import blank_view, build_derby_sheet

    head, switch = st.columns([3, 1], vertical_alignment="center")
    head.title(tr("ui.print_title"))
    with switch:
        language_switch()
    st.caption(tr("ui.print_hint"))
    paper = st.radio(
        tr("ui.paper"),
        options=["a4", "letter"],
        horizontal=True,
        key="blank_paper",
        format_func=lambda p: {"a4": "A4", "letter": "US Letter"}[p],
    )
    base = base_url()
    st.subheader(tr("derby.name"))
    for sheet_lang, label in (("ja", "日本語"), ("en", "English")):
        st.download_button(
            f"{tr('ui.download_blank')} — {label}",
            data=lambda sheet_lang=sheet_lang: build_derby_sheet(
                blank_view(base, sheet_lang), sheet_lang, paper
            ),
            file_name=f"derby-sheet-blank-{sheet_lang}-{paper}.pdf",
            mime="application/pdf",
            on_click="ignore",
            key=f"blank_{sheet_lang}",
        )
    st.caption(tr("ui.print_qr_note", url=base))
