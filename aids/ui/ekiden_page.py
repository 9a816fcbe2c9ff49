"""The Ekiden's parts of the table page: setup fields, status, record controls, the road.

The frame (``aids.ui.frame``) draws everything else. The page asks the engine who plays next,
which roster runners are left and what a runner would declare; it never re-derives a rule.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from aids.core.i18n import Lang, t
from aids.games.base import Role
from aids.games.ekiden import engine
from aids.games.ekiden.data import load
from aids.games.ekiden.describe import MARK_SIGNS, runner_text, skill_name, team_label
from aids.games.ekiden.model import (
    MARKS,
    NAME_MAX,
    SKILLS,
    EkidenState,
    Run,
    Runner,
    Situation,
    Terrain,
)
from aids.ui import ekiden_board
from aids.ui.common import banner, md_text, md_tr, tr
from aids.ui.context import TableContext
from aids.ui.layout import names_with_colours

# --- setup ---------------------------------------------------------------------------------


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
    values: dict[int, int] = {}
    for card, (out_leg, back_leg) in zip(st.columns(5), d.course_pairs, strict=True):
        for leg in (out_leg, back_leg):
            values[leg] = int(
                card.number_input(
                    t("ekiden.ui.leg_value", lang, leg=leg),
                    min_value=0,
                    max_value=9,
                    value=0,
                    key=f"ek_leg_{leg}",
                )
            )
    course = [Terrain.from_card_value(leg, values[leg]).to_dict() for leg in sorted(values)]
    return {"teams": teams, "start": int(start) - 1, "course": course}


# --- status --------------------------------------------------------------------------------


def status(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    outcome = ctx.snapshot.outcome
    if outcome is not None:
        banner(tr("ekiden.ui.over", winner=team_label(state, outcome.winners[0])), done=True)
        return
    terrain = state.setup.course[state.leg - 1]
    where = tr(
        "ekiden.ui.leg_status",
        leg=state.leg,
        terrain=tr(f"ekiden.terrain.{terrain.slope}", n=terrain.n),
    )
    if state.phase == "situation":
        banner(f"{where} · {tr('ekiden.ui.reveal_now')}")
        return
    team = engine.next_runner(state)
    order = " → ".join(
        team_label(state, t_)
        for t_ in reversed(engine.standings(state))
        if t_ not in {e.team for e in state.entries}
    )
    marks = "".join(MARK_SIGNS[m] for m in state.marks or ())
    banner(
        f"{where} · {marks} · {tr('ekiden.ui.to_play', team=team_label(state, team or 0))}"
        f" ({order})"
    )


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
    state: EkidenState = ctx.state
    seq = ctx.snapshot.seq
    labels = set(engine.rank_labels(state.teams))
    with st.container(border=True, key="situation_box"):
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
        st.button(
            tr("ekiden.ui.reveal"),
            key="reveal_go",
            type="primary",
            on_click=ctx.write_from(lambda: _card_as_marked(state.leg, seq)),
        )


def _card_as_marked(leg: int, seq: int) -> Situation:
    """The card as the five controls show it when Reveal is clicked."""
    marks = tuple(st.session_state.get(f"mark_{seq}_{rank}") or "-" for rank in range(1, 6))
    return Situation(leg, marks)  # type: ignore[arg-type]


def _runner(ctx: TableContext, team: int) -> None:
    state: EkidenState = ctx.state
    seq = ctx.snapshot.seq
    with st.container(border=True, key="runner_box"):
        title = md_tr("ekiden.ui.runner_label", team=team_label(state, team))
        st.markdown(f"**{title}**")
        roster = state.rosters[team]
        if roster is not None:
            picks = engine.legal_picks(state, team)
            pick = st.pills(
                tr("ekiden.ui.pick"),
                options=list(picks),
                format_func=lambda p: md_text(f"{p + 1}: {runner_text(roster[p], ctx.lang)}"),
                key=f"pick_{seq}",
            )
            chosen = roster[pick] if pick is not None else None

            def build() -> Run | None:
                picked = st.session_state.get(f"pick_{seq}")
                return None if picked is None else Run(team, state.leg, pick=int(picked))
        else:
            _typed_runner(seq, ctx.lang)
            chosen = _runner_as_typed(seq)
            ran = engine.leg_run_by(state, team, chosen.name)
            if ran is not None:
                who = team_label(state, team)
                st.warning(md_tr("ekiden.ui.name_ran", name=chosen.name, leg=ran, team=who))

            def build() -> Run | None:
                return Run(team, state.leg, runner=_runner_as_typed(seq))

        if chosen is not None:
            bonus, carried, declared = engine.declared_power(state, team, chosen)
            words = tr(
                "ekiden.ui.breakdown",
                power=chosen.power,
                skill=skill_name(chosen.skill, ctx.lang),
                bonus=f"{bonus:+d}",
                carried=f"{carried:+d}",
                declared=declared,
            )
            st.markdown(md_text(words))
        st.button(
            tr("ekiden.ui.play_runner"),
            key="run_go",
            type="primary",
            disabled=chosen is None,
            on_click=ctx.write_from(build),
        )


def _typed_runner(seq: int, lang: str) -> None:
    """The runner card's values, typed in (a team without a roster)."""
    d = load()
    st.segmented_control(
        tr("ekiden.ui.power"),
        options=list(range(d.power[0], d.power[1] + 1)),
        default=4,
        key=f"power_{seq}",
    )
    up_col, down_col, skill_col = st.columns([2, 2, 3])
    up_col.number_input(
        tr("ekiden.ui.up"), min_value=d.up[0], max_value=d.up[1], value=1, key=f"up_{seq}"
    )
    down_col.number_input(
        tr("ekiden.ui.down"), min_value=d.down[0], max_value=d.down[1], value=1, key=f"down_{seq}"
    )
    skill_col.selectbox(
        tr("ekiden.ui.skill"),
        options=[None, *SKILLS],
        format_func=lambda s: skill_name(s, lang),
        key=f"skill_{seq}",
    )
    st.text_input(tr("ekiden.ui.runner_name"), max_chars=NAME_MAX, key=f"name_{seq}")


def _runner_as_typed(seq: int) -> Runner:
    """The typed card as the inputs hold it now (at click time: what was last typed)."""
    get = st.session_state.get
    return Runner(
        int(get(f"power_{seq}") or 4),
        int(get(f"up_{seq}") or 0),
        int(get(f"down_{seq}") or 0),
        get(f"skill_{seq}"),
        str(get(f"name_{seq}") or "").strip(),
    )


ROSTER_FIELDS = ("power", "up", "down", "skill")


def _rosters(ctx: TableContext) -> None:
    """The draft's 10 runners per team (optional): a team's own link, or the referee."""
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
        current = state.rosters[team] or tuple(Runner(4, 1, 1) for _ in range(load().runners))
        rows = [
            {"power": r.power, "up": r.up, "down": r.down, "skill": r.skill or ""} for r in current
        ]
        key = f"roster_{ctx.snapshot.seq}_{team}"
        st.data_editor(
            rows,
            key=key,
            num_rows="fixed",
            column_config={
                "power": st.column_config.NumberColumn(
                    tr("ekiden.ui.power"), min_value=2, max_value=6, step=1
                ),
                "up": st.column_config.NumberColumn(tr("ekiden.ui.up"), min_value=0, max_value=9),
                "down": st.column_config.NumberColumn(
                    tr("ekiden.ui.down"), min_value=0, max_value=9
                ),
                "skill": st.column_config.SelectboxColumn(
                    tr("ekiden.ui.skill"), options=["", *SKILLS]
                ),
            },
        )
        st.button(
            tr("ekiden.ui.save_roster"),
            key="roster_go",
            on_click=ctx.write_from(lambda: _roster_as_edited(team, rows, key)),
        )


def _roster_as_edited(team: int, rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """The roster as the grid shows it when Save is clicked: its rows with the edits made."""
    edits = (st.session_state.get(key) or {}).get("edited_rows", {})
    runners = []
    for i, row in enumerate(rows):
        merged = {**row, **edits.get(i, edits.get(str(i), {}))}
        card = {f: merged[f] for f in ROSTER_FIELDS[:3]}
        runners.append(card | ({"skill": merged["skill"]} if merged.get("skill") else {}))
    return {"type": "roster", "team": team, "runners": runners}


def board(ctx: TableContext) -> None:
    """The road, standings, leg results and chart (``ekiden_board``)."""
    ekiden_board.board(ctx)
