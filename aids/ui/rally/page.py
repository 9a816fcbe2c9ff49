"""The rally's parts of the table page: the map and machines before the form, setup fields,
status, and the record controls of a turn (draw, travel, attack, defend, ferry, end).

The frame (``aids.ui.frame``) draws everything else; the board is ``board``, the
movement's controls ``travel``. The page asks the engine what is legal (reachable towns,
the stop it advises, who may be attacked or helped); it never re-derives a rule.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from aids.core.errors import AidsError
from aids.core.i18n import Lang, t
from aids.games.base import Role, fresh_seed
from aids.games.rally import engine, news
from aids.games.rally.board import RallyMap, sample_map
from aids.games.rally.data import load
from aids.games.rally.describe import car_label, card_name, cards_text
from aids.games.rally.model import (
    Attack,
    Defend,
    Draw,
    EndRace,
    EndTurn,
    Ferry,
    RallyState,
)
from aids.ui.common import md_text, md_tr, tr, tr_count
from aids.ui.context import Standings, StatusLine, TableContext
from aids.ui.layout import names_with_colours
from aids.ui.rally import board as rally_board
from aids.ui.rally import presets as rally_presets
from aids.ui.rally import travel as rally_travel
from aids.ui.uploads import file_box

MAP_KEY = "rally_map"  # the uploaded map (its dict form), kept between reruns
NOTE_KEY = "rally_preset_note"  # the outcome of the last "save preset"

# --- before the form: the map and the machine presets ----------------------------------------


def setup_before_form(lang: Lang) -> None:
    """The map file and the machine preset, outside the create form so the course and the
    machines below follow them at once."""
    upload = file_box(t("rally.ui.map_file", lang), ["toml", "json"], "rally_map_file")
    if upload is None:
        st.session_state.pop(MAP_KEY, None)
        st.caption(t("rally.ui.map_sample", lang, towns=len(sample_map().towns)))
    else:
        try:
            loaded = RallyMap.from_file_bytes(upload.getvalue(), upload.name)
        except AidsError as exc:
            st.session_state.pop(MAP_KEY, None)
            st.error(md_text(exc.message(lang)))
        else:
            st.session_state[MAP_KEY] = loaded.to_dict()
            st.caption(t("rally.ui.map_loaded", lang, name=md_text(loaded.name(lang)),
                         towns=len(loaded.towns), roads=len(loaded.roads)))  # fmt: skip
    presets = rally_presets.all_presets()
    st.selectbox(
        t("rally.ui.preset", lang),
        options=[p.key for p in presets],
        format_func=lambda k: next(p.name(lang) for p in presets if p.key == k),
        key="rally_preset",
    )
    with st.expander(t("rally.ui.save_preset", lang)):
        name_col, a_col, h_col, d_col = st.columns([3, 1, 1, 1])
        name_col.text_input(t("rally.ui.preset_name", lang), max_chars=30, key="preset_name")
        d = load()
        # each label named in full (a key built from the field's name missed its message)
        for col, field, label, (low, high), value in (
            (a_col, "actions", "rally.ui.actions", d.actions, 3),
            (h_col, "hand", "rally.ui.hand_size", d.hand, 5),
            (d_col, "draw", "rally.ui.draw_n", d.draw, 2),
        ):
            col.number_input(
                t(label, lang), min_value=low, max_value=high, value=value,
                key=f"preset_{field}",
            )  # fmt: skip
        st.button(t("rally.ui.save_preset_go", lang), key="preset_go", on_click=_save_preset,
                  args=(lang,))  # fmt: skip
        note = st.session_state.pop(NOTE_KEY, None)
        if note:
            (st.error if note[0] == "error" else st.success)(note[1])  # made for Markdown


def _save_preset(lang: Lang) -> None:
    get = st.session_state.get
    try:
        preset = rally_presets.save(
            get("preset_name"),
            int(get("preset_actions") or 0),
            int(get("preset_hand") or 0),
            int(get("preset_draw") or 0),
        )
    except AidsError as exc:
        st.session_state[NOTE_KEY] = ("error", md_text(exc.message(lang)))
        return
    st.session_state["rally_preset"] = preset.key
    st.session_state[NOTE_KEY] = (
        "success",
        t("rally.ui.preset_saved", lang, name=md_text(preset.en)),
    )


def _current_map() -> RallyMap:
    raw = st.session_state.get(MAP_KEY)
    return sample_map() if raw is None else RallyMap.from_dict(raw)


# --- setup ---------------------------------------------------------------------------------


def setup_fields(lang: Lang) -> dict[str, Any]:
    """Players in seat order with colours, their machines and teams, the course, the mode."""
    d = load()
    board_map = _current_map()
    st.markdown(f"**{md_text(t('rally.ui.players_seat_order', lang))}**")
    players = names_with_colours(
        d.max_players,
        d.colours,
        name_label=lambda n: t("rally.ui.player_n", lang, n=n),
        colour_label=t("rally.ui.colour", lang),
        key="ra_player",
        lang=lang,
    )
    preset_key = st.session_state.get("rally_preset") or d.presets[0].key
    preset = next((p for p in rally_presets.all_presets() if p.key == preset_key), d.presets[0])
    st.markdown(f"**{md_text(t('rally.ui.machines', lang))}**")
    st.caption(t("rally.ui.machines_hint", lang))
    rows = [
        {"seat": str(i + 1), "actions": preset.actions, "hand": preset.hand,
         "draw": preset.draw, "team": None}
        for i in range(d.max_players)
    ]  # fmt: skip
    edited = st.data_editor(
        rows,
        key=f"ra_machines_{preset.key}",
        num_rows="fixed",
        disabled=["seat"],
        hide_index=True,
        column_config={
            "seat": st.column_config.TextColumn("#", width="small"),
            "actions": st.column_config.NumberColumn(
                t("rally.ui.actions", lang), min_value=d.actions[0], max_value=d.actions[1]
            ),
            "hand": st.column_config.NumberColumn(
                t("rally.ui.hand_size", lang), min_value=d.hand[0], max_value=d.hand[1]
            ),
            "draw": st.column_config.NumberColumn(
                t("rally.ui.draw_n", lang), min_value=d.draw[0], max_value=d.draw[1]
            ),
            "team": st.column_config.NumberColumn(
                t("rally.ui.team_no", lang), min_value=1, max_value=d.max_players
            ),
        },
    )
    courses = {c.id: c for c in board_map.courses}
    course_id = st.selectbox(
        t("rally.ui.course", lang),
        options=[*courses, ""],
        format_func=lambda c: courses[c].name(lang) if c else t("rally.ui.course_own", lang),
        key="ra_course" if board_map is sample_map() else "ra_course_own_map",
    )
    towns = sorted(board_map.towns, key=lambda town: town.name(lang))
    ids = [town.id for town in towns]
    first = board_map.courses[0] if board_map.courses else None
    start_col, goal_col = st.columns(2)
    start = start_col.selectbox(
        t("rally.ui.start_town", lang), options=ids,
        index=ids.index(first.start) if first else 0,
        format_func=lambda i: board_map.town_name(i, lang), key="ra_start",
    )  # fmt: skip
    goal = goal_col.selectbox(
        t("rally.ui.goal_town", lang), options=ids,
        index=ids.index(first.goal) if first else min(1, len(ids) - 1),
        format_func=lambda i: board_map.town_name(i, lang), key="ra_goal",
    )  # fmt: skip
    if course_id:
        start, goal = courses[course_id].start, courses[course_id].goal
    mode_col, first_col = st.columns(2)
    mode = mode_col.radio(
        t("rally.ui.mode", lang),
        options=["tracking", "simulation"],
        format_func=lambda m: t(f"rally.ui.mode_{m}", lang),
        key="ra_mode",
    )
    first_player = first_col.number_input(
        t("rally.ui.start_player", lang), min_value=1, max_value=d.max_players, value=1,
        key="ra_first",
    )  # fmt: skip
    return _setup_dict(players, list(edited), lang, board_map, start, goal, mode, first_player)


def _setup_dict(
    players: list[dict[str, str]],
    machines: list[dict[str, Any]],
    lang: Lang,
    board_map: RallyMap,
    start: str,
    goal: str,
    mode: str,
    first_player: int,
) -> dict[str, Any]:
    """The setup as the form shows it: team numbers become teams in the order first used."""
    numbers = [m.get("team") for m in machines[: len(players)]]
    used = sorted({int(n) for n in numbers if n is not None})
    rows = []
    for player, machine, number in zip(players, machines, numbers, strict=False):
        row: dict[str, Any] = dict(player)
        row["machine"] = {k: machine.get(k) for k in ("actions", "hand", "draw")}
        if number is not None:
            row["team"] = used.index(int(number))
        rows.append(row)
    setup: dict[str, Any] = {
        "players": rows,
        "start_player": int(first_player) - 1,
        "course": {"start": start, "goal": goal},
        "mode": mode,
        "map": None if board_map is sample_map() else board_map.to_dict(),
    }
    if used:
        setup["teams"] = [t("rally.ui.team_n", lang, n=n) for n in used]
    if mode == "simulation":
        setup["seed"] = fresh_seed()  # 128 bits: the seed deals every hidden card
    return setup


# --- status --------------------------------------------------------------------------------


def status(ctx: TableContext) -> list[StatusLine]:
    state: RallyState = ctx.state
    outcome = ctx.snapshot.outcome
    course = tr(
        "rally.ui.course_line",
        start=state.setup.board.town_name(state.setup.start, ctx.lang),
        goal=state.setup.board.town_name(state.setup.goal, ctx.lang),
    )
    if outcome is not None:
        if state.setup.teams:  # tied teams share the first place
            teams = dict.fromkeys(state.setup.players[s].team or 0 for s in outcome.winners)
            winner = " · ".join(state.setup.teams[team] for team in teams)
        else:
            winner = " · ".join(car_label(state, seat) for seat in outcome.winners)
        why = tr(f"rally.outcome.{outcome.reason}")
        return [StatusLine(f"{tr('rally.ui.over', winner=winner)} · {why}", True)]
    lines = []
    first = news.winner(state)
    if first is not None:
        goal = state.setup.board.town_name(state.setup.goal, ctx.lang)
        home = tr("rally.ui.first_home", car=car_label(state, first), goal=goal)
        lines.append(StatusLine(home, True))
    car = car_label(state, state.turn)
    if state.phase == "draw":
        doing = tr("rally.ui.to_draw", car=car, n=state.machine(state.turn).draw)
    else:
        left = state.actions_left
        doing = tr_count("rally.ui.to_act", left, car=car, n=left)
    km, _ = engine.to_goal(state, state.towns[state.turn])
    where = f"{tr('rally.ui.round', n=state.round)} · {doing} · {course} ({km} km)"
    lines.append(StatusLine(where))
    return lines


# --- record controls -----------------------------------------------------------------------


def controls(ctx: TableContext) -> None:
    state: RallyState = ctx.state
    if ctx.snapshot.outcome is not None or ctx.role.is_viewer:
        return
    seat = state.turn
    _skipped(ctx)
    if ctx.role.is_referee or ctx.role == Role.seat_of(seat):
        if state.phase == "draw":
            _draw(ctx, seat)
        else:
            _turn(ctx, seat)
    else:
        st.caption(md_tr("rally.ui.wait_turn", car=car_label(state, seat)))
        _hand(ctx, ctx.role.seat or 0)
    if ctx.role.is_referee:
        with st.expander(tr("rally.ui.end_race")):
            st.caption(tr("rally.rulings.end"))
            st.button(tr("rally.ui.end_race_go"), key="end_race", on_click=ctx.write(EndRace()))


def _skipped(ctx: TableContext) -> None:
    """The turns just missed to police, said where the referee looks next."""
    state: RallyState = ctx.state
    for record in news.missed_turns(state):
        left = state.police[record.seat]
        key = "rally.ui.skipped" if left else "rally.ui.skipped_last"
        st.info(md_tr(key, car=car_label(state, record.seat), left=left))


def _draw(ctx: TableContext, seat: int) -> None:
    state: RallyState = ctx.state
    n = min(state.machine(seat).draw, state.pile_size + state.discard_size)
    label = tr("rally.ui.draw_sim" if state.simulation else "rally.ui.draw_go", n=n)
    st.button(label, key="draw_go", type="primary", on_click=ctx.write(Draw(seat)))
    st.caption(tr("rally.ui.pile", pile=state.pile_size, discard=state.discard_size))
    if engine.at_open_port(state, seat):
        st.caption(tr("rally.ui.ferry_hint"))


def _hand(ctx: TableContext, seat: int) -> None:
    """A simulation's hand, to its owner and the referee."""
    state: RallyState = ctx.state
    if not state.simulation or not state.hands or not state.hands[seat]:
        return
    st.markdown(md_tr("rally.ui.hand_of", car=car_label(state, seat),
                      cards=cards_text(state.hands[seat], ctx.lang)))  # fmt: skip


def _turn(ctx: TableContext, seat: int) -> None:
    state: RallyState = ctx.state
    _hand(ctx, seat)
    ports = engine.can_ferry(state, seat)
    for port in ports:
        st.button(
            md_tr("rally.ui.ferry_go", to=state.setup.board.town_name(port, ctx.lang)),
            key=f"ferry_{port}",
            on_click=ctx.write(_crossing(state, seat, port)),
        )
    rally_travel.travel(ctx, seat)
    _attack_defend(ctx, seat)
    _end_turn(ctx, seat)


def _crossing(state: RallyState, seat: int, port: str) -> Ferry:
    """The crossing, ending the turn in the same write where the engine takes it (the
    crossing is the whole turn); a simulation's hand that must choose discards crosses
    only, and End turn asks for them."""
    whole = Ferry(seat, port, end=True)
    try:
        engine.apply(state, whole)
    except AidsError:
        return Ferry(seat, port)
    return whole


def _attack_defend(ctx: TableContext, seat: int) -> None:
    state: RallyState = ctx.state
    legal = [a for a in engine.legal_actions(state, Role.seat_of(seat))
             if isinstance(a, Attack | Defend)]  # fmt: skip
    if not legal:
        return
    seq = ctx.snapshot.seq
    by_card: dict[str, list[Attack | Defend]] = {}
    for action in legal:
        by_card.setdefault(action.card, []).append(action)
    # two taps, both on the first screen: the card, then the button that plays it on its
    # target (a button per target the engine allows: a card with one target, such as a
    # defence only the car itself needs, offers that one)
    with st.container(border=True, key="cards_box"):
        card = st.pills(
            f"**{md_text(tr('rally.ui.attack_defend'))}** · {md_text(tr('rally.ui.card'))}",
            options=list(by_card),
            format_func=lambda c: card_name(c, ctx.lang),
            key=f"card_{seq}",
        )
        if card is None:
            return
        options = by_card[card]
        name = card_name(card, ctx.lang)
        with st.container(horizontal=True, key="card_targets"):
            for i, action in enumerate(options):
                st.button(
                    md_tr("rally.ui.play_on", card=name, on=_target_text(state, action, ctx.lang)),
                    key=f"card_go_{i}",
                    type="primary",
                    on_click=ctx.write(action),
                )


def _target_text(state: RallyState, action: Attack | Defend, lang: str) -> str:
    if isinstance(action, Defend) and action.town is not None:
        return "🚧 " + state.setup.board.town_name(action.town, lang)
    target = action.target if action.target is not None else 0
    return car_label(state, target)


def _end_turn(ctx: TableContext, seat: int) -> None:
    """End turn; never while travel cards are staged (they would be dropped unseen): the
    button waits for Move or Clear, and a tap that beats the page's redraw is refused."""
    state: RallyState = ctx.state
    excess = engine.must_discard(state, seat)
    seq = ctx.snapshot.seq
    staged = rally_travel.staged(ctx)
    if staged:
        st.caption(tr("rally.ui.staged", km=engine.travel_km(staged)))
    if state.simulation and excess:
        hand = state.hands[seat]
        st.pills(
            tr("rally.ui.discard", n=excess),
            options=list(range(len(hand))),
            format_func=lambda i: card_name(hand[i], ctx.lang),
            selection_mode="multi",
            key=f"discard_{seq}",
        )

        def build() -> EndTurn | None:
            if rally_travel.staged(ctx):
                return None
            chosen = st.session_state.get(f"discard_{seq}") or []
            return EndTurn(seat, tuple(hand[i] for i in chosen))

        st.button(tr("rally.ui.end_turn"), key="end_turn", disabled=bool(staged),
                  on_click=ctx.write_from(build))  # fmt: skip
        return
    label = tr("rally.ui.end_turn_discard", n=excess) if excess else tr("rally.ui.end_turn")
    st.button(
        label,
        key="end_turn",
        disabled=bool(staged),
        on_click=ctx.write_from(lambda: None if rally_travel.staged(ctx) else EndTurn(seat)),
    )


def standings(ctx: TableContext) -> Standings:
    """Who leads, drawn by the frame (``rally_board.standings``)."""
    return rally_board.standings(ctx)


def board(ctx: TableContext) -> None:
    """The map and the turns so far (``rally_board``); on the page of whoever
    enters the turn, the map marks the stop of the movement being tapped."""
    rally_board.board(ctx, stop=rally_travel.pending_stop(ctx))


def board_top(ctx: TableContext) -> str:
    """The map (``rally_board.map_of``)."""
    return rally_board.map_of(ctx)
