"""Print: blank sheets for game night, in either language and paper size."""

from __future__ import annotations

from functools import partial

import streamlit as st

from aids.ui.common import base_url, page_header, paper_choice, tr


def _blank_pdf(base: str, sheet_lang: str, paper: str) -> bytes:
    from aids.print.derby_sheet import blank_view, build_derby_sheet

    return build_derby_sheet(blank_view(base, sheet_lang), sheet_lang, paper)


def render() -> None:
    page_header().title(tr("ui.print_title"))
    st.caption(tr("ui.print_hint"))
    paper = paper_choice("blank_paper")
    base = base_url()
    st.subheader(tr("derby.name"))
    for sheet_lang, label in (("ja", "日本語"), ("en", "English")):
        st.download_button(
            f"{tr('ui.download_blank')} — {label}",
            data=partial(_blank_pdf, base, sheet_lang, paper),
            file_name=f"derby-sheet-blank-{sheet_lang}-{paper}.pdf",
            mime="application/pdf",
            on_click="ignore",
            key=f"blank_{sheet_lang}",
        )
    st.caption(tr("ui.print_qr_note", url=base))
