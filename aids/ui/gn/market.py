"""Grand National's market on the table page: bets at the posted odds, the bookmaker's odds,
the referee's handicaps for the going, and the start."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from aids.core.errors import InvalidAction
from aids.core.i18n import t
from aids.games.grand_national import stakes
from aids.games.grand_national.data import Odds, load
from aids.games.grand_national.describe import horse_label, money, stable_label
from aids.games.grand_national.model import (
    Bet,
    GnState,
    Kind,
    SetHandicap,
    SetOdds,
    Start,
)
from aids.ui.common import md_text, md_tr, run_write, service, tr
from aids.ui.context import TableContext

QUICK_STAKES = (500, 1000, 2000, 5000, 10000, 20000, 50000)  # a tap each, up to the limit


def checked(ctx: TableContext, build: Callable[[], Any]) -> Callable[[], None]:
    """Like ``ctx.write_from``, for a build that may itself refuse (``gn/choose``: a choice
    not made yet): its message shows as a refused write's does, and nothing is written."""
    pid, key, seq = ctx.snapshot.info.public_id, ctx.key, ctx.snapshot.seq
    return lambda: run_write(lambda: service().record(pid, key, seq, build()))


def stake_choice(most: int, key: str) -> None:
    """A stake in one tap (round amounts up to ``most``, the engine's limit) or typed; both
    stay in the browser until the bet's button (no tap waits for the server)."""
    amounts = [a for a in QUICK_STAKES if a <= most]
    st.pills(
        tr("gn.ui.stake_most", most=money(most)),
        options=amounts,
        format_func=money,
        key=key,
        on_change="ignore",
        wrap=True,
    )
    st.number_input(
        tr("gn.ui.stake_other"),
        min_value=1,
        max_value=max(1, most),
        value=None,
        step=500,
        key=f"{key}_other",
        on_change="ignore",
        width=160,
    )


def stake_of(key: str) -> int | None:
    """The stake chosen with ``stake_choice``: a typed amount over a tapped one."""
    other = st.session_state.get(f"{key}_other")
    picked = st.session_state.get(key)
    value = other if other is not None else picked
    return None if value is None else int(value)


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
            # every choice stays in the browser until "Take the bet": no tap waits
            if len(seats) > 1:
                st.segmented_control(
                    tr("gn.ui.stable"),
                    options=seats,
                    format_func=lambda s: md_text(stable_label(state, s)),
                    key=f"ws_{seq}",
                    on_change="ignore",
                )
            limits = {s: stakes.bet_most(state, s, role) for s in seats}
            st.caption(
                md_tr(
                    "gn.ui.available",
                    cash=" · ".join(f"{stable_label(state, s)} {money(limits[s])}" for s in seats),
                )
            )

            def priced(h: int) -> str:
                win, show = state.odds[h]
                return t("gn.ui.horse_odds", ctx.lang, horse=name(h), win=win.text(),
                         show=show.text())  # fmt: skip

            st.selectbox(
                tr("gn.ui.horse"),
                options=horses,
                index=None,
                placeholder=tr("gn.ui.choose_horse"),
                format_func=priced,
                key=f"wh_{seq}",
                on_change="ignore",
            )
            st.segmented_control(
                tr("gn.ui.kind"),
                options=["win", "show"],
                default="win",
                required=True,
                key=f"wk_{seq}",
                format_func=lambda k: t(f"gn.kind.{k}", ctx.lang),
                on_change="ignore",
            )
            stake_choice(max(limits.values()), f"wa_{seq}")

            def bet() -> Bet:
                get = st.session_state.get
                who = seats[0] if len(seats) == 1 else get(f"ws_{seq}")
                horse, stake = get(f"wh_{seq}"), stake_of(f"wa_{seq}")
                if who is None:
                    raise InvalidAction("gn/choose", what=tr("gn.ui.stable"))
                if horse is None:
                    raise InvalidAction("gn/choose", what=tr("gn.ui.horse"))
                if stake is None:
                    raise InvalidAction("gn/choose", what=tr("gn.ui.stake"))
                kind: Kind = "show" if get(f"wk_{seq}") == "show" else "win"
                return Bet(int(who), int(horse), kind, stake)

            st.button(tr("gn.ui.bet_go"), key="bet_go", type="primary", on_click=checked(ctx, bet))
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
