"""The Derby's parts of the table page: setup fields, status, record controls, board.

The frame (``aids.ui.frame``) draws everything else. Only legal choices are offered, from the
engine's legal-next helpers (never a limit re-derived here); a card play is three taps: horse,
card, confirm.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from aids.core.i18n import Lang, t
from aids.games.derby import engine
from aids.games.derby.data import load
from aids.games.derby.describe import card_label, horse_label, player_label
from aids.games.derby.model import Bet, Card, DerbyState, NoCardsLeft, Pass, PlayCard
from aids.ui.common import esc, tr
from aids.ui.frame import TableContext

# --- setup ---------------------------------------------------------------------------------


def setup_fields(lang: Lang) -> dict[str, Any]:
    """Players in seat order with counter colours; horses in row order (in an expander)."""
    data = load()

    def colour_name(key: str) -> str:
        colour = data.horse_colour(key) or data.counter_colour(key)
        return f"{colour.symbol} {colour.name(lang)}" if colour else key

    st.markdown(f"**{esc(t('derby.ui.players_seat_order', lang))}**")
    counter_keys = [c.key for c in data.counter_colours]
    players: list[dict[str, str]] = []
    for i in range(data.max_players):
        name_col, colour_col = st.columns([3, 2])
        name = name_col.text_input(
            t("table.player_n", lang, n=i + 1), key=f"new_player_{i}", max_chars=40
        )
        colour = colour_col.selectbox(
            t("derby.ui.counter_colour", lang),
            options=counter_keys,
            index=i,
            format_func=colour_name,
            key=f"new_player_colour_{i}",
        )
        if name.strip():
            players.append({"name": name, "colour": str(colour)})
    horses: list[dict[str, str]] = []
    with st.expander(t("derby.ui.horses_row_order", lang)):
        horse_keys = [c.key for c in data.horse_colours]
        for i, default in enumerate(data.horse_colours):
            colour_col, name_col = st.columns([2, 3])
            colour = colour_col.selectbox(
                t("derby.ui.row_n", lang, n=i + 1),
                options=horse_keys,
                index=i,
                format_func=colour_name,
                key=f"new_horse_colour_{i}",
            )
            name = name_col.text_input(
                t("derby.ui.horse_name", lang),
                value=default.name(lang),
                key=f"new_horse_name_{i}",
                max_chars=40,
            )
            horses.append({"name": name, "colour": str(colour)})
    return {"players": players, "horses": horses, "mode": "tracking"}


# --- status --------------------------------------------------------------------------------


def status(ctx: TableContext) -> None:
    state: DerbyState = ctx.state
    outcome = ctx.snapshot.outcome
    if outcome is not None:
        winners = ", ".join(player_label(state, p) for p in outcome.winners)
        finishers = ", ".join(horse_label(state, h) for h in engine.finishers(state))
        st.success(tr("derby.ui.race_over", finishers=finishers, winners=winners))
        return
    seat = state.turn
    st.info(
        tr(
            "derby.ui.status",
            fence=state.fence,
            fences=load().fences,
            player=player_label(state, seat),
            counters=state.counters_left(seat),
            pile=state.pile,
        )
    )


# --- record controls -----------------------------------------------------------------------


def controls(ctx: TableContext) -> None:
    state: DerbyState = ctx.state
    if ctx.snapshot.outcome is not None or not ctx.role.is_referee:
        return
    seq = ctx.snapshot.seq
    seat = state.turn
    bet_horses = engine.legal_bet_horses(state)
    if bet_horses:
        with st.container(border=True, key="bet_box"):
            choice = st.pills(
                tr("derby.ui.bet_label", player=player_label(state, seat), fence=state.fence),
                options=list(bet_horses),
                format_func=lambda h: horse_label(state, h),
                key=f"bet_horse_{seq}",
            )
            st.button(
                tr("derby.ui.place_counter"),
                key="bet_go",
                disabled=choice is None,
                on_click=ctx.write(Bet(seat, choice)) if choice is not None else None,
            )
    with st.container(border=True, key="play_box"):
        horse = st.pills(
            tr("derby.ui.play_label", player=player_label(state, seat)),
            options=list(engine.legal_play_horses(state)),
            format_func=lambda h: horse_label(state, h),
            key=f"play_horse_{seq}",
        )
        play: PlayCard | None = None
        if horse is not None:
            code = st.pills(
                tr("derby.ui.card_label"),
                options=[c.code() for c in engine.legal_cards(state, horse)],
                format_func=lambda c: card_label(Card.parse(c)),
                key=f"play_card_{seq}_{horse}",
            )
            if code is not None:
                play = PlayCard(seat, horse, Card.parse(code))
                discards = _discard_input(state, play, f"discards_{seq}")
                if discards:
                    play = PlayCard(seat, horse, play.card, discard_count=discards)
        st.button(
            tr("derby.ui.play_card"),
            key="play_go",
            type="primary",
            disabled=play is None,
            on_click=ctx.write(play) if play is not None else None,
        )
    if engine.can_pass(state):
        with st.container(border=True, key="pass_box"):
            discards = _discard_input(state, Pass(seat), f"pass_discards_{seq}")
            st.button(
                tr("derby.ui.pass"),
                key="pass_go",
                on_click=ctx.write(Pass(seat, discard_count=discards)),
            )
    if engine.can_declare_no_cards(state):
        with st.expander(tr("derby.ui.end_race")):
            st.caption(tr("derby.rulings.no_cards_left"))
            st.button(
                tr("derby.ui.no_cards_left"), key="no_cards_go", on_click=ctx.write(NoCardsLeft())
            )


def _discard_input(state: DerbyState, action: PlayCard | Pass, key: str) -> int:
    """How many cards of fallen horses were discarded, up to the engine's own limit."""
    limit = engine.discard_limit(state, action)
    if limit == 0:
        return 0
    value = st.number_input(
        tr("derby.ui.discard_count"), min_value=0, max_value=limit, value=0, step=1, key=key
    )
    return int(value)


# --- board and scores ----------------------------------------------------------------------

BOARD_CSS = """
<style>
.derby-wrap { overflow-x: auto; }
table.derby { border-collapse: collapse; font-size: 14px; width: 100%; min-width: 340px; }
table.derby th, table.derby td { border: 1px solid #c9ccd1; padding: 2px 3px;
  text-align: center; white-space: nowrap; }
table.derby th { background: #eef1f5; font-weight: 600; }
table.derby th.now { background: #ffe08a; }
table.derby td.name { text-align: left; max-width: 7.5em; overflow: hidden;
  text-overflow: ellipsis; }
table.derby td.slot { width: 1.3em; background: #fafafa; }
table.derby tr.fallen td { opacity: .45; }
table.derby tr.fallen td.name { text-decoration: line-through; }
.chip { display: inline-block; min-width: 1.4em; border-radius: 4px; color: #fff;
  font-weight: 700; padding: 0 2px; }
.chip.light { color: #222; }
.under { font-size: 11px; color: #666; }
.dot { font-size: 17px; line-height: 1; }
@media (max-width: 480px) { table.derby { font-size: 12px; } }
</style>
"""


def board(ctx: TableContext) -> None:
    state: DerbyState = ctx.state
    _board(state, ended=ctx.snapshot.outcome is not None)
    _scores(ctx)


def _board(state: DerbyState, *, ended: bool) -> None:
    data = load()
    show_stacks = st.toggle(tr("derby.ui.show_stacks"), key="show_stacks")
    head = ["<th>#</th>", f"<th>{esc(tr('derby.ui.horse'))}</th>"]
    for fence in range(1, data.fences + 1):
        now = ' class="now"' if fence == state.fence and not ended else ""
        if fence in data.payout:
            points = esc(tr("derby.ui.slot_short", points=data.payout[fence]))
            head.append(f"<th{now}>{points}</th>")
        head.append(f"<th{now}>{esc(tr('derby.ui.fence_short', n=fence))}</th>")
    rows = []
    for row, horse in enumerate(state.setup.horses):
        fell = state.fallen[row]
        colour = data.horse_colour(horse.colour)
        hex_ = colour.hex if colour else "#999"
        mark = f" ✕{fell}" if fell else (" 🏁" if ended else "")
        cells = [
            f"<td>{row + 1}</td>",
            f'<td class="name"><span style="color:{hex_}">■</span> {esc(horse.name)}{mark}</td>',
        ]
        for fence in range(1, data.fences + 1):
            if fence in data.payout:
                cells.append(f'<td class="slot">{_slot(state, row, fence)}</td>')
            cells.append(f"<td>{_stack(state.columns[fence - 1][row], show_stacks)}</td>")
        rows.append(f'<tr class="{"fallen" if fell else ""}">{"".join(cells)}</tr>')
    st.html(
        f'{BOARD_CSS}<div class="derby-wrap"><table class="derby">'
        f"<tr>{''.join(head)}</tr>{''.join(rows)}</table></div>"
    )


def _slot(state: DerbyState, row: int, fence: int) -> str:
    data = load()
    for counter in state.counters:
        if counter.horse == row and counter.fence == fence:
            player = state.setup.players[counter.player]
            colour = data.counter_colour(player.colour)
            hex_ = colour.hex if colour else "#999"
            return f'<span class="dot" style="color:{hex_}" title="{esc(player.name)}">●</span>'
    return ""


def _stack(stack: tuple[Card, ...], show_all: bool) -> str:
    if not stack:
        return ""
    data = load()

    def chip(card: Card) -> str:
        colour = data.card_colour(card.colour)
        hex_ = colour.hex if colour else "#222"
        light = " light" if card.colour in ("yellow", "white") else ""
        return f'<span class="chip{light}" style="background:{hex_}">{card.value}</span>'

    top = chip(stack[-1])
    if len(stack) == 1:
        return top
    if show_all:
        return " ".join(chip(c) for c in stack[:-1]) + " › " + top
    return f'{top}<span class="under"> +{len(stack) - 1}</span>'


def _scores(ctx: TableContext) -> None:
    state: DerbyState = ctx.state
    outcome = ctx.snapshot.outcome
    totals = engine.scores(state)
    best = outcome.winners if outcome else ()
    label = tr("derby.ui.scores_final") if outcome else tr("derby.ui.scores_if_now")
    items = []
    for seat in range(len(state.setup.players)):
        crown = " 🏆" if seat in best else ""
        items.append(
            f"<li>{esc(player_label(state, seat))}: <b>{totals[seat]}</b>{crown}"
            f" · {esc(tr('derby.ui.counters_left', n=state.counters_left(seat)))}</li>"
        )
    st.html(f"<p><b>{esc(label)}</b></p><ul>{''.join(items)}</ul>")
