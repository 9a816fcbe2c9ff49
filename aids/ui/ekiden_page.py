"""The Ekiden's parts of the table page: setup fields, status, record controls, the road.

The frame (``aids.ui.frame``) draws everything else. The page asks the engine who plays next,
which roster runners are left and what a runner would declare; it never re-derives a rule.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from aids.core.i18n import Lang, t
from aids.games.base import Role
from aids.games.ekiden import engine
from aids.games.ekiden.data import load
from aids.games.ekiden.describe import MARK_SIGNS, runner_text, skill_name, team_label
from aids.games.ekiden.model import MARKS, SKILLS, EkidenState, Run, Runner, Situation, Terrain
from aids.ui.common import banner, esc, plain, tr
from aids.ui.context import TableContext
from aids.ui.layout import names_with_colours

# --- setup ---------------------------------------------------------------------------------


def setup_fields(lang: Lang) -> dict[str, Any]:
    """Teams in seat order with piece colours, the start player, the five course cards."""
    d = load()
    st.markdown(f"**{esc(t('ekiden.ui.teams_seat_order', lang))}**")
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
    st.markdown(f"**{esc(t('ekiden.ui.course_cards', lang))}**")
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
            st.caption(plain(tr("ekiden.ui.wait_turn", team=team_label(state, team))))
    if engine.roster_open(state):
        _rosters(ctx)


def _situation(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    seq = ctx.snapshot.seq
    labels = set(engine.rank_labels(state.teams))
    with st.container(border=True, key="situation_box"):
        st.markdown(f"**{plain(tr('ekiden.ui.situation_label', leg=state.leg))}**")
        for rank in range(1, 6):  # one row per leg rank, as printed on the card
            label_col, marks_col = st.columns([1, 3], vertical_alignment="center")
            used = "" if rank in labels else " ·"
            label_col.markdown(plain(tr("ekiden.ui.rank_n", n=rank) + used))
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
        title = tr("ekiden.ui.runner_label", team=team_label(state, team))
        st.markdown(f"**{plain(title)}**")
        roster = state.rosters[team]
        if roster is not None:
            picks = engine.legal_picks(state, team)
            pick = st.pills(
                tr("ekiden.ui.pick"),
                options=list(picks),
                format_func=lambda p: plain(f"{p + 1}: {runner_text(roster[p], ctx.lang)}"),
                key=f"pick_{seq}",
            )
            chosen = roster[pick] if pick is not None else None

            def build() -> Run | None:
                picked = st.session_state.get(f"pick_{seq}")
                return None if picked is None else Run(team, state.leg, pick=int(picked))
        else:
            _typed_runner(seq, ctx.lang)
            chosen = _runner_as_typed(seq)

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
            st.markdown(plain(words))
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


def _runner_as_typed(seq: int) -> Runner:
    """The typed card as the inputs hold it now (at click time: what was last typed)."""
    get = st.session_state.get
    return Runner(
        int(get(f"power_{seq}") or 4),
        int(get(f"up_{seq}") or 0),
        int(get(f"down_{seq}") or 0),
        get(f"skill_{seq}"),
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


# --- the road, standings, legs, chart --------------------------------------------------------

SIDE_KEYS = {"L": "ekiden.ui.side_L", "R": "ekiden.ui.side_R"}
ROAD_CSS = """
<style>
.road { overflow-x: auto; }
.road.ahead { direction: rtl; }  /* opens scrolled to the far end, where the leaders run */
.road.ahead > table { direction: ltr; }
table.road { border-collapse: collapse; font-size: 12px; }
table.road td { border: 1px solid #c9ccd1; min-width: 12px; height: 34px;
  vertical-align: middle; padding: 0 1px; white-space: nowrap; }
table.road td.l { text-align: right; border-right: 2px dashed #777; }
table.road td.r { text-align: left; border-left: 0; }
table.road td.start { background: #fff4c2; }
table.road td.off { background: #f2f2f2; color: #555; }
table.road th { font-weight: 400; color: #444; font-size: 11px; }
.piece { display: inline-block; width: 20px; height: 20px; border-radius: 10px; color: #fff;
  font-weight: 700; line-height: 20px; font-size: 12px; margin: 0 1px; text-align: center; }
.piece.light { color: #111; }
table.legs { border-collapse: collapse; font-size: 13px; }
table.legs td, table.legs th { padding: 2px 6px; white-space: nowrap; text-align: center; }
@media (max-width: 480px) {
  table.road th { font-size: 8px; }
  table.road td { min-width: 4px; height: 26px; }
  .piece { width: 15px; height: 15px; line-height: 15px; font-size: 9px; border-radius: 8px; }
}
</style>
"""


def board(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    _road(state)
    _standings(ctx)
    if state.history:
        _legs(ctx)
        _chart(ctx)


def _road(state: EkidenState) -> None:
    """The printed road's 27 columns, each split by its centre line: the pieces stand on the
    side they crossed to, nearest the line first; columns past the printed road are grey."""
    d = load()
    half = d.road_half
    columns = range(
        min(-half, *(p.column for p in state.places)),
        max(half, *(p.column for p in state.places)) + 1,
    )
    side = engine.side_after(len(state.history))
    head, cells = [], []
    for column in columns:
        head.append(f'<th colspan="2">{column:+d}</th>' if column else '<th colspan="2">S</th>')
        here = sorted(
            (t_ for t_ in range(state.teams) if state.places[t_].column == column),
            key=lambda t_: state.places[t_].slot,
        )
        # left of the line the nearest piece is the rightmost; right of it, the leftmost
        pieces = "".join(_piece(state, t_) for t_ in (reversed(here) if side == "L" else here))
        css = "start" if column == 0 else ("off" if abs(column) > half else "")
        left, right = (pieces, "") if side == "L" else ("", pieces)
        cells.append(f'<td class="l {css}">{left}</td><td class="r {css}">{right}</td>')
    ahead = max(p.column for p in state.places) > 2  # the leaders are out ahead: show them
    st.html(
        f'{ROAD_CSS}<div class="road{" ahead" if ahead else ""}"><table class="road">'
        f"<tr>{''.join(head)}</tr><tr>{''.join(cells)}</tr></table></div>"
    )
    st.caption(tr("ekiden.ui.road_note", side=tr(SIDE_KEYS[side])))
    if any(abs(p.column) > half for p in state.places):
        st.warning(tr("ekiden.ui.past_road"))


def _piece(state: EkidenState, team: int) -> str:
    colour = load().colour(state.setup.teams[team].colour)
    hex_ = colour.hex if colour else "#777"
    light = " light" if colour and colour.key == "yellow" else ""
    name = esc(state.setup.teams[team].name)
    return f'<span class="piece{light}" style="background:{hex_}" title="{name}">{team + 1}</span>'


def _standings(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    rows = []
    for place, team in enumerate(engine.standings(state), start=1):
        p = state.places[team]
        rows.append(
            f"<tr><td>{place}</td><td>{esc(team_label(state, team))}</td>"
            f"<td>{p.column:+d}</td></tr>"
        )
    keys = ("ekiden.sheet.standing", "ekiden.ui.team", "ekiden.sheet.column")
    head = "".join(f"<th>{esc(tr(k))}</th>" for k in keys)
    st.html(f"<table><tr>{head}</tr>{''.join(rows)}</table>")


def _legs(ctx: TableContext) -> None:
    state: EkidenState = ctx.state
    with st.expander(tr("ekiden.ui.leg_results"), expanded=True):
        head = "".join(f"<th>{esc(team_label(state, t_))}</th>" for t_ in range(state.teams))
        rows = []
        for leg, results in enumerate(state.history, start=1):
            by_team = {e.team: e for e in results}
            texts = [
                tr("ekiden.sheet.cell", declared=e.declared, rank=e.rank, standing=e.standing)
                for e in (by_team[t_] for t_ in range(state.teams))
            ]
            cells = "".join(f"<td>{esc(text)}</td>" for text in texts)
            rows.append(f"<tr><td>{leg}</td>{cells}</tr>")
        out = engine.columns_gained(state, load().outbound)
        back = engine.columns_gained(state, load().return_legs)
        gained = "".join(f"<td>{o:+d} / {b:+d}</td>" for o, b in zip(out, back, strict=True))
        rows.append(f"<tr><td>{esc(tr('ekiden.ui.out_back'))}</td>{gained}</tr>")
        st.html(
            f'{ROAD_CSS}<div class="road"><table class="legs"><tr><th>#</th>{head}</tr>'
            f"{''.join(rows)}</table></div>"
        )
        _leg_detail(ctx)


DETAIL = ("runner", "power", "bonus", "declared", "rank", "mark", "move", "column", "standing")


def _leg_detail(ctx: TableContext) -> None:
    """One finished leg in full, in leg-rank order: each team's runner, the declared power's
    breakdown, the leg rank and mark read there, the move, the column and the standing."""
    state: EkidenState = ctx.state
    leg = st.selectbox(
        tr("ekiden.ui.leg_detail"),
        options=list(range(len(state.history), 0, -1)),
        format_func=lambda n: t("ekiden.ui.leg_n", ctx.lang, n=n),  # AppTest formats later
        key="leg_detail",
    )
    words = [tr("ekiden.ui.team"), *(tr(f"ekiden.sheet.{k}") for k in DETAIL)]
    head = "".join(f"<th>{esc(w)}</th>" for w in words)
    rows = []
    for e in state.history[(leg or 1) - 1]:
        bonus = e.skill_bonus + e.commander_bonus
        cells = [
            team_label(state, e.team),
            runner_text(e.runner, ctx.lang),
            str(e.runner.power),
            f"{bonus:+d}" if bonus else "0",
            str(e.declared),
            str(e.rank),
            MARK_SIGNS[e.mark] if e.mark else "",
            f"{e.move:+d}" if e.move else "0",
            f"{e.place.column:+d}" if e.place else "",
            str(e.standing),
        ]
        rows.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    st.html(
        f'{ROAD_CSS}<div class="road"><table class="legs"><tr>{head}</tr>'
        f"{''.join(rows)}</table></div>"
    )


def _chart(ctx: TableContext) -> None:
    """順位変動: the standing after each leg, a line per team (1 at the top)."""
    state: EkidenState = ctx.state
    data = [
        {"leg": leg, "standing": standing, "team": state.setup.teams[team].name}
        for leg, row in enumerate(engine.standing_after_each_leg(state), start=1)
        for team, standing in enumerate(row)
    ]
    colours = [load().colour(team.colour) for team in state.setup.teams]
    scale = alt.Scale(
        domain=[t_.name for t_ in state.setup.teams],
        range=[c.hex if c else "#777" for c in colours],
    )
    chart = (
        alt.Chart(pd.DataFrame(data), title=tr("ekiden.ui.rank_changes"))
        .mark_line(point=True)
        .encode(
            x=alt.X("leg:O", title=tr("ekiden.sheet.leg")),
            y=alt.Y(
                "standing:Q",
                title=tr("ekiden.sheet.standing"),
                scale=alt.Scale(reverse=True, domain=[1, state.teams]),
                axis=alt.Axis(tickMinStep=1),
            ),
            color=alt.Color("team:N", scale=scale, title=tr("ekiden.ui.team")),
            strokeDash=alt.StrokeDash("team:N", legend=None),  # tells lines apart without colour
        )
        .properties(height=220)
    )
    st.altair_chart(chart, width="stretch")
