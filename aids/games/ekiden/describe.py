"""The Ekiden's words: log lines and labels in Japanese or English."""

from __future__ import annotations

from aids.core.i18n import t
from aids.games.ekiden.data import load
from aids.games.ekiden.engine import standings
from aids.games.ekiden.model import Action, EkidenState, Entry, Roster, Run, Runner, Situation

MARK_SIGNS = {"o": "○", "-": "—", "x": "×"}


def team_label(state: EkidenState, team: int) -> str:
    """``🔴 Aki`` — the team's piece colour symbol and its name."""
    entry = state.setup.teams[team]
    colour = load().colour(entry.colour)
    return f"{colour.symbol if colour else ''} {entry.name}".strip()


def skill_name(skill: str | None, lang: str) -> str:
    return t(f"ekiden.skills.{skill or 'none'}", lang)


def runner_text(runner: Runner, lang: str) -> str:
    """``5 ↑3 ↓1 上り`` — power, up, down and skill, as printed on the card."""
    name = f"{runner.name} " if runner.name else ""
    return f"{name}{runner.power} ↑{runner.up} ↓{runner.down} {skill_name(runner.skill, lang)}"


def marks_text(marks: tuple[str, ...]) -> str:
    return "".join(MARK_SIGNS[m] for m in marks)


def find_entry(state: EkidenState, leg: int, team: int) -> Entry | None:
    """The runner ``team`` ran in ``leg`` (finished or under way)."""
    legs = [*state.history, state.entries]
    if not 1 <= leg <= len(legs):
        return None
    return next((e for e in legs[leg - 1] if e.team == team), None)


def describe(state: EkidenState, action: Action, lang: str) -> str:
    if isinstance(action, Situation):
        return t("ekiden.log.situation", lang, leg=action.leg, marks=marks_text(action.marks))
    if isinstance(action, Roster):
        return t("ekiden.log.roster", lang, team=team_label(state, action.team))
    assert isinstance(action, Run)
    entry = find_entry(state, action.leg, action.team)
    if entry is not None and (entry.pick, entry.runner if entry.pick is None else None) != (
        action.pick,
        action.runner,
    ):
        entry = None  # the log shows an undone run: the leg now holds another runner
    team = team_label(state, action.team)
    if entry is None:
        if action.runner is None:
            return t("ekiden.log.run_short", lang, team=team, leg=action.leg)
        card = runner_text(action.runner, lang)
        return t("ekiden.log.run_undone", lang, team=team, leg=action.leg, runner=card)
    return t(
        "ekiden.log.run",
        lang,
        team=team,
        leg=action.leg,
        runner=runner_text(entry.runner, lang),
        declared=entry.declared,
    )


def aftermath(before: EkidenState, after: EkidenState, lang: str) -> tuple[str, ...]:
    """What a step caused beyond its own line: a leg run to its end (the team with leg rank 1,
    the 区間賞), a new team in front, the relay over (its winner). Only the finished legs and
    the pieces' places are read: both are on the table for every viewer.

    >>> from aids.games.base import REFEREE
    >>> from aids.games.ekiden.game import GAME
    >>> from aids.games.ekiden.model import Run, Runner, Situation
    >>> state = GAME.initial_state(GAME.default_setup(["Aki", "Ben", "Chie"], "en"))
    >>> state = GAME.apply(state, Situation(1, ("o", "o", "o", "o", "o")), REFEREE)
    >>> for team, runner in ((0, Runner(3, 2, 1)), (1, Runner(6, 3, 1))):
    ...     state = GAME.apply(state, Run(team, 1, runner=runner), REFEREE)
    >>> last = GAME.apply(state, Run(2, 1, runner=Runner(4, 2, 1)), REFEREE)
    >>> aftermath(state, last, "en")
    ('🔵 Ben is fastest on leg 1', '🔵 Ben takes the lead')
    >>> aftermath(state, last, "ja")
    ('第1区の区間賞は 🔵 Ben', '🔵 Ben が首位に立つ')
    """
    said: list[str] = []
    if len(after.history) > len(before.history):
        fastest = after.history[-1][0].team  # a finished leg is kept in leg-rank order
        leg = len(after.history)
        said.append(t("ekiden.after.leg_won", lang, leg=leg, team=team_label(after, fastest)))
        leader = standings(after)[0]
        if after.phase != "over" and leader != standings(before)[0]:
            said.append(t("ekiden.after.lead", lang, team=team_label(after, leader)))
    if after.phase == "over" and before.phase != "over":
        said.append(t("ekiden.after.over", lang, team=team_label(after, standings(after)[0])))
    return tuple(said)
