"""The Derby's parts of the table page: setup fields, status, record controls, standings,
board.

The frame (``aids.ui.frame``) draws everything else. Only legal choices are offered, from the
engine's legal-next helpers (never a limit re-derived here); a card play is three taps: horse,
card, confirm. The controls hold still: horses and cards sit on fixed grids, each confirm
button is at the top of its box, and the bet box keeps its height once the counter is placed.
The whole turn (bet, horse, card, discard count, record buttons) fits a phone's first screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import streamlit as st

from aids.core.i18n import Lang, t
from aids.games.derby import describe, engine
from aids.games.derby.data import load
from aids.games.derby.describe import card_label, horse_label, player_label
from aids.games.derby.model import Bet, Card, DerbyState, NoCardsLeft, Pass, PlayCard
from aids.ui import layout
from aids.ui.common import badge, html_text, lang, md_text, tr
from aids.ui.context import Standings, StatusLine, TableContext
from aids.ui.layout import cell, names_with_colours
from aids.ui.standings import NUM, Row

HORSE_COLUMNS = 4  # horses on a 4 × 2 grid, each in its row's cell (2 × 4 in a narrow box)
NARROW_HORSES = "17rem"  # under this a horse's name no longer fits a quarter of the box

# The whole turn on a phone's first screen (issue 19): the boxes' rows closer together, the
# discard count's words beside its field, the horses' pills in a smaller type.
CONTROLS_CSS = """<style>
.st-key-bet_box, .st-key-play_box { gap: .5rem; padding: .75rem; }
[class*="st-key-discards_"] [data-testid="stNumberInput"] { display: flex; align-items: center;
  gap: .5rem; }
[class*="st-key-discards_"] [data-testid="stWidgetLabel"] { flex: 1 1 0; margin: 0;
  min-height: 0; }
[class*="st-key-discards_"] [data-testid="stWidgetLabel"] p { font-size: 13px;
  line-height: 1.3; }
[class*="st-key-discards_"] .react-aria-TextField { flex: 0 0 7.5rem; }
</style>"""

# --- setup ---------------------------------------------------------------------------------


def setup_fields(lang: Lang) -> dict[str, Any]:
    """Players in seat order with counter colours; horses in row order (in an expander)."""
    data = load()

    def colour_name(key: str) -> str:
        colour = data.horse_colour(key)
        return colour.label(lang) if colour else key

    st.markdown(f"**{md_text(t('derby.ui.players_seat_order', lang))}**")
    players = names_with_colours(
        data.max_players,
        data.counter_colours,
        name_label=lambda n: t("table.player_n", lang, n=n),
        colour_label=t("derby.ui.counter_colour", lang),
        key="new_player",
        lang=lang,
    )
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


def status(ctx: TableContext) -> list[StatusLine]:
    state: DerbyState = ctx.state
    outcome = ctx.snapshot.outcome
    if outcome is not None:
        winners = ", ".join(player_label(state, p) for p in outcome.winners)
        finishers = ", ".join(horse_label(state, h) for h in engine.finishers(state))
        return [StatusLine(tr("derby.ui.race_over", finishers=finishers, winners=winners), True)]
    seat = state.turn
    pile = "derby.ui.pile_exact" if engine.pile_exact(state) else "derby.ui.pile_at_most"
    return [
        StatusLine(
            tr(
                "derby.ui.status",
                fence=state.fence,
                fences=load().fences,
                player=player_label(state, seat),
                counters=state.counters_left(seat),
                pile=tr(pile, pile=state.pile),
            )
        )
    ]


# --- record controls -----------------------------------------------------------------------


def controls(ctx: TableContext) -> None:
    state: DerbyState = ctx.state
    if ctx.snapshot.outcome is not None or not ctx.role.is_referee:
        return
    st.html(CONTROLS_CSS)
    _bet_box(ctx)
    if _play_box(ctx) and engine.can_declare_no_cards(state):
        with st.expander(tr("derby.ui.end_race"), key="end_race_section"):
            st.caption(tr("derby.rulings.no_cards_left"))
            _no_cards_left(ctx)


def _no_cards_left(ctx: TableContext) -> None:
    """The "no cards left" button. While the tracker still counts cards in the pile the
    engine wants the referee's confirmation: a tick box beside the button gives it."""
    state: DerbyState = ctx.state
    box = f"no_cards_confirm_{ctx.snapshot.seq}" if engine.no_cards_needs_confirm(state) else ""
    if box:
        st.checkbox(tr("derby.ui.no_cards_confirm", pile=state.pile), key=box)

    def declare() -> NoCardsLeft:
        return NoCardsLeft(confirm=bool(box and st.session_state.get(box)))

    st.button(tr("derby.ui.no_cards_left"), key="no_cards_go", on_click=ctx.write_from(declare))


def _horses(state: DerbyState, label: str, horses: tuple[int, ...], key: str) -> int | None:
    """A horse, each in its row's cell of a 4 × 2 grid."""

    def name(horse: int) -> str:
        return md_text(horse_label(state, horse))

    choice = layout.choice_grid(label, horses, key=key, grid=_horse_grid(horses), format_func=name)
    return None if choice is None else int(choice)


def _horse_grid(horses: tuple[int, ...]) -> layout.Grid:
    """Each horse in its row's cell: 4 × 2, or 2 × 4 in a narrow box."""
    narrow = layout.Grid(2, 4, [divmod(h, 2) for h in horses])
    wide = [divmod(h, HORSE_COLUMNS) for h in horses]
    return layout.Grid(HORSE_COLUMNS, 2, wide, narrow, NARROW_HORSES)


def _card_grid(cards: tuple[Card, ...]) -> layout.Grid:
    """Each card under its value, the horse's colour above black: 10 × 2, or 5 × 4 in a
    narrow box."""
    values = load().card_values
    at = [(int(c.is_black), values.index(c.value)) for c in cards]
    half = (len(values) + 1) // 2
    narrow = layout.Grid(half, 4, [(2 * r + c // half, c % half) for r, c in at])
    return layout.Grid(len(values), 2, at, narrow)


def _bet_box(ctx: TableContext) -> None:
    """Bet (optional): horse, then "Place counter". The box has the same rows in every state
    (once the counter is placed it says so where the horses were), so the card box below
    never moves."""
    state: DerbyState = ctx.state
    seat, seq = state.turn, ctx.snapshot.seq
    player = player_label(state, seat)
    horses = engine.legal_bet_horses(state)
    with layout.box("bet_box"):
        if horses or state.bet_made:
            label = tr("derby.ui.bet_label", player=player, fence=state.fence)
        else:
            label = tr("derby.page.bet_title", player=player)
        row = layout.head_row(label, "bet_head")
        choice = None
        if horses:
            choice = _horses(state, label, horses, f"bet_horse_{seq}")
        else:  # the counter placed, or why none can be: at the height of the horses' grid
            layout.grid_note(describe.bet_note(state, ctx.lang), _horse_grid(()), "bet_note")
        row.button(
            tr("derby.ui.place_counter"),
            key="bet_go",
            disabled=choice is None,
            on_click=ctx.write(Bet(seat, choice)) if choice is not None else None,
        )


def _play_box(ctx: TableContext) -> bool:
    """Play a card: horse, card, then "Play card" at the top of the box; "Pass" beside it once
    the engine allows one. With no card to play, the box says why and offers the way on.
    Returns whether a card can be played."""
    state: DerbyState = ctx.state
    seat, seq = state.turn, ctx.snapshot.seq
    with layout.box("play_box"):
        label = tr("derby.ui.play_label", player=player_label(state, seat))
        row = layout.head_row(label, "play_head")
        horses = engine.legal_play_horses(state)
        if not horses:
            _no_card(ctx)
            return False
        horse = _horses(state, label, horses, f"play_horse_{seq}")
        play: PlayCard | None = None
        if horse is None:
            layout.grid_note(tr("derby.page.choose_horse"), _card_grid(()), "card_note")
        else:
            cards = engine.legal_cards(state, horse)
            code = layout.choice_grid(
                tr("derby.ui.card_label"),
                [c.code() for c in cards],
                key=f"play_card_{seq}_{horse}",
                grid=_card_grid(cards),
                format_func=lambda c: card_label(Card.parse(c)),
            )
            play = PlayCard(seat, horse, Card.parse(code)) if code is not None else None
        _discard_count(state, play, seq)
        if engine.can_pass(state):
            row.button(
                tr("derby.ui.pass"), key="pass_go", on_click=ctx.write_from(_pass(seat, seq))
            )
        row.button(
            tr("derby.ui.play_card"),
            key="play_go",
            type="primary",
            disabled=play is None,
            on_click=ctx.write_from(_play(play, seq)) if play is not None else None,
        )
    return True


def _typed(key: str) -> int:
    """A count as typed when the button is clicked (0 when the box is not shown)."""
    return int(st.session_state.get(key) or 0)


def _play(play: PlayCard, seq: int) -> Callable[[], PlayCard]:
    return lambda: replace(play, discard_count=_typed(f"discards_{seq}"))


def _pass(seat: int, seq: int) -> Callable[[], Pass]:
    return lambda: Pass(seat, discard_count=_typed(f"discards_{seq}"))


def _discard_count(state: DerbyState, play: PlayCard | None, seq: int) -> None:
    """The turn's one discard count (cards of fallen horses), for whichever action is recorded:
    shown only when the engine says a discard is possible this turn. It keeps its bounds for
    the whole turn (the engine's ``turn_discard_limit``), so choosing a card never changes a
    count already typed; its label states the chosen action's own limit, which ``apply``
    enforces (a count above it is refused with that limit, and nothing is written)."""
    bound = engine.turn_discard_limit(state)
    if bound == 0:
        return
    limit = engine.discard_limit(state, play) if play is not None else bound
    layout.count_input(tr("derby.ui.discards", limit=limit), bound, f"discards_{seq}")


def _no_card(ctx: TableContext) -> None:
    """No running horse has a card left for this player: say why, and offer the way on (the
    engine says which: a pass, the end of the race, or both)."""
    state: DerbyState = ctx.state
    seat, seq = state.turn, ctx.snapshot.seq
    can_pass, can_end = engine.can_pass(state), engine.can_declare_no_cards(state)
    layout.alert(describe.no_card_words(state, ctx.lang, can_pass=can_pass, can_end=can_end))
    _discard_count(state, None, seq)
    with st.container(horizontal=True, key="way_on"):
        if can_pass:
            st.button(
                tr("derby.ui.pass"),
                key="pass_go",
                type="primary",
                on_click=ctx.write_from(_pass(seat, seq)),
            )
        if can_end:
            _no_cards_left(ctx)


# --- board and standings ---------------------------------------------------------------------


def board(ctx: TableContext) -> None:
    show_stacks = st.toggle(tr("derby.ui.show_stacks"), key="show_stacks")
    st.html(_board_of(ctx, all_=show_stacks))


def board_top(ctx: TableContext) -> str:
    """The fences (each stack's top card), as the page shows them before a tap."""
    return _board_of(ctx, all_=False)


def _board_of(ctx: TableContext, *, all_: bool) -> str:
    state: DerbyState = ctx.state
    latest = _latest_cell(state, ctx.latest.action if ctx.latest is not None else None)
    return _board(state, latest, ended=ctx.snapshot.outcome is not None, all_=all_)


def _latest_cell(state: DerbyState, action: Any) -> tuple[str, int, int] | None:
    """Where the last move shows on the board: ("card", fence, row) or ("slot", fence, row)."""
    if isinstance(action, PlayCard):
        for fence, column in enumerate(state.columns, start=1):
            if action.card in column[action.horse]:
                return ("card", fence, action.horse)
    if isinstance(action, Bet) and state.counters:
        counter = state.counters[-1]
        return ("slot", counter.fence, counter.horse)
    return None


def _board(state: DerbyState, latest: Any, *, ended: bool, all_: bool) -> str:
    """Rows numbered, horses by name after a round dot; counters show their owner's seat."""
    data = load()
    head = [cell("#", tag="th"), cell(html_text(tr("derby.ui.horse")), tag="th")]
    for fence in range(1, data.fences + 1):
        now = "now" if fence == state.fence and not ended else ""
        if fence in data.payout:
            tip = describe.slot_tip(fence, lang())
            short = html_text(tr("derby.ui.slot_short", points=data.payout[fence]))
            abbr = f'<abbr title="{html_text(tip)}">{short}</abbr>'
            head.append(cell(abbr, now, tag="th"))  # the explanation is the abbr's title
        head.append(cell(html_text(tr("derby.ui.fence_short", n=fence)), now, tag="th"))
    rows = []
    for row, horse in enumerate(state.setup.horses):
        fell = state.fallen[row]
        colour = data.horse_colour(horse.colour)
        dot = f'<span class="dot" style="color:{colour.hex if colour else "#999"}">●</span>'
        note = f" ✕{fell}" if fell else (" 🏁" if ended else "")
        cells = [cell(str(row + 1)), cell(f"{dot} {html_text(horse.name)}{note}", "name")]
        for fence in range(1, data.fences + 1):
            if fence in data.payout:
                owner = next(
                    (c.player for c in state.counters if (c.horse, c.fence) == (row, fence)), None
                )
                mark = "latest" if latest == ("slot", fence, row) else ""
                cells.append(cell("" if owner is None else _seat(state, owner), "slot", mark))
            mark = "latest" if latest == ("card", fence, row) else ""
            cells.append(cell(_stack(state.columns[fence - 1][row], all_), mark))
        rows.append(("out" if fell else "", cells))
    return layout.board_table(head, rows, "derby") + layout.legend_line(
        describe.legend(lang()), tr("derby.page.legend_latest")
    )


def _seat(state: DerbyState, seat: int) -> str:
    """A player's mark: their seat number on their counter colour (as on their counters)."""
    colour = load().counter_colour(state.setup.players[seat].colour)
    title = tr("derby.page.counter_title", player=player_label(state, seat))
    return badge(seat + 1, colour.hex if colour else "#999999", title)


def _stack(stack: tuple[Card, ...], show_all: bool) -> str:
    def card_chip(card: Card) -> str:
        colour = load().card_colour(card.colour)
        return layout.chip(card.value, colour.hex if colour else "#222222")

    if len(stack) <= 1:
        return "".join(card_chip(c) for c in stack)
    if show_all:
        return " ".join(card_chip(c) for c in stack[:-1]) + " › " + card_chip(stack[-1])
    return f'{card_chip(stack[-1])}<span class="under"> +{len(stack) - 1}</span>'


def standings(ctx: TableContext) -> Standings:
    """Who leads: the players by their points if the race ended now (counters on horses still
    running or finished, ``engine.scores``), equal totals sharing a place (they would share
    the win); each with their counter mark, points and counters left."""
    state: DerbyState = ctx.state
    head = (tr("derby.ui.player"), tr("derby.ui.points"), tr("derby.ui.counters_left"))
    return Standings(head, tuple(standing_rows(state)), tr("derby.ui.scores_if_now"))


def standing_rows(state: DerbyState) -> list[Row]:
    """The standings' rows, best first (seat order among equals), ties sharing a place."""
    totals = engine.scores(state)
    order = sorted(range(len(state.setup.players)), key=lambda seat: (-totals[seat], seat))
    rows = []
    for seat in order:
        place = 1 + sum(1 for other in totals if other > totals[seat])
        name = f"{_seat(state, seat)} {html_text(state.setup.players[seat].name)}"
        cells = (name, f"{NUM}{totals[seat]}", f"{NUM}{state.counters_left(seat)}")
        rows.append(Row(place, seat, cells))
    return rows
