"""Grand National's market on the table page: bets at the posted odds, the bookmaker's odds,
the referee's handicaps for the going, and the start."""

from __future__ import annotations

import streamlit as st

from aids.core.i18n import t
from aids.games.base import Role
from aids.games.grand_national import engine
from aids.games.grand_national.data import Odds, load
from aids.games.grand_national.describe import horse_label, money, stable_label
from aids.games.grand_national.model import (
    Bet,
    GnState,
    SetHandicap,
    SetOdds,
    Start,
)
from aids.ui.common import md_text, tr
from aids.ui.context import TableContext


def market(ctx: TableContext) -> None:
    """The market before the start: a bet at the posted odds (a player's own, or the
    referee's for a stable), the bookmaker's odds, the referee's handicaps and the start."""
    state: GnState = ctx.state
    seq = ctx.snapshot.seq
    role = ctx.role
    horses = list(range(state.horses))

    def name(h: int) -> str:
        return horse_label(state, h)

    if role.is_referee or role.seat is not None:
        seats = list(range(state.seats)) if role.is_referee else [role.seat or 0]
        with st.container(border=True, key="bet_box"):
            st.markdown(f"**{md_text(tr('gn.ui.bet_title'))}**")
            who = st.selectbox(
                tr("gn.ui.stable"),
                options=seats,
                format_func=lambda s: stable_label(state, s),
                key=f"ws_{seq}",
            )
            horse = st.selectbox(
                tr("gn.ui.horse"), options=horses, format_func=name, key=f"wh_{seq}"
            )
            win, show = state.odds[horse]
            kind = st.segmented_control(
                tr("gn.ui.kind"),
                options=["win", "show"],
                default="win",
                key=f"wk_{seq}",
                format_func=lambda k: (
                    f"{t(f'gn.kind.{k}', ctx.lang)} {(win if k == 'win' else show).text()}"
                ),
            )
            # the referee's limit never hints at a sealed blind stake
            own = role == Role.seat_of(who)
            cap = max(0, engine.available(state, who) if own else engine.entry_limit(state, who))
            st.number_input(
                tr("gn.ui.stake_cash", cash=money(cap)),
                min_value=0,
                max_value=cap,
                value=min(1000, cap),
                step=500,
                key=f"wa_{seq}",
            )

            def bet() -> Bet | None:
                stake = int(st.session_state.get(f"wa_{seq}") or 0)
                if stake <= 0:
                    return None
                picked = st.session_state.get(f"wk_{seq}") or kind
                return Bet(
                    int(st.session_state.get(f"ws_{seq}", who)),
                    int(st.session_state.get(f"wh_{seq}", horse)),
                    "show" if picked == "show" else "win",
                    stake,
                )

            st.button(
                tr("gn.ui.bet_go"), key="bet_go", type="primary", on_click=ctx.write_from(bet)
            )
    if role.is_referee or role.seat == state.setup.bookmaker:
        with st.expander(tr("gn.ui.odds_title")):
            horse = st.selectbox(
                tr("gn.ui.horse"), options=horses, format_func=name, key=f"oh_{seq}"
            )
            win, show = state.odds[horse]
            cols = st.columns(4)
            for col, field, value in zip(
                cols,
                ("win_n", "win_d", "show_n", "show_d"),
                (win.num, win.den, show.num, show.den),
                strict=True,
            ):
                col.number_input(
                    tr(f"gn.ui.{field}"),
                    min_value=1,
                    max_value=1000 if field.endswith("_n") else 100,
                    value=value,
                    key=f"o{field}_{seq}_{horse}",
                )

            def odds() -> SetOdds:
                get = st.session_state.get
                h = int(get(f"oh_{seq}", horse))

                def part(field: str, value: int) -> int:
                    return int(get(f"o{field}_{seq}_{h}") or value)

                w, s = state.odds[h]
                return SetOdds(
                    h,
                    Odds(part("win_n", w.num), part("win_d", w.den)),
                    Odds(part("show_n", s.num), part("show_d", s.den)),
                )

            st.button(tr("gn.ui.odds_go"), key="odds_go", on_click=ctx.write_from(odds))
    if role.is_referee:
        with st.expander(tr("gn.ui.handicap_title")):
            st.caption(tr("gn.rulings.handicap_entered"))
            horse = st.selectbox(
                tr("gn.ui.horse"), options=horses, format_func=name, key=f"hh_{seq}"
            )
            low, high = load().handicap
            st.number_input(
                tr("gn.ui.handicap"),
                min_value=low,
                max_value=high,
                value=state.handicap[horse],
                key=f"hm_{seq}_{horse}",
            )

            def mark() -> SetHandicap:
                h = int(st.session_state.get(f"hh_{seq}", horse))
                return SetHandicap(h, int(st.session_state.get(f"hm_{seq}_{h}", state.handicap[h])))

            st.button(tr("gn.ui.handicap_go"), key="handicap_go", on_click=ctx.write_from(mark))
        st.button(tr("gn.ui.start_go"), key="start_go", type="primary", on_click=ctx.write(Start()))
