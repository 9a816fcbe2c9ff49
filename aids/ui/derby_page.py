"""The Derby tracker: create a table, record the race, show the board to referee and players.

The referee's page offers only legal choices (from the engine's legal-next helpers); a card
play is three taps: horse, card, confirm. Every write carries the sequence number the page was
drawn from, so a double click or a second device gets a clear "refreshed, try again".
"""

from __future__ import annotations

import io
import json

import qrcode
import streamlit as st

from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.core.links import viewer_url
from aids.core.tables import LogEntry, Snapshot
from aids.games.derby import engine
from aids.games.derby.data import load
from aids.games.derby.model import (
    Bet,
    Card,
    DerbySetup,
    DerbyState,
    NoCardsLeft,
    Pass,
    PlayCard,
)
from aids.ui.common import (
    base_url,
    esc,
    lang,
    page_header,
    paper_choice,
    run_write,
    service,
    show_flash,
    tr,
)

DOTS = {
    "red": "🔴",
    "blue": "🔵",
    "green": "🟢",
    "yellow": "🟡",
    "white": "⚪",
    "pink": "🩷",
    "brown": "🟤",
    "purple": "🟣",
    "black": "⚫",
}
REFRESH_SECONDS = 1.0  # the viewer polls the store; a change shows within this (plus a run)


# --- create --------------------------------------------------------------------------------


def create_form() -> None:
    data = load()
    current = lang()  # bound now: AppTest calls format_func outside the script run

    def colour_name(k: str) -> str:
        return f"{DOTS.get(k, '')} {t(f'colours.{k}', current)}"

    with st.form("derby_new", enter_to_submit=False):
        title = st.text_input(tr("ui.title"), key="new_title", max_chars=80)
        st.markdown(f"**{tr('ui.players_seat_order')}**")
        counter_keys = [c.key for c in data.counter_colours]
        players: list[tuple[str, str]] = []
        for i in range(data.max_players):
            name_col, colour_col = st.columns([3, 2])
            name = name_col.text_input(
                tr("ui.player_n", n=i + 1), key=f"new_player_{i}", max_chars=40
            )
            colour = colour_col.selectbox(
                tr("ui.counter_colour"),
                options=counter_keys,
                index=i,
                format_func=colour_name,
                key=f"new_player_colour_{i}",
            )
            players.append((name, colour))
        with st.expander(tr("ui.horses_row_order")):
            horses: list[tuple[str, str]] = []
            horse_keys = [c.key for c in data.horse_colours]
            for i, colour_data in enumerate(data.horse_colours):
                colour_col, name_col = st.columns([2, 3])
                colour = colour_col.selectbox(
                    tr("ui.row_n", n=i + 1),
                    options=horse_keys,
                    index=i,
                    format_func=colour_name,
                    key=f"new_horse_colour_{i}",
                )
                name = name_col.text_input(
                    tr("ui.horse_name"),
                    value=colour_data.name(lang()),
                    key=f"new_horse_name_{i}",
                    max_chars=40,
                )
                horses.append((name, colour))
        submitted = st.form_submit_button(tr("ui.create"), type="primary")
    if submitted:
        setup = {
            "players": [{"name": n, "colour": c} for n, c in players if n.strip()],
            "horses": [{"name": n, "colour": c} for n, c in horses],
            "mode": "tracking",
        }
        try:
            DerbySetup.from_dict(setup)
            info, key = service().create("derby", title, setup)
        except AidsError as exc:
            st.error(exc.message(lang()))
            return
        st.query_params.update({"table": info.public_id, "key": key, "lang": lang()})
        st.rerun()


# --- the table page ------------------------------------------------------------------------


def render(snapshot: Snapshot, key: str | None) -> None:
    head = page_header()
    head.markdown(f"### {esc(snapshot.info.title)}")
    head.caption(tr("derby.name") + (" · " + tr("ui.referee") if key else " · " + tr("ui.viewer")))
    if key is None:
        _live_board(snapshot.info.public_id)
        return
    show_flash()
    state: DerbyState = snapshot.state
    _status(state)
    controls, board = st.columns([2, 3], gap="medium")  # stacked on a phone
    with controls, st.container(key="controls"):
        _controls(snapshot, key)
    with board:
        _board(state)
        _scores(state)
    _log(snapshot, key)
    _rulings()
    _share(snapshot, key)


@st.fragment(run_every=REFRESH_SECONDS)
def _live_board(public_id: str) -> None:
    """The viewer: no controls; re-reads the store on every tick (the URL holds the table)."""
    snapshot = service().snapshot(public_id)
    state: DerbyState = snapshot.state
    _status(state)
    _board(state)
    _scores(state)
    _log(snapshot, None)
    _rulings()


def _player(state: DerbyState, seat: int) -> str:
    p = state.setup.players[seat]
    return f"{DOTS.get(p.colour, '')} {p.name}"


def _horse(state: DerbyState, row: int) -> str:
    h = state.setup.horses[row]
    return f"{DOTS[h.colour]} {h.name}"


def _card(card: Card) -> str:
    return f"{DOTS[card.colour]} {card.value}"


def _status(state: DerbyState) -> None:
    if state.ended:
        names = ", ".join(esc(_player(state, p)) for p in engine.winners(state))
        finishers = ", ".join(esc(_horse(state, h)) for h in engine.finishers(state))
        st.success(tr("ui.race_over", finishers=finishers, winners=names))
        return
    seat = state.turn
    st.info(
        tr(
            "ui.status",
            fence=state.fence,
            fences=load().fences,
            player=_player(state, seat),
            counters=state.counters_left(seat),
            pile=state.pile,
        )
    )


# --- referee controls ----------------------------------------------------------------------


def _controls(snapshot: Snapshot, key: str) -> None:
    state: DerbyState = snapshot.state
    pid, seq = snapshot.info.public_id, snapshot.seq
    undo_col, redo_col, _ = st.columns([1, 1, 3])
    undo_col.button(
        "↶ " + tr("ui.undo"),
        key="undo",
        disabled=not snapshot.can_undo,
        on_click=run_write,
        args=(lambda: service().undo(pid, key, seq),),
        use_container_width=True,
    )
    redo_col.button(
        "↷ " + tr("ui.redo"),
        key="redo",
        disabled=not snapshot.can_redo,
        on_click=run_write,
        args=(lambda: service().redo(pid, key, seq),),
        use_container_width=True,
    )
    if state.ended:
        return
    seat = state.turn
    bet_horses = engine.legal_bet_horses(state)
    if bet_horses:
        with st.container(border=True, key="bet_box"):
            choice = st.pills(
                tr("ui.bet_label", player=_player(state, seat), fence=state.fence),
                options=list(bet_horses),
                format_func=lambda h: _horse(state, h),
                key=f"bet_horse_{seq}",
            )
            st.button(
                tr("ui.place_counter"),
                key="bet_go",
                disabled=choice is None,
                on_click=_bet,
                args=(pid, key, seq, seat, choice),
            )
    with st.container(border=True, key="play_box"):
        horse = st.pills(
            tr("ui.play_label", player=_player(state, seat)),
            options=list(engine.legal_play_horses(state)),
            format_func=lambda h: _horse(state, h),
            key=f"play_horse_{seq}",
        )
        card_code = None
        if horse is not None:
            cards = engine.legal_cards(state, horse)
            card_code = st.pills(
                tr("ui.card_label"),
                options=[c.code() for c in cards],
                format_func=lambda code: _card(Card.parse(code)),
                key=f"play_card_{seq}_{horse}",
            )
        discards = _discard_input(state, seq)
        st.button(
            tr("ui.play_card"),
            key="play_go",
            type="primary",
            disabled=card_code is None,
            on_click=_play,
            args=(pid, key, seq, seat, horse, card_code, discards),
        )
    if engine.can_pass(state):
        st.button(
            tr("ui.pass"),
            key="pass_go",
            on_click=run_write,
            args=(lambda: service().record(pid, key, seq, Pass(seat, discard_count=discards)),),
        )
    if engine.can_declare_no_cards(state):
        with st.expander(tr("ui.end_race")):
            st.caption(tr("derby.rulings.no_cards_left"))
            st.button(
                tr("ui.no_cards_left"),
                key="no_cards_go",
                on_click=run_write,
                args=(lambda: service().record(pid, key, seq, NoCardsLeft()),),
            )


def _discard_input(state: DerbyState, seq: int) -> int:
    limit = engine.unknown_fallen_cards(state)
    if limit == 0:
        return 0
    with st.expander(tr("ui.discards")):
        value = st.number_input(
            tr("ui.discard_count"),
            min_value=0,
            max_value=min(limit, load().hand_size),
            value=0,
            step=1,
            key=f"discards_{seq}",
        )
    return int(value)


def _bet(pid: str, key: str, seq: int, seat: int, horse: int | None) -> None:
    if horse is not None:
        run_write(lambda: service().record(pid, key, seq, Bet(seat, horse)))


def _play(
    pid: str, key: str, seq: int, seat: int, horse: int | None, code: str | None, discards: int
) -> None:
    if horse is None or code is None:
        return
    run_write(
        lambda: service().record(
            pid, key, seq, PlayCard(seat, horse, Card.parse(code), discard_count=discards)
        )
    )


# --- board, scores, log --------------------------------------------------------------------

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


def _board(state: DerbyState) -> None:
    data = load()
    show_stacks = st.toggle(tr("ui.show_stacks"), key="show_stacks")
    head = ["<th>#</th>", f"<th>{esc(tr('ui.horse'))}</th>"]
    for fence in range(1, data.fences + 1):
        now = ' class="now"' if fence == state.fence and not state.ended else ""
        if fence in data.payout:
            points = esc(tr("ui.slot_short", points=data.payout[fence]))
            head.append(f"<th{now}>{points}</th>")
        head.append(f"<th{now}>{esc(tr('ui.fence_short', n=fence))}</th>")
    rows = []
    for row, horse in enumerate(state.setup.horses):
        fell = state.fallen[row]
        colour = data.horse_colour(horse.colour)
        hex_ = colour.hex if colour else "#999"
        mark = f" ✕{fell}" if fell else (" 🏁" if state.ended else "")
        cells = [
            f"<td>{row + 1}</td>",
            f'<td class="name"><span style="color:{hex_}">■</span> {esc(horse.name)}{mark}</td>',
        ]
        for fence in range(1, data.fences + 1):
            if fence in data.payout:
                cells.append(f'<td class="slot">{_slot(state, row, fence)}</td>')
            cells.append(f"<td>{_stack(state.columns[fence - 1][row], show_stacks)}</td>")
        rows.append(f'<tr class="{"fallen" if fell else ""}">{"".join(cells)}</tr>')
    table = (
        f'{BOARD_CSS}<div class="derby-wrap"><table class="derby">'
        f"<tr>{''.join(head)}</tr>{''.join(rows)}</table></div>"
    )
    st.html(table)


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
        colour = data.horse_colour(card.colour)
        hex_ = colour.hex if colour else "#222"
        light = " light" if card.colour in ("yellow", "white") else ""
        return f'<span class="chip{light}" style="background:{hex_}">{card.value}</span>'

    top = chip(stack[-1])
    if len(stack) == 1:
        return top
    if show_all:
        return " ".join(chip(c) for c in stack[:-1]) + " › " + top
    return f'{top}<span class="under"> +{len(stack) - 1}</span>'


def _scores(state: DerbyState) -> None:
    totals = engine.scores(state)
    best = engine.winners(state) if state.ended else ()
    label = tr("ui.scores_final") if state.ended else tr("ui.scores_if_now")
    lines = [f"**{label}**"]
    for seat, _player_data in enumerate(state.setup.players):
        crown = " 🏆" if seat in best else ""
        lines.append(
            f"- {esc(_player(state, seat))}: **{totals[seat]}**{crown}"
            f" · {tr('ui.counters_left', n=state.counters_left(seat))}"
        )
    st.markdown("\n".join(lines))


def describe(state: DerbyState, entry: LogEntry) -> str:
    """One log line in the page language, with the table's own names."""
    action = entry.action
    if entry.kind == "undo":
        return tr("ui.log_undo", n=entry.target)
    if entry.kind == "redo":
        return tr("ui.log_redo", n=entry.target)
    if isinstance(action, Bet):
        return tr(
            "ui.log_bet", player=_player(state, action.player), horse=_horse(state, action.horse)
        )
    if isinstance(action, PlayCard):
        text = tr(
            "ui.log_play",
            player=_player(state, action.player),
            card=_card(action.card),
            horse=_horse(state, action.horse),
        )
        if action.discard_count:
            text += " " + tr("ui.log_discards", n=action.discard_count)
        return text
    if isinstance(action, Pass):
        text = tr("ui.log_pass", player=_player(state, action.player))
        if action.discard_count:
            text += " " + tr("ui.log_discards", n=action.discard_count)
        return text
    if isinstance(action, NoCardsLeft):
        return tr("ui.log_no_cards")
    return str(action)


def _log(snapshot: Snapshot, key: str | None) -> None:
    state: DerbyState = snapshot.state
    with st.expander(tr("ui.log", n=snapshot.seq), expanded=key is not None):
        if not snapshot.log:
            st.caption(tr("ui.log_empty"))
        lines = []
        for entry in reversed(snapshot.log[-40:]):
            text = esc(describe(state, entry))
            if entry.undone:
                text = f"~~{text}~~ ({esc(tr('ui.undone'))})"
            lines.append(f"`{entry.seq:>3}` {text}")  # not a Markdown list: it would renumber
        st.markdown("  \n".join(lines))


def _rulings() -> None:
    """Where the rulebook is silent, say what the program assumes."""
    with st.expander(tr("derby.rulings.title")):
        keys = ("one_per_slot", "tie_farthest", "share_win", "pass_tracking", "no_cards_left")
        st.markdown("\n".join(f"- {tr(f'derby.rulings.{k}')}" for k in keys))


# --- share, print, export ------------------------------------------------------------------


def _qr_png(url: str) -> bytes:
    image = qrcode.make(url, border=4)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _share(snapshot: Snapshot, key: str) -> None:
    from aids.print.derby_sheet import build_derby_sheet, sheet_view

    pid = snapshot.info.public_id
    link = viewer_url(base_url(), pid, lang())
    with st.expander(tr("ui.share_print")):
        st.caption(tr("ui.referee_link_hint"))
        qr_col, text_col = st.columns([1, 2])
        qr_col.image(_qr_png(link), width=180)
        text_col.markdown(f"**{tr('ui.viewer_link')}**")
        text_col.code(link, language=None)
        paper = paper_choice("paper", text_col)
        current = lang()
        text_col.download_button(
            tr("ui.download_sheet"),
            data=lambda: build_derby_sheet(
                sheet_view(service().snapshot(pid), base_url(), current), current, paper
            ),
            file_name=f"derby-sheet-{current}-{paper}.pdf",
            mime="application/pdf",
            on_click="ignore",
            key="download_sheet",
        )
        text_col.download_button(
            tr("ui.export_json"),
            data=lambda: json.dumps(service().export(pid), ensure_ascii=False, indent=2),
            file_name=f"table-{pid[:8]}.json",
            mime="application/json",
            on_click="ignore",
            key="download_export",
        )
