"""Small builders for Ekiden tests."""

from __future__ import annotations

from typing import Any

from aids.games.ekiden import engine
from aids.games.ekiden.model import (
    EkidenSetup,
    EkidenState,
    Run,
    Runner,
    Situation,
    Terrain,
    action_from_dict,
)

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]


def setup(teams: int = 3, start: int = 0, course: list[Terrain] | None = None) -> EkidenSetup:
    base = EkidenSetup.default(NAMES[:teams], start=start)
    if course is None:
        return base
    return EkidenSetup(
        base.teams, base.start, tuple(course + [Terrain("flat")] * (10 - len(course)))
    )


def runner(power: int, up: int = 1, down: int = 1, skill: Any = None) -> Runner:
    return Runner(power, up, down, skill)


def reveal(state: EkidenState, marks: str) -> EkidenState:
    return engine.apply(state, action_from_dict({"type": "situation", "leg": state.leg,
                                                 "marks": marks}))  # fmt: skip


def run(state: EkidenState, team: int, r: Runner) -> EkidenState:
    return engine.apply(state, Run(team, state.leg, runner=r))


def situation(state: EkidenState, marks: str) -> Situation:
    action = action_from_dict({"type": "situation", "leg": state.leg, "marks": marks})
    assert isinstance(action, Situation)
    return action
