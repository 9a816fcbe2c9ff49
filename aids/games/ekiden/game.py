"""The Ekiden on the game contract (``aids.games.base.Game``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from aids.core.errors import Forbidden
from aids.games.base import CHANCE, Game, GameInfo, Outcome, Role
from aids.games.ekiden import engine, paper
from aids.games.ekiden.chances import EkidenChances
from aids.games.ekiden.data import load
from aids.games.ekiden.describe import aftermath, describe
from aids.games.ekiden.model import (
    Action,
    EkidenSetup,
    EkidenState,
    Roster,
    Situation,
    action_from_dict,
)
from aids.games.paper import PaperForm, PaperResult

RULINGS = (
    "ekiden.rulings.no_skill",
    "ekiden.rulings.terrain",
    "ekiden.rulings.two_players",
    "ekiden.rulings.not_clamped",
    "ekiden.rulings.slope_size",
    "ekiden.rulings.past_the_road",
)


class Ekiden(Game[EkidenSetup, EkidenState, Action]):
    """Hakone Ekiden: the referee records each leg's situation card (chance) and each team's
    runner, in standing order from last to first; a team may enter its drafted roster with its
    own link, hidden from the other teams until its runners are played."""

    info: ClassVar[GameInfo] = GameInfo(
        kind="ekiden",
        seats=(load().min_teams, load().max_teams),
        rulings=RULINGS,
        hidden=True,
        seat_keys=True,
        sheet_orientation="landscape",
    )

    def setup_from_dict(self, raw: object) -> EkidenSetup:
        return EkidenSetup.from_dict(raw)

    def default_setup(self, names: Sequence[str], lang: str) -> EkidenSetup:
        return EkidenSetup.default(list(names))

    def seat_names(self, setup: EkidenSetup) -> tuple[str, ...]:
        return tuple(t.name for t in setup.teams)

    def action_from_dict(self, raw: object) -> Action:
        return action_from_dict(raw)

    def actor_of(self, action: Action) -> Role:
        return CHANCE if isinstance(action, Situation) else Role.seat_of(action.team)

    def initial_state(self, setup: EkidenSetup) -> EkidenState:
        return engine.initial_state(setup)

    def to_move(self, state: EkidenState) -> frozenset[Role]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "situation":
            return frozenset({CHANCE})
        team = engine.next_runner(state)
        return frozenset({Role.seat_of(team)}) if team is not None else frozenset()

    def legal_actions(self, state: EkidenState, actor: Role) -> Sequence[Action]:
        if actor not in self.to_move(state):
            return []
        return engine.legal_actions(state)

    def apply(self, state: EkidenState, action: Action, actor: Role) -> EkidenState:
        expected = self.actor_of(action)
        if actor == CHANCE or not (actor.is_referee or actor == expected):
            raise Forbidden("table/wrong_actor", actor=str(actor), expected=str(expected))
        return engine.apply(state, action)

    def outcome(self, state: EkidenState) -> Outcome | None:
        if state.phase != "over":
            return None
        order = engine.standings(state)
        columns = tuple(p.column for p in state.places)
        return Outcome("finish", tuple((team,) for team in order), columns)

    def paper_form(self, setup: EkidenSetup, scored: bool) -> PaperForm:
        return paper.paper_form(setup, scored)

    def paper_outcome(self, setup: EkidenSetup, result: PaperResult, scored: bool) -> Outcome:
        return paper.paper_outcome(setup, result, scored)

    def chances(self, history: Sequence[EkidenState]) -> EkidenChances:
        """Every runner and situation card already seen is in the newest state's legs: the
        model needs no more of ``history``."""
        return EkidenChances()

    def view(self, state: EkidenState, role: Role) -> EkidenState:
        """A team's unplayed runners are its own (and the referee's) to see."""
        if role.is_referee or state.phase == "over":
            return state
        rosters = tuple(
            roster if role == Role.seat_of(team) else None
            for team, roster in enumerate(state.rosters)
        )
        return replace(state, rosters=rosters)

    def view_action(self, state: EkidenState, action: Action, role: Role) -> Action | None:
        hidden = isinstance(action, Roster) and not (
            role.is_referee or role == Role.seat_of(action.team) or state.phase == "over"
        )
        return None if hidden else action

    def describe(self, state: EkidenState, action: Action, lang: str) -> str:
        return describe(state, action, lang)

    def aftermath(self, before: EkidenState, after: EkidenState, lang: str) -> tuple[str, ...]:
        return aftermath(before, after, lang)


GAME = Ekiden()
