"""Grand National's parts of the table page: the new-table fields (``setup``), status,
and the record controls of each stage (blind bets on a player's own phone, the going, the
lane spins, the market, the race).

The frame (``aids.ui.frame``) draws everything else; the board is ``board``. The page asks
the engine whose turn it is, which horse an advance card moves and what each stable may stake;
it never re-derives a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from aids.core.errors import InvalidAction
from aids.core.i18n import t
from aids.games.base import Role
from aids.games.grand_national import engine, stakes
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import horse_label, money, stable_label
from aids.games.grand_national.model import (
    SEALED,
    BlindBet,
    GnState,
    Going,
    Kind,
    LaneSpin,
    Spin,
)
from aids.ui.common import html_text, md_text, md_tr, tr
from aids.ui.context import Standings, StatusLine, TableContext
from aids.ui.gn import board as gn_board
from aids.ui.gn import market as gn_market
from aids.ui.gn import race as gn_race
from aids.ui.gn.market import checked
from aids.ui.gn.setup import setup_before_form as setup_before_form  # the new-table form's
from aids.ui.gn.setup import setup_fields as setup_fields
from aids.ui.standings import NUM, Row

# --- status ----------------------------------------------------------------------------------


def status(ctx: TableContext) -> list[StatusLine]:
    state: GnState = ctx.state
    outcome = ctx.snapshot.outcome
    if outcome is not None:  # tied stables share the first place
        winner = " · ".join(stable_label(state, s) for s in outcome.winners)
        cash = money(outcome.scores[outcome.winners[0]])
        return [StatusLine(tr("gn.ui.over", winner=winner, cash=cash), True)]
    if state.phase == "blind_bets":
        done = " · ".join(
            f"{stable_label(state, s)} {'✓' if b is not None else '…'}"
            for s, b in enumerate(state.blind)
        )
        text = f"{tr('gn.ui.phase_blind')} — {done}"
    elif state.phase == "going":
        text = tr("gn.ui.phase_going")
    elif state.phase == "lanes":
        text = tr("gn.ui.phase_lanes", lane=len(state.lanes) + 1)
    elif state.phase == "market":
        text = tr("gn.ui.phase_market", going=tr(f"gn.going.{state.going}"), top=state.top())
    elif engine.needs_spin(state):
        text = tr("gn.ui.phase_spin", round=state.round, cap=tr(f"gn.caps.{_cap(state)}"))
    else:
        horse = engine.next_horse(state)
        who = horse_label(state, horse) if horse is not None else "—"
        text = tr("gn.ui.phase_race", round=state.round, horse=who)
    return [StatusLine(text)]


def _cap(state: GnState) -> str:
    return load().caps[state.cap]


# --- standings -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """A stable's line: its place (tied stables share one), its cash now, and in the race its
    best horse (None: none placed or running), that horse's place in the race (placed horses
    first, by their place) and its lengths behind the leading runner (clear of the second,
    for the leader itself)."""

    place: int
    seat: int
    cash: int
    horse: int | None = None
    position: int | None = None
    lengths: int = 0


def leaders(state: GnState) -> list[Standing]:
    """Who leads. The game is won on money (the most after the prizes and the bets), so
    before the race the stables rank by their cash. Once the race is on, the prizes
    ($250,000 for 1st, then $100,000, $50,000, $30,000) dwarf what the horses cost, so a
    stable ranks by its best horse (placed ones first by place, then the runners in race
    order, as ``engine.race_order`` gives them), then by cash; tied stables (no horse left in
    the race and the same cash) share a place. Public facts only: a sealed blind stake is
    not on the ledger, so no reader learns one from the order."""
    cash = [engine.cash(state, s) for s in range(state.seats)]
    best: dict[int, tuple[int, int, int]] = {}  # seat → (position, horse, lengths)
    if state.phase in ("race", "over"):
        runners = engine.race_order(state)
        field = [*state.placed, *runners]
        for i, h in enumerate(field):
            seat = state.owner(h)
            if seat in best:
                continue
            lengths = 0
            if h in runners:
                at = runners.index(h)
                if at == 0 and len(runners) > 1:
                    lengths = state.distance[h] - state.distance[runners[1]]
                elif at > 0:
                    lengths = state.distance[runners[0]] - state.distance[h]
            best[seat] = (i + 1, h, lengths)
    none = state.horses + 1  # after every horse in the race

    def key(seat: int) -> tuple[int, int]:
        return (best[seat][0] if seat in best else none, -cash[seat])

    seats = sorted(range(state.seats), key=lambda s: (key(s), s))
    out = []
    for seat in seats:
        place = 1 + sum(1 for other in seats if key(other) < key(seat))
        position, horse, lengths = best.get(seat, (None, None, 0))
        out.append(Standing(place, seat, cash[seat], horse, position, lengths))
    return out


def standings(ctx: TableContext) -> Standings:
    """Who leads (``leaders``): each stable's colour and name, its cash, and once the race
    is on its best horse with its place and lengths; the reader's own stable marked."""
    state: GnState = ctx.state
    racing = state.phase in ("race", "over")
    head = [tr("gn.ui.st_stable"), tr("gn.ui.st_cash")]
    if racing:
        head += [tr("gn.ui.st_horse"), tr("gn.ui.st_position")]
    rows = []
    for line in leaders(state):
        cells = [html_text(stable_label(state, line.seat)), NUM + html_text(money(line.cash))]
        if racing:
            if line.horse is None:
                cells += ["—", "—"]
            else:
                name = state.setup.horse(line.horse).name
                cells += [f"{gn_board.disc_html(state, line.horse)} {html_text(name)}",
                          html_text(_position(state, line))]  # fmt: skip
        rows.append(Row(line.place, line.seat, tuple(cells)))
    return Standings(tuple(head), tuple(rows))


def _position(state: GnState, line: Standing) -> str:
    assert line.horse is not None and line.position is not None
    if line.horse in state.placed:
        return tr("gn.ui.placed", place=line.position)
    if not line.lengths:
        return tr("gn.ui.st_at", n=line.position)
    key = "gn.ui.st_clear" if line.position == len(state.placed) + 1 else "gn.ui.st_behind"
    return tr(key, n=line.position, lengths=line.lengths)


# --- record controls -------------------------------------------------------------------------


def controls(ctx: TableContext) -> None:
    state: GnState = ctx.state
    if ctx.snapshot.outcome is not None or ctx.role.is_viewer:
        return
    if state.phase == "blind_bets":
        _blind(ctx)
    elif not ctx.role.is_referee and state.phase != "market":
        st.caption(tr("gn.ui.referee_records"))
        if state.phase == "race" and ctx.role.seat is not None:
            gn_race.pull_up_own(ctx, ctx.role.seat)
    elif state.phase == "going":
        _chance(
            ctx,
            "going",
            list(load().goings),
            lambda g: t(f"gn.going.{g}", ctx.lang),
            lambda g: Going(g),
            tr("gn.ui.record_going"),
        )
    elif state.phase == "lanes":
        lane = len(state.lanes) + 1
        _chance(
            ctx,
            f"lane{lane}",
            _colours(state),
            lambda c: _colour(c, ctx.lang),
            lambda c: LaneSpin(lane, c),
            tr("gn.ui.record_lane", lane=lane),
        )
    elif state.phase == "market":
        gn_market.market(ctx)
    else:
        gn_race.race(ctx, spin=lambda: _spin(ctx))


def _spin(ctx: TableContext) -> None:
    state: GnState = ctx.state
    _chance(
        ctx,
        "spin",
        _colours(state),
        lambda c: _colour(c, ctx.lang),
        lambda c: Spin(c),
        tr("gn.ui.record_spin", cap=tr(f"gn.caps.{_cap(state)}")),
    )


def _colours(state: GnState) -> list[str]:
    return [s.colour for s in state.setup.stables]


def _colour(key: str, lang: str) -> str:
    found = load().colour(key)
    return found.label(lang) if found else key


def _chance(
    ctx: TableContext, name: str, options: list[str], label: Any, build: Any, title: str
) -> None:
    """The spinner: one tap on what it shows records it (Undo takes a slip back)."""
    with st.container(border=True, key="chance_box"):
        st.markdown(f"**{md_text(title)}**")
        row = st.container(horizontal=True, key=f"{name}_{ctx.snapshot.seq}")
        for option in options:
            row.button(
                md_text(label(option)),
                key=f"{name}_{ctx.snapshot.seq}_{option}",
                on_click=ctx.write(build(option)),
            )


def _blind(ctx: TableContext) -> None:
    state: GnState = ctx.state
    seat = ctx.role.seat
    if ctx.role.is_referee or seat is None:
        _blind_referee(ctx)
        return
    mine = state.blind[seat]
    if mine is not None and mine is not SEALED:
        what = (
            tr("gn.ui.blind_none")
            if not mine.stake or mine.horse is None
            else md_tr(
                "gn.ui.blind_mine",
                horse=horse_label(state, mine.horse),
                kind=tr(f"gn.kind.{mine.kind}"),
                stake=money(mine.stake),
            )
        )
        st.success(what)
        return
    seq = ctx.snapshot.seq
    with st.container(border=True, key="blind_box"):
        st.markdown(f"**{md_text(tr('gn.ui.blind_title'))}**")
        st.caption(tr("gn.ui.blind_hint", most=money(stakes.blind_most(state, seat))))
        # every choice stays in the browser until the seal: no tap waits for the server
        st.selectbox(
            tr("gn.ui.horse"),
            options=list(range(state.horses)),
            index=None,
            placeholder=tr("gn.ui.choose_horse"),
            format_func=lambda h: horse_label(state, h),
            key=f"bh_{seq}",
            on_change="ignore",
        )
        st.segmented_control(
            tr("gn.ui.kind"),
            options=["win", "show"],
            default="win",
            required=True,
            format_func=lambda k: t(f"gn.kind.{k}", ctx.lang),
            key=f"bk_{seq}",
            on_change="ignore",
        )
        gn_market.stake_choice(stakes.blind_most(state, seat), f"bs_{seq}")

        def build() -> BlindBet:
            get = st.session_state.get
            stake = gn_market.stake_of(f"bs_{seq}")
            horse = get(f"bh_{seq}")
            if stake is None:
                raise InvalidAction("gn/choose", what=tr("gn.ui.stake"))
            if horse is None:
                raise InvalidAction("gn/choose", what=tr("gn.ui.horse"))
            kind: Kind = "show" if get(f"bk_{seq}") == "show" else "win"
            return BlindBet(seat, int(horse), kind, stake)

        row = st.container(horizontal=True)
        row.button(
            tr("gn.ui.blind_go"), key="blind_go", type="primary", on_click=checked(ctx, build)
        )
        row.button(
            tr("gn.ui.blind_none_go"),
            key="blind_none_go",
            on_click=ctx.write(BlindBet(seat, None, None, 0)),
        )


def _blind_referee(ctx: TableContext) -> None:
    """Blind bets are the players' own; the referee may record "no blind bet" for a stable
    whose player will not write one (the engine's ``may_act`` says so), never a bet."""
    state: GnState = ctx.state
    st.info(tr("gn.ui.blind_referee"))
    waiting = [
        s
        for s, b in enumerate(state.blind)
        if b is None and ctx.game.may_act(state, BlindBet(s, None, None, 0), ctx.role)
    ]
    if not waiting:
        return
    with st.container(border=True, key="blind_none_box"):
        st.caption(tr("gn.ui.blind_none_for_hint"))
        row = st.container(horizontal=True)
        for s in waiting:
            row.button(
                md_tr("gn.ui.blind_none_for", stable=stable_label(state, s)),
                key=f"blind_none_{s}",
                on_click=ctx.write(BlindBet(s, None, None, 0)),
            )


def board(ctx: TableContext) -> None:
    """The race, the stamina grids, the odds board and the money (``gn_board``)."""
    gn_board.board(ctx)


def board_top(ctx: TableContext) -> str:
    """The course (``gn_board.course_of``)."""
    return gn_board.course_of(ctx)


__all__ = [
    "Role",
    "board",
    "controls",
    "leaders",
    "setup_before_form",
    "setup_fields",
    "standings",
    "status",
]
