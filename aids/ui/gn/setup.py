"""Grand National's new-table fields: how the horses are entered and the board's track file
(before the form), then the stables, the horses as dealt (tapped, the quick path; or typed in
a grid), the bookmaker and the variants. ``page`` hands these to the new-table form."""

from __future__ import annotations

from typing import Any

import streamlit as st

from aids.core.errors import AidsError
from aids.core.i18n import Lang, t
from aids.games.grand_national.data import load
from aids.games.grand_national.deal import dealt_horse, slot_choices
from aids.games.grand_national.track import Track, sample_track
from aids.ui.common import md_text
from aids.ui.layout import names_with_colours
from aids.ui.uploads import file_box

TRACK_KEY = "gn_track"  # the uploaded track (its dict form), kept between reruns
ENTRY_KEY = "gn_entry"  # how the horses are entered: tapped as dealt, or typed in a grid
ENTRIES = ("deal", "typed")

# --- before the form: the track --------------------------------------------------------------


def setup_before_form(lang: Lang) -> None:
    """How the horses are entered (tapped as dealt, the quick path; or typed, for horses not
    from the deck) and the board's own track file (optional): outside the form, so the form
    shows the chosen entry and the file is checked at once."""
    st.segmented_control(
        t("gn.ui.entry", lang),
        options=list(ENTRIES),
        default=ENTRIES[0],
        required=True,
        format_func=lambda e: t(f"gn.ui.entry_{e}", lang),
        key=ENTRY_KEY,
    )
    upload = file_box(t("gn.ui.track_file", lang), ["toml", "json"], "gn_track_file")
    if upload is None:
        st.session_state.pop(TRACK_KEY, None)
        st.caption(t("gn.ui.track_sample", lang, lap=sample_track().lap))
        return
    try:
        track = Track.from_file_bytes(upload.getvalue(), upload.name)
    except AidsError as exc:
        st.session_state.pop(TRACK_KEY, None)
        st.error(md_text(exc.message(lang)))
        return
    st.session_state[TRACK_KEY] = track.to_dict()
    st.caption(t("gn.ui.track_loaded", lang, name=md_text(track.name(lang)), lap=track.lap))


# --- setup -----------------------------------------------------------------------------------


def setup_fields(lang: Lang) -> dict[str, Any]:
    """Stables in seat order with colours, the bookmaker, the horses as dealt, the variants."""
    d = load()
    st.markdown(f"**{md_text(t('gn.ui.stables_seat_order', lang))}**")
    stables = names_with_colours(
        d.max_stables,
        d.colours,
        name_label=lambda n: t("gn.ui.stable_n", lang, n=n),
        colour_label=t("gn.ui.colour", lang),
        key="gn_stable",
        lang=lang,
    )
    st.markdown(f"**{md_text(t('gn.ui.horses', lang))}**")
    if st.session_state.get(ENTRY_KEY, ENTRIES[0]) == "typed":
        horses = _typed_horses(lang, stables)
    else:
        horses = _dealt_horses(lang, stables)
    book_col, order_col, free_col = st.columns(3)
    bookmaker = book_col.number_input(
        t("gn.ui.bookmaker", lang), min_value=1, max_value=d.max_stables, value=1, key="gn_book"
    )
    order = order_col.radio(
        t("gn.ui.order", lang),
        options=["caps", "position"],
        format_func=lambda o: t(f"gn.ui.order_{o}", lang),
        key="gn_order",
    )
    too_free = free_col.radio(
        t("gn.ui.too_free", lang),
        options=["any_time", "round_end"],
        format_func=lambda o: t(f"gn.ui.too_free_{o}", lang),
        key="gn_too_free",
    )
    spinner = st.multiselect(
        t("gn.ui.spinner", lang),
        options=[c.key for c in d.colours],
        format_func=lambda k: next(c.label(lang) for c in d.colours if c.key == k),
        key="gn_spinner",
        help=t("gn.ui.spinner_hint", lang),
    )
    out = [
        {"name": stable["name"], "colour": stable["colour"], "horses": horses[s]}
        for s, stable in enumerate(stables)
    ]
    return {
        "stables": out,
        "bookmaker": int(bookmaker) - 1,
        "order": order,
        "too_free": too_free,
        "spinner": list(spinner),
        "track": st.session_state.get(TRACK_KEY),
    }


# Each horse's two rows of buttons, compact: eight handicaps fit a phone's row.
DEAL_CSS = """<style>
[class*="st-key-gn_deal_"] [data-testid="stButtonGroup"] button { min-width: 2.1rem;
  padding-left: .4rem; padding-right: .4rem; }
[class*="st-key-gn_deal_"] [data-testid="stWidgetLabel"] p { font-size: .85rem; }
</style>"""


def _dealt_horses(lang: Lang, stables: list[dict[str, str]]) -> list[list[dict[str, object]]]:
    """The quick path: each stable's four horse cards as dealt, a box per stable, a tap on the
    card's price (only its stack's prices are offered) and one on its handicap, each starting
    from the deck's preset. Every seat's box is drawn (the form cannot hide the unused ones);
    the horses of the named stables are kept."""
    d = load()
    choices = slot_choices()
    st.caption(t("gn.ui.deal_hint", lang))
    st.html(DEAL_CSS)
    out = []
    for s in range(d.max_stables):
        horses = []
        with st.container(border=True, key=f"gn_deal_{s}"):
            st.markdown(f"**{md_text(t('gn.ui.stable_n', lang, n=s + 1))}**")
            for slot, c in enumerate(choices):
                price_col, mark_col = st.columns([2, 3], vertical_alignment="bottom")
                price = price_col.segmented_control(
                    f"{t(f'gn.caps.{c.cap}', lang)} · {t('gn.ui.price', lang)}",
                    options=list(c.prices),
                    default=c.preset[0],
                    required=True,
                    format_func=lambda p: f"{p // 1000}K",
                    key=f"gn_deal_{s}_{slot}_price",
                )
                mark = mark_col.segmented_control(
                    t("gn.ui.handicap", lang),
                    options=list(c.handicaps),
                    default=c.preset[1],
                    required=True,
                    format_func=lambda m: f"+{m}",
                    key=f"gn_deal_{s}_{slot}_handicap",
                )
                name = stables[s]["name"] if s < len(stables) else ""
                horses.append(dealt_horse(name, slot, price, mark))
        out.append(horses)
    return out[: len(stables)]


def _typed_horses(lang: Lang, stables: list[dict[str, str]]) -> list[list[dict[str, object]]]:
    """The typed path (horses not from the deck, house rules): a grid of every seat's horses,
    each with a name, a reserve price and a handicap."""
    d = load()
    st.caption(t("gn.ui.horses_hint", lang))
    defaults = (60000, 40000, 20000, 30000)
    rows = [
        {
            "stable": str(s + 1),
            "cap": t(f"gn.caps.{d.caps[slot]}", lang),
            "name": "",
            "price": defaults[slot],
            "handicap": 3,
        }
        for s in range(d.max_stables)
        for slot in range(d.horses)
    ]
    edited = list(
        st.data_editor(
            rows,
            key="gn_horses",
            num_rows="fixed",
            hide_index=True,
            disabled=["stable", "cap"],
            column_config={
                "stable": st.column_config.TextColumn("#", width="small"),
                "cap": st.column_config.TextColumn(t("gn.ui.cap", lang)),
                "name": st.column_config.TextColumn(t("gn.ui.horse_name", lang), max_chars=40),
                "price": st.column_config.SelectboxColumn(
                    t("gn.ui.price", lang), options=list(d.prices)
                ),
                "handicap": st.column_config.NumberColumn(
                    t("gn.ui.handicap", lang), min_value=d.handicap[0], max_value=d.handicap[1]
                ),
            },
        )
    )
    # an untyped name is the stable's and the cap's number (the board's disc), in no
    # language: a table made on a Japanese page reads as English on an English one
    return [
        [
            dealt_horse(
                stable["name"],
                slot,
                edited[s * d.horses + slot].get("price"),
                edited[s * d.horses + slot].get("handicap"),
                str(edited[s * d.horses + slot].get("name") or ""),
            )
            for slot in range(d.horses)
        ]
        for s, stable in enumerate(stables)
    ]
