"""Grand National's race on the table page: the horse to move, the card it draws, card
effects and pulling up."""

from __future__ import annotations

import streamlit as st

from aids.core.i18n import t
from aids.games.grand_national import engine
from aids.games.grand_national.describe import horse_label
from aids.games.grand_national.model import (
    EFFECTS,
    Boxed,
    Card,
    GnState,
    Move,
    PullUp,
)
from aids.ui.common import md_tr, tr
from aids.ui.context import TableContext


def race(ctx: TableContext) -> None:
    """The race: the horse to move and its allowed range, the card it draws, card effects."""
    state: GnState = ctx.state
    seq = ctx.snapshot.seq
    horse = engine.next_horse(state)
    if horse is not None:
        handicap, left = state.handicap[horse], state.speed_left(horse)
        with st.container(border=True, key="move_box"):
            st.markdown(f"**{md_tr('gn.ui.move_title', horse=horse_label(state, horse))}**")
            st.caption(
                tr(
                    "gn.ui.move_hint",
                    handicap=handicap,
                    left=left,
                    low=handicap + 1,
                    high=handicap + min(8, left),
                )
            )
            fwd_col, lane_col = st.columns(2)
            fwd_col.number_input(
                tr("gn.ui.forward"), min_value=0, max_value=40, value=handicap + 1, key=f"mf_{seq}"
            )
            lane_col.number_input(
                tr("gn.ui.lane"),
                min_value=1,
                max_value=state.setup.track.lanes,
                value=state.lane[horse],
                key=f"ml_{seq}",
            )
            st.checkbox(tr("gn.ui.blocked"), key=f"mb_{seq}")

            def move() -> Move:
                get = st.session_state.get
                return Move(
                    horse,
                    int(get(f"mf_{seq}") or 0),
                    int(get(f"ml_{seq}") or 1),
                    bool(get(f"mb_{seq}")),
                )

            row = st.container(horizontal=True)
            row.button(
                tr("gn.ui.move_go"), key="move_go", type="primary", on_click=ctx.write_from(move)
            )
            row.button(tr("gn.ui.boxed_go"), key="boxed_go", on_click=ctx.write(Boxed(horse)))
    latest = ctx.latest
    if latest is not None and isinstance(latest.action, Move):  # a card's draw is entered once
        moved = latest.action.horse
        if moved < state.horses and state.status[moved] == "running":
            deck = engine.deck_for(state, moved)
            if deck:
                st.info(
                    md_tr(
                        "gn.ui.draw_card",
                        horse=horse_label(state, moved),
                        deck=tr(f"gn.deck.{deck}"),
                    )
                )
    _cards(ctx)


def _cards(ctx: TableContext) -> None:
    state: GnState = ctx.state
    seq = ctx.snapshot.seq
    runners = engine.race_order(state)
    if not runners:
        return
    with st.expander(tr("gn.ui.card_title")):
        horse = st.selectbox(
            tr("gn.ui.horse"),
            options=runners,
            format_func=lambda h: horse_label(state, h),
            key=f"ch_{seq}",
        )
        effect = st.selectbox(
            tr("gn.ui.effect"),
            options=list(EFFECTS),
            format_func=lambda e: t(f"gn.effects.{e}", ctx.lang),
            key=f"ce_{seq}",
        )
        if effect == "advance":
            target = engine.advance_target(state, horse)
            if target is not None and target != horse:
                st.caption(md_tr("gn.ui.advance_instead", horse=horse_label(state, target)))
        if effect in ("advance", "penalty", "handicap", "speed"):
            st.number_input(
                tr("gn.ui.value"),
                min_value=-20,
                max_value=20,
                value=3 if effect == "advance" else 1,
                key=f"cv_{seq}",
            )
        if effect == "advance":
            short_col, lane_col = st.columns(2)
            short_col.number_input(
                tr("gn.ui.moved_short"), min_value=0, max_value=20, value=None, key=f"cm_{seq}"
            )
            lane_col.number_input(
                tr("gn.ui.lane_after"), min_value=1, max_value=state.setup.track.lanes,
                value=None, key=f"cl_{seq}",
            )  # fmt: skip

        def card() -> Card:
            get = st.session_state.get
            e = get(f"ce_{seq}") or effect
            value = (
                int(get(f"cv_{seq}") or 0)
                if e in ("advance", "penalty", "handicap", "speed")
                else 0
            )
            short = get(f"cm_{seq}") if e == "advance" else None
            lane = get(f"cl_{seq}") if e == "advance" else None
            return Card(
                int(get(f"ch_{seq}", horse)),
                e,
                value,
                None if lane is None else int(lane),
                None if short is None else int(short),
            )

        row = st.container(horizontal=True)
        row.button(tr("gn.ui.card_go"), key="card_go", on_click=ctx.write_from(card))
        row.button(
            tr("gn.ui.pull_up_go"),
            key="pull_go",
            on_click=ctx.write_from(lambda: PullUp(int(st.session_state.get(f"ch_{seq}", horse)))),
        )


def pull_up_own(ctx: TableContext, seat: int) -> None:
    """An owner may pull up one of its own horses at any time, from its own link."""
    state: GnState = ctx.state
    mine = [h for h in engine.running(state) if state.owner(h) == seat]
    if not mine:
        return
    with st.expander(tr("gn.ui.pull_up_own")):
        key = f"po_{ctx.snapshot.seq}"
        st.selectbox(tr("gn.ui.horse"), options=mine,
                     format_func=lambda h: horse_label(state, h), key=key)  # fmt: skip

        def pull() -> PullUp:
            return PullUp(int(st.session_state.get(key, mine[0])))

        st.button(tr("gn.ui.pull_up_go"), key="pull_own_go", on_click=ctx.write_from(pull))
