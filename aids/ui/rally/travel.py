"""The rally's movement controls: a chip per travel card (one multi-select that keeps its taps
in the browser), the total, the stop list as the engine advises it (``reach.advise``), and Move
or Move and end turn, built from the chips at the moment they are tapped; and the stop the
movement being tapped will make, for the map."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.games.rally import engine, reach
from aids.games.rally.describe import card_name, reach_text
from aids.games.rally.model import RallyState, Travel
from aids.ui.common import WORD_JOINER, md_text, md_tr, run_write, service, tr, tr_count
from aids.ui.context import TableContext


def travel(ctx: TableContext, seat: int) -> None:
    """The movement in one place: a chip per card (a multi-select that keeps its taps
    in the browser, so the cards of a movement are tapped without waiting), the total, the
    stop list as the engine advises it, and Move (or Move and end turn). The buttons are
    drawn before any card is tapped and build the movement from the chips at the moment
    they are tapped."""
    state: RallyState = ctx.state
    choices = engine.travel_choices(state, seat)
    if not choices:
        why = engine.why_no_travel(state, seat)
        if why:
            st.caption(md_text(tr(f"rally.ui.no_travel_{why}")))
        return
    seq = ctx.snapshot.seq
    key = _chips_key(ctx)
    chips = reach.travel_hand(state, seat)
    # compact, so that the movement, the attack or defence and End turn share the first screen
    # of a laptop and a phone (the box's name is the chips' label; the total is the stop
    # list's; Clear sits by Move)
    with st.container(border=True, key="travel_box"):
        st.pills(
            f"**{md_text(tr('rally.ui.travel'))}** · {md_text(tr('rally.ui.add_card'))}",
            options=list(range(len(chips))),
            format_func=lambda i: _chip_label(chips, i, ctx.lang),
            selection_mode="multi",
            key=key,
        )
        picked = staged(ctx)
        valid = tuple(sorted(picked)) in choices
        km = engine.travel_km(picked) if valid else 0
        advice = reach.advise(state, seat, km) if valid else None
        stops = [s.town for s in advice.stops] if advice else []
        chosen = st.selectbox(
            f"**{engine.travel_km(picked)} km** · "
            + md_text(_stops_label(len(stops)) if advice else tr("rally.ui.stop_at")),
            options=stops,
            index=stops.index(advice.proposal) if advice and advice.proposal else None,
            placeholder=tr("rally.ui.choose_stop"),
            format_func=lambda town: _stop_text(state, advice, town, ctx.lang),
            disabled=advice is None,
            key=f"to_{seq}_{km}",
        )
        with st.container(horizontal=True, key="travel_go"):
            st.button(tr("rally.ui.move_end"), key="move_end", type="primary",
                      on_click=_move, args=(ctx, seat, choices, True))  # fmt: skip
            st.button(tr("rally.ui.move_go"), key="move_go",
                      on_click=_move, args=(ctx, seat, choices, False))  # fmt: skip
            st.button(tr("rally.ui.clear"), key=f"clear_{seq}", on_click=_clear, args=(key,))
        note = st.session_state.pop(f"{key}_note", None)
        if picked and not valid:
            st.caption(md_text(_why_not(ctx, seat, picked)))
        elif advice is not None and advice.proposal is None:
            st.warning(md_text(reach_text(state, advice, ctx.lang)))
        elif note:
            st.warning(md_text(note))
        stop = advice.stop(chosen) if advice and chosen else None
        if stop is not None and stop.jammed:
            st.caption(md_tr("rally.ui.stop_jammed", town=_town(state, stop.town, ctx.lang)))


def _why_not(ctx: TableContext, seat: int, cards: Sequence[str]) -> str:
    """Why the tapped cards are no movement, as the engine would refuse them."""
    fault = engine.travel_fault(ctx.state, seat, cards)
    return fault.message(ctx.lang) if fault else tr("rally.ui.cards_not_valid")


def _stops_label(n: int) -> str:
    return tr_count("rally.ui.destination", n, n=n)


def _chips_key(ctx: TableContext) -> str:
    """The chips of this turn's movement as drawn from this log position."""
    return f"travel_{ctx.snapshot.seq}"


def staged(ctx: TableContext) -> list[str]:
    """The travel cards tapped and not yet moved with, as the chips hold them now."""
    state: RallyState = ctx.state
    chips = reach.travel_hand(state, state.turn)
    picked = st.session_state.get(_chips_key(ctx)) or []
    return [chips[i] for i in picked if 0 <= i < len(chips)]


def _chip_label(chips: tuple[str, ...], i: int, lang: str) -> str:
    """A chip's card; the second and third chip of a kind end in one or two invisible word
    joiners, so the browser tells chips of one kind apart (it keys a chip by its words)."""
    return card_name(chips[i], lang) + WORD_JOINER * chips[:i].count(chips[i])


def _clear(key: str) -> None:
    st.session_state[key] = []


def _town(state: RallyState, town: str, lang: str) -> str:
    return state.setup.board.town_name(town, lang)


def _stop_text(state: RallyState, advice: reach.Advice | None, town: str, lang: str) -> str:
    """A stop as the list shows it (plain text: a selectbox shows no Markdown)."""
    stop = advice.stop(town) if advice else None
    if stop is None:
        return _town(state, town, lang)
    if stop.here:
        return t("rally.ui.stop_here", lang, town=_town(state, town, lang))
    key = "rally.ui.town_jammed" if stop.jammed else "rally.ui.town_option"
    return t(key, lang, town=_town(state, town, lang), km=stop.km, left=stop.left)


def _move(ctx: TableContext, seat: int, choices: list[tuple[str, ...]], end: bool) -> None:
    """Record the movement the chips hold, to the stop chosen (else the one proposed); with
    ``end``, end the turn after it when the engine allows it at once (no discard to
    choose). Nothing is written when the cards or the stop are missing: the page says so."""
    state: RallyState = ctx.state
    note = f"{_chips_key(ctx)}_note"
    cards = tuple(sorted(staged(ctx)))
    if cards not in choices:
        st.session_state[note] = _why_not(ctx, seat, cards)
        return
    km = engine.travel_km(cards)
    advice = reach.advise(state, seat, km)
    to = st.session_state.get(f"to_{ctx.snapshot.seq}_{km}") or advice.proposal
    if to is None:
        st.session_state[note] = tr("rally.ui.pick_stop", km=km)
        return
    travel = Travel(seat, cards, str(to))
    if end:
        # one write for "Move and end turn" (never half done), where the engine takes it: a
        # simulation that must choose discards moves only, and its page asks for them
        whole = Travel(seat, cards, str(to), end=True)
        try:
            engine.apply(state, whole)
            travel = whole
        except AidsError:
            pass  # the movement alone; the service says why if it is refused
    pid, key = ctx.snapshot.info.public_id, ctx.key
    run_write(lambda: service().record(pid, key, ctx.snapshot.seq, travel))


def pending_stop(ctx: TableContext) -> str | None:
    """The town the movement on the chips would stop at (the one chosen, else the one the
    engine proposes); None when nothing legal is tapped, or on a replayed step."""
    state: RallyState = ctx.state
    if ctx.key is None or ctx.role.is_viewer or state.phase != "act":
        return None
    choices = engine.travel_choices(state, state.turn)
    cards = tuple(sorted(staged(ctx)))
    if cards not in choices:
        return None
    km = engine.travel_km(cards)
    chosen = st.session_state.get(f"to_{ctx.snapshot.seq}_{km}")
    return str(chosen) if chosen else reach.advise(state, state.turn, km).proposal
