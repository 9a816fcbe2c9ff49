"""The Ekiden's sheets: a team sheet per team and the referee's summary of every leg.

The print frame draws the paper, the header and the QR code; this module gives the body. A
team sheet lists the 10 legs (terrain, runner, power, skill bonus, declared power, leg rank,
mark, move, column, standing) beside a roster box for the draft; the summary gives every team
per leg. Blank, the sheets leave room to write; for a table they are filled as far as the
relay has gone (a team's unplayed roster stays off paper: a printed sheet is public).
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Spacer, Table, TableStyle

from aids.core.i18n import t
from aids.games.ekiden import GAME, engine
from aids.games.ekiden.data import load
from aids.games.ekiden.describe import MARK_SIGNS, skill_name
from aids.games.ekiden.model import EkidenState, Entry, Terrain
from aids.print.cells import FAINT, Dot, Grid, SeatMark, TextBox, ruled, unruled
from aids.print.frame import Styles, rulings
from aids.tables import Snapshot

ROW = 10.4 * mm
HEAD = 9 * mm
LEG_WEIGHTS = [7, 13, 34, 10, 16, 10, 12, 11, 9, 10, 10, 11]
ROSTER_WEIGHTS = [6, 26, 9, 8, 8, 19]


def _c(text: str, size: float = 9, **kw: Any) -> TextBox:
    return TextBox(text, size, align="centre", **kw)


def terrain_text(terrain: Terrain, lang: str) -> str:
    return t(f"ekiden.terrain.{terrain.slope}", lang, n=terrain.n)


def story(snapshot: Snapshot | None, lang: str, width: float, styles: Styles) -> list[Flowable]:
    """One team sheet per team (one blank team sheet before game night), then the summary."""
    state: EkidenState | None = snapshot.state if snapshot is not None else None
    teams = range(state.teams) if state is not None else [None]
    out: list[Flowable] = []
    for team in teams:
        out += [_team_title(state, team, lang), Spacer(1, 2 * mm)]
        legs, roster = _legs(state, team, lang, width * 0.71), _roster(lang, width * 0.27)
        out.append(_side_by_side(legs, roster, width))
        out.append(PageBreak())
    out += [_summary(state, lang, width), Spacer(1, 3 * mm), *rulings(GAME, lang, styles)]
    return out


def _side_by_side(left: Flowable, right: Flowable, width: float) -> Table:
    table = Grid([[left, right]], colWidths=[width * 0.72, width * 0.28])
    table.setStyle(TableStyle([*unruled(), ("LEFTPADDING", (1, 0), (1, 0), 2 * mm)]))
    return table


def _team_title(state: EkidenState | None, team: int | None, lang: str) -> TextBox:
    if state is None or team is None:
        return TextBox(t("ekiden.sheet.team_blank", lang), 12)
    entry = state.setup.teams[team]
    colour = load().colour(entry.colour)
    mark = SeatMark(team + 1, colour.hex if colour else None, side=13)
    name = f"{entry.name} ({colour.name(lang) if colour else entry.colour})"
    return TextBox(t("ekiden.sheet.team", lang, name=name), 12, mark=mark, max_lines=1)


def _legs(state: EkidenState | None, team: int | None, lang: str, width: float) -> Table:
    keys = [
        "leg",
        "terrain",
        "runner",
        "power",
        "skill",
        "bonus",
        "declared",
        "rank",
        "mark",
        "move",
        "column",
        "standing",
    ]
    head = [_c(t(f"ekiden.sheet.{k}", lang), 7.5, max_lines=2) for k in keys]
    rows: list[list[Any]] = [head]
    for leg in range(1, load().legs + 1):
        terrain = state.setup.course[leg - 1] if state else None
        entry = _entry(state, team, leg)
        rows.append(
            [
                _c(str(leg), 10),
                _c(terrain_text(terrain, lang) if terrain else "", 8),
                *_entry_cells(entry, lang),
            ]
        )
    unit = width / sum(LEG_WEIGHTS)
    table = Grid(
        rows, colWidths=[w * unit for w in LEG_WEIGHTS], rowHeights=[HEAD] + [ROW] * load().legs
    )
    style = ruled(1)
    style += [
        ("LINEAFTER", (1, 0), (1, -1), 1.4, "#000000"),
        ("LINEAFTER", (6, 0), (6, -1), 1.4, "#000000"),
        ("LINEBELOW", (0, 5), (-1, 5), 1.4, "#000000"),
    ]  # outbound | return
    table.setStyle(TableStyle(style))
    return table


def _entry(state: EkidenState | None, team: int | None, leg: int) -> Entry | None:
    if state is None or team is None:
        return None
    legs = [*state.history, state.entries]
    if leg > len(legs):
        return None
    return next((e for e in legs[leg - 1] if e.team == team), None)


def _entry_cells(entry: Entry | None, lang: str) -> list[Any]:
    if entry is None:
        return ["", "", "", "", "", "", "", "", "", ""]
    runner = entry.runner
    card = f"{runner.name + ' ' if runner.name else ''}↑{runner.up} ↓{runner.down}"
    bonus = entry.skill_bonus + entry.commander_bonus
    done = entry.place is not None
    return [
        _c(card, 8, max_lines=1),
        _c(str(runner.power), 10),
        _c(skill_name(runner.skill, lang), 7.5, max_lines=2),
        _c(f"{bonus:+d}" if bonus else "0", 10),
        _c(str(entry.declared), 11),
        _c(str(entry.rank) if done else "", 10),
        _c(MARK_SIGNS[entry.mark] if entry.mark else "", 11),
        _c((f"{entry.move:+d}" if entry.move else "0") if done else "", 10),
        _c(str(entry.place.column) if entry.place else "", 10),
        _c(str(entry.standing) if done else "", 10),
    ]


def _roster(lang: str, width: float) -> Table:
    """The draft box: ten runner cards to write in (the roster itself stays private)."""
    keys = ["pick", "name", "power", "up", "down", "skill"]
    head = [_c(t(f"ekiden.sheet.roster_{k}", lang), 7, max_lines=2) for k in keys]
    rows: list[list[Any]] = [head] + [
        [_c(str(i), 9, colour=FAINT), "", "", "", "", ""] for i in range(1, load().runners + 1)
    ]
    unit = width / sum(ROSTER_WEIGHTS)
    table = Grid(
        rows,
        colWidths=[w * unit for w in ROSTER_WEIGHTS],
        rowHeights=[HEAD] + [ROW] * load().runners,
    )
    table.setStyle(TableStyle(ruled(1)))
    return table


def _summary(state: EkidenState | None, lang: str, width: float) -> Flowable:
    """Every team per leg: declared power, leg rank and standing after the leg."""
    d = load()
    teams = state.teams if state is not None else d.max_teams
    head: list[Any] = [
        _c(t("ekiden.sheet.leg", lang), 7.5),
        _c(t("ekiden.sheet.terrain", lang), 7.5),
    ]
    for team in range(teams):
        if state is None:
            head.append(_c(f"{team + 1}", 9, mark=SeatMark(team + 1, None)))
            continue
        who = state.setup.teams[team]
        colour = d.colour(who.colour)
        head.append(
            TextBox(who.name, 8.5, mark=Dot(colour.hex if colour else "#ffffff"), max_lines=2)
        )
    rows: list[list[Any]] = [head]
    for leg in range(1, d.legs + 1):
        terrain = state.setup.course[leg - 1] if state else None
        row: list[Any] = [_c(str(leg), 9), _c(terrain_text(terrain, lang) if terrain else "", 8)]
        for team in range(teams):
            entry = _entry(state, team, leg)
            if entry is None or entry.place is None:
                row.append("")
                continue
            row.append(
                _c(
                    t(
                        "ekiden.sheet.cell",
                        lang,
                        declared=entry.declared,
                        rank=entry.rank,
                        standing=entry.standing,
                    ),
                    8,
                    max_lines=1,
                )
            )
        rows.append(row)
    final: list[Any] = [_c(t("ekiden.sheet.final", lang), 7.5, max_lines=2), ""]
    over = state is not None and engine.is_over(state)
    for team in range(teams):
        final.append(_c(str(engine.standing_of(state, team)), 12) if over and state else "")
    rows.append(final)
    first = width * 0.07
    rest = (width - 2 * first) / teams
    table = Grid(
        rows,
        colWidths=[first, first] + [rest] * teams,
        rowHeights=[HEAD] + [7.2 * mm] * d.legs + [HEAD],
    )
    table.setStyle(
        TableStyle(
            [*ruled(1), ("SPAN", (0, -1), (1, -1)), ("LINEBELOW", (0, 5), (-1, 5), 1.4, "#000000")]
        )
    )
    return table


# --- the rule cards' numbers and tables (aids.print.cards), from the same seed as the engine ---


def card_values() -> dict[str, str]:
    d = load()
    return {
        "teams_min": str(d.min_teams),
        "teams_max": str(d.max_teams),
        "legs": str(d.legs),
        "runners": str(d.runners),
        "power_min": str(d.power[0]),
        "power_max": str(d.power[1]),
    }


def card_table(table: str, lang: str) -> list[list[str]]:
    """``skills``: each skill and its modifier; ``rank_labels``: the leg ranks given out."""
    d = load()
    if table == "rank_labels":
        head = [t("ekiden.cards.teams", lang), t("ekiden.cards.ranks", lang)]
        rows = [[str(n), " · ".join(map(str, d.rank_labels[n]))] for n in sorted(d.rank_labels)]
        return [head, *rows]
    values = {
        "outbound": d.outbound_bonus, "return": d.return_bonus, "anchor": d.anchor_bonus,
        "leg": d.anchor_leg, "front": d.front_runner_bonus, "commander": d.commander_next_leg,
        "first": d.outbound[0], "last_out": d.outbound[-1], "first_back": d.return_legs[0],
        "last": d.return_legs[-1],
    }  # fmt: skip
    head = [t("ekiden.cards.skill", lang), t("ekiden.cards.effect", lang)]
    from aids.games.ekiden.model import SKILLS

    return [head, *([skill_name(s, lang), t(f"ekiden.cards.effect_{s}", lang, **values)]
                    for s in SKILLS)]  # fmt: skip
