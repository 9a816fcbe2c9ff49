"""Grand National's race on the table page: the card a horse must draw (said while it still
matters, its effect aimed at that horse), then the horse to move — one tap on the lengths it
runs, in a tab per lane (the engine's landings on the tracker's squares; a tab opens in the
browser, no tap waits for the server) — or the spinner; any card's effect and pulling up.

The page asks ``lanes`` what a horse can reach and why a move is off the squares, ``draws``
which card is due, ``engine`` whose turn it is and whom an advance moves; it derives no rule.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from aids.core.errors import InvalidAction
from aids.games.base import REFEREE
from aids.games.grand_national import draws, engine, lanes
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import horse_label
from aids.games.grand_national.model import Boxed, Card, GnState, Move, PullUp
from aids.ui.common import md_tr, tr
from aids.ui.context import TableContext
from aids.ui.gn.market import checked

VALUED = ("advance", "penalty", "handicap", "speed")  # effects that take N
PLAIN = ("fall", "withdraw", "second_wind", "lose_turn")


def race(ctx: TableContext, spin: Callable[[], None]) -> None:
    """Two horses on one square flagged; the card due (with its effect's form); the spinner or
    the horse to move; any other card's effect."""
    state: GnState = ctx.state
    shared = lanes.shared_squares(state)
    if shared:
        spots = [
            tr("gn.ui.shared_spot", distance=state.distance[g[0]], lane=state.lane[g[0]],
               horses=" · ".join(horse_label(state, h) for h in g))
            for g in shared
        ]  # fmt: skip
        st.warning(md_tr("gn.ui.shared_square", spots="; ".join(spots)))
    draw = _draw_due(ctx)
    if draw is not None:
        _cards(ctx, draw)
    if engine.needs_spin(state):
        spin()
    else:
        _move(ctx)
    if draw is None:
        _cards(ctx, None)


def _draw_due(ctx: TableContext) -> draws.Draw | None:
    latest = ctx.latest
    history = ctx.snapshot.history
    if latest is None or latest.action is None or len(history) < 2:
        return None
    return draws.card_due(history[-2], latest.action, ctx.state)


# --- the horse to move ---------------------------------------------------------------------------


def _move(ctx: TableContext) -> None:
    state: GnState = ctx.state
    seq = ctx.snapshot.seq
    horse = engine.next_horse(state)
    if horse is None:
        return
    handicap, left = state.handicap[horse], state.speed_left(horse)
    offers = lanes.landings(state, horse)
    here, count = state.lane[horse], state.setup.track.lanes
    cap = tr(f"gn.caps.{load().caps[horse % load().horses]}")
    with st.container(border=True, key="move_box"):
        st.markdown(f"**{md_tr('gn.ui.move_title', horse=horse_label(state, horse), cap=cap)}**")
        hint = tr("gn.ui.move_hint", handicap=handicap, left=left, low=handicap + 1,
                  high=handicap + min(load().speed[1], left))  # fmt: skip
        if offers and offers[0].blocked:
            hint = f"{hint} {tr('gn.ui.blocked_all')}"
        st.caption(hint)
        labels = [
            tr("gn.ui.lane_tab_now" if lane == here else "gn.ui.lane_tab", lane=lane)
            for lane in range(1, count + 1)
        ]
        # open on its own lane, or the nearest lane with a free square
        lanes_free = sorted({x.lane for x in offers}, key=lambda lane: (abs(lane - here), lane))
        first = lanes_free[0] if lanes_free and here not in lanes_free else here
        tabs = st.tabs(labels, default=labels[first - 1], key=f"mt_{seq}")
        speed_legal = [
            a
            for a in engine.legal_actions(state, REFEREE)
            if isinstance(a, Move) and a.horse == horse
        ]
        for lane, tab in zip(range(1, count + 1), tabs, strict=True):
            with tab:
                _lane_row(ctx, horse, lane, [x for x in offers if x.lane == lane], speed_legal)
        row = st.container(horizontal=True)
        row.button(
            tr("gn.ui.boxed_go"),
            key="boxed_go",
            type="secondary" if offers else "primary",
            on_click=ctx.write(Boxed(horse)),
        )
    _typed_move(ctx, horse)


def _lane_row(
    ctx: TableContext,
    horse: int,
    lane: int,
    offers: list[lanes.Landing],
    speed_legal: list[Move],
) -> None:
    """One lane's lengths as buttons (a tap records the move), and what is not offered, why."""
    state: GnState = ctx.state
    seq = ctx.snapshot.seq
    track = state.setup.track
    if offers:
        row = st.container(horizontal=True, key=f"mv_{seq}_{lane}", gap="xsmall")
        for x in offers:
            to = state.distance[horse] + x.forward
            row.button(
                str(x.lengths),
                key=f"mv_{seq}_{lane}_{x.forward}",
                on_click=ctx.write(x.move(horse)),
                help=tr("gn.ui.lands_at", distance=to, lap=track.lap_of(to), lane=lane),
            )
        first = state.distance[horse] + offers[0].forward
        last = state.distance[horse] + offers[-1].forward
        st.caption(tr("gn.ui.lands_range", low=first, high=last, lane=lane))
    else:
        st.caption(tr("gn.ui.lane_none", lane=lane))
    offered = {(x.forward, x.lane) for x in offers}
    spans: list[tuple[int, int, str]] = []  # (first, last lengths, reason)
    for move in sorted((m for m in speed_legal if m.lane == lane), key=lambda m: m.forward):
        if (move.forward, move.lane) in offered:
            continue
        problem = lanes.problem(state, horse, move.forward, move.lane)
        if problem is None:
            continue  # free but short of a full move elsewhere: the blocked list says so
        reason = _reason(state, problem)
        length = move.forward + abs(lane - state.lane[horse])
        if spans and spans[-1][2] == reason and spans[-1][1] == length - 1:
            spans[-1] = (spans[-1][0], length, reason)
        else:
            spans.append((length, length, reason))
    if spans:
        words = " · ".join(f"{a if a == b else f'{a}–{b}'}: {reason}" for a, b, reason in spans)
        st.caption(md_tr("gn.ui.not_offered", spans=words))


def _reason(state: GnState, problem: lanes.Problem) -> str:
    if problem.by is None:
        return tr(f"gn.squares.{problem.code}_none")
    return tr(f"gn.squares.{problem.code}", horse=horse_label(state, problem.by))


def _typed_move(ctx: TableContext, horse: int) -> None:
    """A move the squares do not offer (the board on the table is the truth): typed, with the
    tracker's warning shown before it is recorded."""
    state: GnState = ctx.state
    seq = ctx.snapshot.seq
    with st.expander(tr("gn.ui.move_other")):
        fwd_col, lane_col = st.columns(2)
        forward = fwd_col.number_input(
            tr("gn.ui.forward"), min_value=0, max_value=40, value=None, key=f"mf_{seq}"
        )
        lane = lane_col.number_input(
            tr("gn.ui.lane"),
            min_value=1,
            max_value=state.setup.track.lanes,
            value=state.lane[horse],
            key=f"ml_{seq}",
        )
        st.checkbox(tr("gn.ui.blocked"), key=f"mb_{seq}")
        if forward is not None and lane is not None:
            problem = lanes.problem(state, horse, int(forward), int(lane))
            if problem is not None:
                st.warning(md_tr("gn.ui.off_squares", reason=_reason(state, problem)))

        def move() -> Move:
            get = st.session_state.get
            typed = get(f"mf_{seq}")
            if typed is None:
                raise InvalidAction("gn/choose", what=tr("gn.ui.forward"))
            return Move(horse, int(typed), int(get(f"ml_{seq}") or 1), bool(get(f"mb_{seq}")))

        st.button(tr("gn.ui.move_go"), key="move_go", on_click=checked(ctx, move))


# --- cards ---------------------------------------------------------------------------------------


def _cards(ctx: TableContext, draw: draws.Draw | None) -> None:
    """A card's effect: open under the note when a horse must draw (aimed at it), else folded
    away (aimed at the horse that moved last). Every field stays in the browser until the
    effect's button: a plain effect is one tap, one with N is N and a tap."""
    state: GnState = ctx.state
    seq = ctx.snapshot.seq
    runners = engine.race_order(state)
    if not runners:
        return
    default = draw.horse if draw is not None else _last_mover(ctx)
    if default not in runners:
        default = runners[0]
    box = (
        st.container(border=True, key="draw_box")
        if draw is not None
        else st.expander(tr("gn.ui.card_title"))
    )
    with box:
        if draw is not None:
            deck = tr(f"gn.deck.{draw.deck}")
            note = md_tr("gn.ui.draw_card", horse=horse_label(state, draw.horse), deck=deck)
            st.markdown(f"**{note}**")
        # the horse and the card's numbers on one row; a card that is due is the drawing
        # horse's (the note names it), so its numbers alone: one row on a phone too
        fields = st.container(horizontal=True, key=f"card_fields_{seq}", gap="xsmall")
        if draw is None or draw.horse not in runners:
            fields.selectbox(
                tr("gn.ui.card_horse"),
                options=runners,
                index=runners.index(default),
                format_func=lambda h: horse_label(state, h),
                key=f"ch_{seq}",
                on_change="ignore",
                width=190,
            )
        fields.number_input(
            tr("gn.ui.value"), min_value=-20, max_value=20, value=None, key=f"cv_{seq}",
            on_change="ignore", width=94,
        )  # fmt: skip
        fields.number_input(
            tr("gn.ui.lane_after"), min_value=1, max_value=state.setup.track.lanes,
            value=None, key=f"cl_{seq}", on_change="ignore", width=94,
        )  # fmt: skip
        fields.number_input(
            tr("gn.ui.moved_short"), min_value=0, max_value=20, value=None, key=f"cm_{seq}",
            on_change="ignore", width=94,
        )  # fmt: skip
        target = engine.advance_target(state, default)
        notes = []
        if target is not None and target != default:
            notes.append(md_tr("gn.ui.advance_instead", horse=horse_label(state, target)))
        if target is not None:
            room = lanes.advance_room(state, target, 20)
            if room < 20:
                notes.append(
                    md_tr("gn.ui.advance_room", horse=horse_label(state, target), room=room)
                )
        if notes:
            st.caption(" ".join(notes))
        valued = st.container(horizontal=True, key=f"cards_n_{seq}", gap="xsmall")
        for effect in VALUED:
            valued.button(
                tr(f"gn.ui.card_{effect}"),
                key=f"card_{effect}",
                on_click=checked(ctx, _card(ctx, effect, default)),
            )
        plain = st.container(horizontal=True, key=f"cards_plain_{seq}", gap="xsmall")
        for effect in PLAIN:
            plain.button(
                tr(f"gn.ui.card_{effect}"),
                key=f"card_{effect}",
                on_click=checked(ctx, _card(ctx, effect, default)),
            )
        plain.button(
            tr("gn.ui.pull_up_go"),
            key="pull_go",
            on_click=ctx.write_from(
                lambda: PullUp(int(st.session_state.get(f"ch_{seq}", default)))
            ),
        )


def _card(ctx: TableContext, effect: str, default: int) -> Callable[[], Card]:
    """The effect on the chosen horse, built when its button is tapped. An advance the
    squares stop short (``lanes.advance_room``) is recorded as blocked there, unless the
    referee typed how far it went."""
    state: GnState = ctx.state
    seq = ctx.snapshot.seq

    def build() -> Card:
        get = st.session_state.get
        horse = int(get(f"ch_{seq}", default))
        if effect not in VALUED:
            return Card(horse, effect)
        value = get(f"cv_{seq}")
        if value is None:
            raise InvalidAction("gn/choose", what=tr("gn.ui.value"))
        if effect != "advance":
            return Card(horse, effect, int(value))
        lane, moved = get(f"cl_{seq}"), get(f"cm_{seq}")
        lane = None if lane is None else int(lane)
        target = engine.advance_target(state, horse)
        if moved is None and target is not None and value > 0:
            room = lanes.advance_room(state, target, int(value), lane)
            moved = room if room < value else None
        return Card(horse, effect, int(value), lane, None if moved is None else int(moved))

    return build


def _last_mover(ctx: TableContext) -> int | None:
    latest = ctx.latest
    action = latest.action if latest is not None else None
    return action.horse if isinstance(action, Move | Boxed | Card) else None


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
