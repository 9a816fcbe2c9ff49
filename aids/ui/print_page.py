"""Print: blank sheets of every registered game for game night, in either language and paper."""

from __future__ import annotations

from functools import partial

import streamlit as st

from aids import registry
from aids.print.frame import render_sheet
from aids.ui.common import base_url, page_header, paper_choice, tr

LANG_NAMES = {"ja": "日本語", "en": "English"}


def _blank_pdf(kind: str, base: str, sheet_lang: str, paper: str) -> bytes:
    entry = registry.entry(kind)
    return render_sheet(registry.sheet_module(kind), entry.game, None, base, sheet_lang, paper)


def _cards_pdf(kind: str, base: str, langs: tuple[str, ...], duplex: bool) -> bytes:
    from aids.print.pack import render_cards

    entry = registry.entry(kind)
    return render_cards(entry.game, registry.sheet_module(kind), None, base, langs, duplex=duplex)


def _summary_pdf(kind: str, base: str, langs: tuple[str, ...]) -> bytes:
    from aids.print.pack import render_summary

    return render_summary(registry.entry(kind).game, registry.sheet_module(kind), None, base, langs)


def render() -> None:
    page_header().title(tr("table.print_title"))
    st.caption(tr("table.print_hint"))
    paper = paper_choice("blank_paper")
    duplex = st.toggle(tr("table.duplex"), key="cards_duplex", help=tr("table.duplex_help"))
    base = base_url()
    for kind in registry.entries():
        st.subheader(tr(f"{kind}.name"))
        for sheet_lang, label in LANG_NAMES.items():
            st.download_button(
                f"{tr('table.download_blank')} — {label}",
                data=partial(_blank_pdf, kind, base, sheet_lang, paper),
                file_name=f"{kind}-sheet-blank-{sheet_lang}-{paper}.pdf",
                mime="application/pdf",
                on_click="ignore",
                key=f"blank_{kind}_{sheet_lang}",
            )
        both = ("ja", "en")
        cards_col, summary_col = st.columns(2)
        cards_col.download_button(
            tr("table.download_cards_duplex" if duplex else "table.download_cards"),
            data=partial(_cards_pdf, kind, base, both, duplex),
            file_name=f"{kind}-cards-ja-en{'-duplex' if duplex else ''}.pdf",
            mime="application/pdf",
            on_click="ignore",
            key=f"cards_{kind}",
        )
        summary_col.download_button(
            tr("table.download_summary"),
            data=partial(_summary_pdf, kind, base, both),
            file_name=f"{kind}-summary-ja-en.pdf",
            mime="application/pdf",
            on_click="ignore",
            key=f"summary_{kind}",
        )
    st.caption(tr("table.print_qr_note", url=base))
