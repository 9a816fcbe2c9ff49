"""Japan Rally on the game contract (``aids.games.base.Game``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from aids.core.errors import Forbidden
from aids.games.base import REFEREE, Game, GameInfo, Outcome, Role
from aids.games.paper import PaperForm, PaperResult
from aids.games.rally import engine, paper
from aids.games.rally.data import load
from aids.games.rally.describe import aftermath, describe
from aids.games.rally.model import (
    Action,
    EndRace,
    EndTurn,
    RallySetup,
    RallyState,
    action_from_dict,
)

if TYPE_CHECKING:  # the playouts (and the compiler they load) only when asked for
    from aids.games.rally.chances import RallyChances


RULINGS = (
    "rally.rulings.players",
    "rally.rulings.course",
    "rally.rulings.one_move",
    "rally.rulings.stop_anywhere",
    "rally.rulings.jam",
    "rally.rulings.no_motorcycles",
    "rally.rulings.police",
    "rally.rulings.no_duplicate",
    "rally.rulings.defence_any",
    "rally.rulings.port",
    "rally.rulings.arrival",
    "rally.rulings.seventh",
    "rally.rulings.end",
    "rally.rulings.ferry_distance",
)


class Rally(Game[RallySetup, RallyState, Action]):
    """Japan Rally: each seat drives one machine from the course's start town to its goal.
    The seat to act (or the referee for it) records the draw, its cards and the end of its
    turn; the referee may end the race at any time."""

    info: ClassVar[GameInfo] = GameInfo(
        kind="rally",
        seats=(load().min_players, load().max_players),
        rulings=RULINGS,
        hidden=True,
        seat_keys=True,
        sheet_orientation="portrait",
    )

    def setup_from_dict(self, raw: object) -> RallySetup:
        return RallySetup.from_dict(raw)

    def default_setup(self, names: Sequence[str], lang: str) -> RallySetup:
        return RallySetup.default(list(names))

    def seat_names(self, setup: RallySetup) -> tuple[str, ...]:
        return tuple(p.name for p in setup.players)

    def action_from_dict(self, raw: object) -> Action:
        return action_from_dict(raw)

    def actor_of(self, action: Action) -> Role:
        return REFEREE if isinstance(action, EndRace) else Role.seat_of(action.seat)

    def initial_state(self, setup: RallySetup) -> RallyState:
        return engine.initial_state(setup)

    def to_move(self, state: RallyState) -> frozenset[Role]:
        if state.phase == "over":
            return frozenset()
        return frozenset({Role.seat_of(state.turn), REFEREE})

    def legal_actions(self, state: RallyState, actor: Role) -> Sequence[Action]:
        return engine.legal_actions(state, actor)

    def apply(self, state: RallyState, action: Action, actor: Role) -> RallyState:
        expected = self.actor_of(action)
        if not (actor.is_referee or actor == expected):
            raise Forbidden("table/wrong_actor", actor=str(actor), expected=str(expected))
        return engine.apply(state, action)

    def outcome(self, state: RallyState) -> Outcome | None:
        if state.phase != "over":
            return None
        reason = "ended" if state.ended else "arrived"
        if not state.setup.teams:
            return Outcome(reason, engine.placings(state), engine.place_points(state))
        totals = engine.team_totals(state)
        scores = tuple(totals[p.team or 0] for p in state.setup.players)
        order = sorted(set(totals), reverse=True)
        ranking = tuple(
            tuple(s for s in range(state.players) if scores[s] == total) for total in order
        )
        return Outcome(reason, ranking, scores)

    def paper_form(self, setup: RallySetup, scored: bool) -> PaperForm:
        return paper.paper_form(setup)

    def paper_outcome(self, setup: RallySetup, result: PaperResult, scored: bool) -> Outcome:
        return paper.paper_outcome(setup, result)

    def chances(self, history: Sequence[RallyState]) -> RallyChances:
        from aids.games.rally.chances import RallyChances

        return RallyChances(history)

    def view(self, state: RallyState, role: Role) -> RallyState:
        return engine.view(state, role)

    def view_action(self, state: RallyState, action: Action, role: Role) -> Action | None:
        # A simulation lists discarded cards: only the referee and the player see which.
        hidden = not (role.is_referee or role == self.actor_of(action))
        if hidden and isinstance(action, EndTurn) and action.discard:
            return replace(action, discard=(), discard_count=len(action.discard))
        return action

    def describe(self, state: RallyState, action: Action, lang: str) -> str:
        return describe(state, action, lang)

    def aftermath(self, before: RallyState, after: RallyState, lang: str) -> tuple[str, ...]:
        return aftermath(before, after, lang)


GAME = Rally()
