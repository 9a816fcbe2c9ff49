"""The Ekiden's parts of the table page: setup fields, status, record controls, the road.

The frame (``aids.ui.frame``) draws everything else. The page asks the engine who plays next,
which roster runners are left and what a runner would declare; it never re-derives a rule.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from aids.core.errors import AidsError, InvalidAction
from aids.core.i18n import Lang, t
from aids.games.base import Role
from aids.games.ekiden import engine
from aids.games.ekiden.data import load
from aids.games.ekiden.describe import MARK_SIGNS, runner_text, skill_name, team_label
from aids.games.ekiden.model import (
    COURSE_VALUES,
    MARKS,
    NAME_MAX,
    EkidenState,
    Run,
    Runner,
    Situation,
    Terrain,
)
from aids.ui.common import md_text, md_tr, run_write, tr
from aids.ui.context import Standings, StatusLine, TableContext
from aids.ui.ekiden import board as ekiden_board
from aids.ui.layout import names_with_colours

# --- setup ---------------------------------------------------------------------------------

# A course card's halves, compact: ten numbers fit a phone's row, two halves a laptop's.
COURSE_CSS = """<style>
[class*="st-key-ek_card_"] [data-testid="stButtonGroup"] button { min-width: 1.65rem;
  padding-left: .2rem; padding-right: .2rem; }
</style>"""


def setup_fields(lang: Lang) -> dict[str, Any]:
    """Teams in seat order with piece colours, the start player, the five course cards."""
    d = load()
    st.markdown(f"**{md_text(t('ekiden.ui.teams_seat_order', lang))}**")
    teams = names_with_colours(
        d.max_teams,
        d.colours,
        name_label=lambda n: t("ekiden.ui.team_n", lang, n=n),
        colour_label=t("ekiden.ui.colour", lang),
        key="ek_team",
        lang=lang,
    )
    start = st.number_input(
        t("ekiden.ui.start_player", lang),
        min_value=1,
        max_value=d.max_teams,
        value=1,
        key="ek_start",
    )
    st.markdown(f"**{md_text(t('ekiden.ui.course_cards', lang))}**")
    st.caption(t("ekiden.rulings.terrain", lang))
    st.html(COURSE_CSS)
    values: dict[int, int] = {}
    for n, (out_leg, back_leg) in enumerate(d.course_pairs, start=1):
        # a card: its lower half (outbound leg) and upper half (return leg), a tap each
        with st.container(border=True, key=f"ek_card_{n}"):
            halves = st.columns(2)
            for col, leg in zip(halves, (out_leg, back_leg), strict=True):
                value = col.segmented_control(
                    t("ekiden.ui.card_half", lang, card=n, leg=leg),
                    options=list(COURSE_VALUES),
                    default=0,
                    required=True,
                    key=f"ek_leg_{leg}",
                )
                values[leg] = int(value if value is not None else 0)
    course = [Terrain.from_card_value(leg, values[leg]).to_dict() for leg in sorted(values)]
    return {"teams": teams, "start": int(start) - 1, "course": course}


# --- status --------------------------------------------------------------------------------


def status(ctx: TableContext) -> list[StatusLine]:
    state: EkidenState = ctx.state
    outcome = ctx.snapshot.outcome
    if outcome is not None:
        winner = team_label(state, outcome.winners[0])
        return [StatusLine(tr("ekiden.ui.over", winner=winner), True)]
    terrain = state.setup.course[state.leg - 1]
    where = tr(
        "ekiden.ui.leg_status",
        leg=state.leg,
        terrain=tr(f"ekiden.terrain.{terrain.slope}", n=terrain.n),
    )
    if state.phase == "situation":
        return [StatusLine(f"{where} · {tr('ekiden.ui.reveal_now')}")]
    team = engine.next_runner(state)
    order = " → ".join(
        team_label(state, t_)
        for t_ in reversed(engine.standings(state))
        if t_ not in {e.team for e in state.entries}
    )
    marks = "".join(MARK_SIGNS[m] for m in state.marks or ())
    playing = tr("ekiden.ui.to_play", team=team_label(state, team or 0))
    return [StatusLine(f"{where} · {marks} · {playing} ({order})")]


# --- record controls -----------------------------------------------------------------------


def controls(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    if ctx.snapshot.outcome is not None or ctx.role.is_viewer:
        return
    if state.phase == "situation" and ctx.role.is_referee:
        _situation(ctx)
    elif state.phase == "runners":
        team = engine.next_runner(state)
        if team is not None and (ctx.role.is_referee or ctx.role == Role.seat_of(team)):
            _runner(ctx, team)
        elif team is not None:
            st.caption(md_tr("ekiden.ui.wait_turn", team=team_label(state, team)))
    if engine.roster_open(state):
        _rosters(ctx)


def _situation(ctx: TableContext) -> None:
    """The card, one row of marks per leg rank as printed, in a form: the taps wait for
    nobody, and Reveal sends the five marks together."""
    state: EkidenState = ctx.state
    seq = ctx.snapshot.seq
    labels = set(engine.rank_labels(state.teams))
    with (
        st.container(border=True, key="situation_box"),
        st.form(f"situation_form_{seq}", border=False, enter_to_submit=False),
    ):
        st.markdown(f"**{md_text(tr('ekiden.ui.situation_label', leg=state.leg))}**")
        for rank in range(1, 6):  # one row per leg rank, as printed on the card
            label_col, marks_col = st.columns([1, 3], vertical_alignment="center")
            used = "" if rank in labels else " ·"
            label_col.markdown(md_text(tr("ekiden.ui.rank_n", n=rank) + used))
            marks_col.segmented_control(
                tr("ekiden.ui.rank_n", n=rank),
                options=list(MARKS),
                format_func=MARK_SIGNS.__getitem__,
                default="-",
                key=f"mark_{seq}_{rank}",
                label_visibility="collapsed",
            )
        st.caption(tr("ekiden.ui.rows_read", rows=", ".join(map(str, sorted(labels)))))
        st.form_submit_button(
            tr("ekiden.ui.reveal"),
            key="reveal_go",
            type="primary",
            on_click=ctx.write_from(lambda: _card_as_marked(state.leg, seq)),
        )


def _card_as_marked(leg: int, seq: int) -> Situation | None:
    """The card as the five rows show it when Reveal is clicked; a row left empty (its mark
    tapped off) is refused by name, never read as a mark."""
    marks = [st.session_state.get(f"mark_{seq}_{rank}") for rank in range(1, 6)]
    if None in marks:
        _refuse(InvalidAction("ekiden/unset_mark", rank=marks.index(None) + 1))
        return None
    return Situation(leg, tuple(marks))  # type: ignore[arg-type]


def _refuse(exc: AidsError) -> None:
    """Show ``exc`` as a write's error (nothing is written)."""

    def fail() -> None:
        raise exc

    run_write(fail)


CONFIRM = "ek_confirm_run"  # a typed runner whose name already ran, held for a second Play


def _runner(ctx: TableContext, team: int) -> None:
    """The team's runner, in a form: the taps wait for nobody, and the last one sends the
    runner. With a roster: its runners not yet run, each with the power it would declare,
    then Play. Without: a row of buttons for each value a card shows, from the engine
    (``runner_choices``), the skills last: tapping one plays the runner."""
    state: EkidenState = ctx.state
    seq = ctx.snapshot.seq
    with st.container(border=True, key="runner_box"):
        title = md_tr("ekiden.ui.runner_label", team=team_label(state, team))
        st.markdown(f"**{title}**")
        _declared_so_far(state)
        held = st.session_state.get(CONFIRM)
        if held is not None and held[0] == seq:
            ran = engine.leg_run_by(state, team, held[1].name)
            who = team_label(state, team)
            st.warning(md_tr("ekiden.ui.name_ran", name=held[1].name, leg=ran, team=who))
        with st.form(f"runner_form_{seq}", border=False, enter_to_submit=False):
            roster = state.rosters[team]
            if roster is not None:
                st.form_submit_button(
                    tr("ekiden.ui.play_runner"),
                    key="run_go",
                    type="primary",
                    on_click=ctx.write_from(_picked_runner(ctx, team, roster)),
                )
            else:
                _typed_runner(ctx, team)


def _declared_so_far(state: EkidenState) -> None:
    """The runners played this leg and their declared power (the markers on the power track)."""
    if not state.entries:
        return
    played = " · ".join(f"{team_label(state, e.team)} {e.declared}" for e in state.entries)
    st.caption(md_tr("ekiden.ui.declared_so_far", played=played))


def _picked_runner(ctx: TableContext, team: int, roster: tuple[Runner, ...]) -> Any:
    """The roster's runners not yet run, each with the power it would declare now."""
    state: EkidenState = ctx.state
    seq = ctx.snapshot.seq

    def option(p: int) -> str:
        declared = engine.declared_power(state, team, roster[p])[2]
        return md_text(f"{p + 1}: {runner_text(roster[p], ctx.lang)} → {declared}")

    st.pills(
        tr("ekiden.ui.pick"),
        options=list(engine.legal_picks(state, team)),
        format_func=option,
        key=f"pick_{seq}",
    )

    def build() -> Run | None:
        picked = st.session_state.get(f"pick_{seq}")
        if picked is None:
            _refuse(InvalidAction("ekiden/unset_pick"))
            return None
        return Run(team, state.leg, pick=int(picked))

    return build


# The entry's rows of buttons, compact: ten values fit a phone's row, and the skills two rows
# of a laptop's column, so the last tap is on the first screen.
ENTRY_CSS = """<style>
.st-key-runner_box [data-testid="stButtonGroup"] button { min-width: 1.9rem;
  padding-left: .35rem; padding-right: .35rem; }
.st-key-skill_buttons { gap: .4rem; }
.st-key-skill_buttons button { min-height: 2.2rem; padding: .15rem .6rem; }
</style>"""


def _typed_runner(ctx: TableContext, team: int) -> None:
    """The runner card's values (a team without a roster): a row of buttons per number, the
    engine's preset chosen, so the referee taps only what differs; then one button per skill
    (with what it adds on this leg) that plays the runner: a card is its differing numbers +
    one tap, and no tap but that last one asks the server for anything."""
    state: EkidenState = ctx.state
    seq = ctx.snapshot.seq
    choices = engine.runner_choices()
    preset = choices.preset
    st.html(ENTRY_CSS)
    power_col, name_col = st.columns([1, 1], vertical_alignment="bottom")
    rows = (
        (power_col, "power", choices.power, preset.power),
        (st, "up", choices.up, preset.up),
        (st, "down", choices.down, preset.down),
    )
    for where, field, options, default in rows:
        where.segmented_control(
            tr(f"ekiden.ui.{field}_row"),
            options=list(options),
            default=default,
            key=f"{field}_{seq}",
        )
        if field == "power":
            name_col.text_input(tr("ekiden.ui.runner_name"), max_chars=NAME_MAX, key=f"name_{seq}")
    bonuses = engine.skill_bonuses(state, team)
    gift = engine.commander_gift(state)
    st.markdown(md_text(tr("ekiden.ui.skill_row")))
    carried = state.commander[team]
    if carried:
        st.caption(tr("ekiden.ui.carried", n=carried))
    with st.container(horizontal=True, key="skill_buttons", gap="small"):
        for skill in choices.skills:
            words = skill_name(None if skill == engine.NO_SKILL else skill, ctx.lang)
            if skill != engine.NO_SKILL:
                words += f" {bonuses[skill]:+d}"
                words += tr("ekiden.ui.next_leg", n=gift) if skill == "commander" and gift else ""
            st.form_submit_button(
                f"▶ {words}",
                key=f"run_{skill}",
                type="primary" if skill == engine.NO_SKILL else "secondary",
                on_click=ctx.write_from(_typed_build(state, team, seq, skill)),
            )


def _typed_build(state: EkidenState, team: int, seq: int, skill: str) -> Any:
    """The typed runner with ``skill``, as the rows hold it when its button is tapped."""

    def build() -> Run | None:
        get = st.session_state.get
        try:
            runner = engine.typed_runner(
                get(f"power_{seq}"),
                get(f"up_{seq}"),
                get(f"down_{seq}"),
                skill,
                str(get(f"name_{seq}") or ""),
            )
        except AidsError as exc:
            _refuse(exc)
            return None
        held = st.session_state.get(CONFIRM)
        if engine.leg_run_by(state, team, runner.name) is not None and held != (seq, runner):
            st.session_state[CONFIRM] = (seq, runner)  # warned first; the same tap plays it
            return None
        st.session_state.pop(CONFIRM, None)
        return Run(team, state.leg, runner=runner)

    return build


ROSTER_FIELDS = ("power", "up", "down", "skill")

# The roster's rows of buttons, compact like the typed runner's.
ROSTER_CSS = """<style>
.st-key-roster_box [data-testid="stButtonGroup"] button { min-width: 1.65rem;
  padding-left: .2rem; padding-right: .2rem; }
[class*="st-key-rrow_"] { border-top: 1px solid #d5d8dc; padding-top: .5rem; gap: .4rem; }
.st-key-roster_box [data-testid="stWidgetLabel"] p { font-size: .85rem; }
.st-key-roster_box [data-testid="stWidgetLabel"] { margin-bottom: 0; min-height: 1.1rem; }
</style>"""


def _rosters(ctx: TableContext) -> None:
    """The draft's 10 runners per team (optional): a team's own link, or the referee. Each
    runner is a row of taps (power, up, down, skill in words), starting from the team's saved
    roster or the engine's preset, so the referee taps what differs; in a form, so no tap
    waits on the server until Save."""
    state: EkidenState = ctx.state
    teams = range(state.teams) if ctx.role.is_referee else [ctx.role.seat or 0]
    with st.expander(tr("ekiden.ui.rosters")):
        st.caption(tr("ekiden.ui.rosters_hint"))
        team = st.selectbox(
            tr("ekiden.ui.team"),
            options=list(teams),
            format_func=lambda x: team_label(state, x),
            key="roster_team",
        )
        choices = engine.runner_choices()
        current = state.rosters[team] or tuple(choices.preset for _ in range(load().runners))
        seq = ctx.snapshot.seq
        st.html(ROSTER_CSS)
        with (
            st.container(key="roster_box"),
            st.form(f"roster_form_{seq}_{team}", border=False, enter_to_submit=False),
        ):
            for i, runner in enumerate(current):
                _roster_row(ctx, choices, runner, f"ro_{seq}_{team}_{i}", i + 1)
            st.form_submit_button(
                tr("ekiden.ui.save_roster"),
                key="roster_go",
                type="primary",
                on_click=ctx.write_from(lambda: _roster_as_tapped(team, f"ro_{seq}_{team}")),
            )


def _roster_row(
    ctx: TableContext, choices: engine.RunnerChoices, runner: Runner, key: str, n: int
) -> None:
    """One roster runner: its number, then power, up and down as rows of buttons and its
    skill in words (none is a choice like the others), each row the box's full width so
    nothing is cut in a narrow column or on a phone."""
    with st.container(key=f"rrow_{key.removeprefix('ro_')}"):
        st.markdown(f"**{md_text(tr('ekiden.ui.roster_n', n=n))}**")
        for field, options in (
            ("power", choices.power),
            ("up", choices.up),
            ("down", choices.down),
        ):
            st.segmented_control(
                tr(f"ekiden.ui.{field}"),
                options=list(options),
                default=getattr(runner, field),
                required=True,
                key=f"{key}_{field}",
            )
        st.pills(
            tr("ekiden.ui.skill"),
            options=list(choices.skills),
            default=runner.skill or engine.NO_SKILL,
            required=True,
            format_func=lambda k: skill_name(None if k == engine.NO_SKILL else k, ctx.lang),
            key=f"{key}_skill",
        )


def _roster_as_tapped(team: int, key: str) -> dict[str, Any]:
    """The roster as its rows show it when Save is clicked."""
    get = st.session_state.get
    runners = []
    for i in range(load().runners):
        card = {f: get(f"{key}_{i}_{f}") for f in ROSTER_FIELDS[:3]}
        skill = get(f"{key}_{i}_skill")
        runners.append(card | ({"skill": skill} if skill and skill != engine.NO_SKILL else {}))
    return {"type": "roster", "team": team, "runners": runners}


def standings(ctx: TableContext) -> Standings:
    """Who leads, drawn by the frame (``ekiden_board.standings``)."""
    return ekiden_board.standings(ctx)


def board(ctx: TableContext) -> None:
    """The road and the leg results (``ekiden_board``)."""
    ekiden_board.board(ctx)


def board_top(ctx: TableContext) -> str:
    """The road (``ekiden_board.road_html``)."""
    return ekiden_board.road_html(ctx.state)
