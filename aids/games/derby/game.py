"""The Derby on the game contract (``aids.games.base.Game``): what the app asks of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from aids.core.errors import Forbidden
from aids.games.base import CHANCE, REFEREE, Game, GameInfo, Outcome, Role, rank_by_score
from aids.games.derby import engine, paper
from aids.games.derby.data import load
from aids.games.derby.describe import aftermath, describe
from aids.games.derby.model import (
    RULES_VERSIONS,
    Action,
    DerbySetup,
    DerbyState,
    NoCardsLeft,
    Pass,
    PlayCard,
    action_from_dict,
)
from aids.games.paper import PaperForm, PaperResult

if TYPE_CHECKING:  # the playouts (and the compiler they load) only when asked for
    from aids.games.derby.chances import DerbyChances


RULINGS = (
    "derby.rulings.one_per_slot",
    "derby.rulings.tie_farthest",
    "derby.rulings.share_win",
    "derby.rulings.pass_tracking",
    "derby.rulings.no_cards_left",
)


class Derby(Game[DerbySetup, DerbyState, Action]):
    """Grand National Derby: bets and cards are made by the seat to act; the referee may
    declare "no cards left" (tracking mode). No chance: the shuffle of a simulation is fixed by
    its stored seed, and a tracked race records only what was played."""

    info: ClassVar[GameInfo] = GameInfo(
        kind="derby",
        seats=(load().min_players, load().max_players),
        rulings=RULINGS,
        rules_versions=RULES_VERSIONS,
    )

    def setup_from_dict(self, raw: object) -> DerbySetup:
        return DerbySetup.from_dict(raw)

    def default_setup(self, names: Sequence[str], lang: str) -> DerbySetup:
        return DerbySetup.default(list(names), lang=lang)

    def in_language(self, state: DerbyState, lang: str) -> DerbyState:
        setup = state.setup.in_language(lang)
        return state if setup is state.setup else replace(state, setup=setup)

    def seat_names(self, setup: DerbySetup) -> tuple[str, ...]:
        return tuple(p.name for p in setup.players)

    def action_from_dict(self, raw: object) -> Action:
        return action_from_dict(raw)

    def actor_of(self, action: Action) -> Role:
        return REFEREE if isinstance(action, NoCardsLeft) else Role.seat_of(action.player)

    def initial_state(self, setup: DerbySetup) -> DerbyState:
        return engine.initial_state(setup)

    def initial_state_for(self, setup: DerbySetup, rules_version: int) -> DerbyState:
        return engine.initial_state(setup, rules_version)

    def to_move(self, state: DerbyState) -> frozenset[Role]:
        if engine.is_over(state):
            return frozenset()
        seat = Role.seat_of(state.turn)
        return (
            frozenset({seat, REFEREE}) if engine.can_declare_no_cards(state) else frozenset({seat})
        )

    def legal_actions(self, state: DerbyState, actor: Role) -> Sequence[Action]:
        if actor.is_referee:
            if not engine.can_declare_no_cards(state):
                return []
            return [NoCardsLeft(confirm=engine.no_cards_needs_confirm(state))]
        if actor != Role.seat_of(state.turn):
            return []
        return engine.legal_actions(state)

    def apply(self, state: DerbyState, action: Action, actor: Role) -> DerbyState:
        expected = self.actor_of(action)
        if actor == CHANCE or not (actor.is_referee or actor == expected):
            raise Forbidden("table/wrong_actor", actor=str(actor), expected=str(expected))
        return engine.apply(state, action)

    def outcome(self, state: DerbyState) -> Outcome | None:
        if state.ended is None:
            return None
        scores = engine.scores(state)
        return Outcome(state.ended, rank_by_score(scores), scores)

    def paper_form(self, setup: DerbySetup, scored: bool) -> PaperForm:
        return paper.paper_form(setup, scored)

    def paper_outcome(self, setup: DerbySetup, result: PaperResult, scored: bool) -> Outcome:
        return paper.paper_outcome(setup, result, scored)

    def chances(self, history: Sequence[DerbyState]) -> DerbyChances:
        from aids.games.derby.chances import DerbyChances

        return DerbyChances(history)

    def view(self, state: DerbyState, role: Role) -> DerbyState:
        return engine.view(state, role)

    def view_action(self, state: DerbyState, action: Action, role: Role) -> Action | None:
        # A simulation lists discarded cards: only the referee and the player see which.
        hidden = not (role.is_referee or role == self.actor_of(action))
        if hidden and isinstance(action, PlayCard | Pass) and action.discard:
            return replace(action, discard=(), discard_count=len(action.discard))
        return action

    def describe(self, state: DerbyState, action: Action, lang: str) -> str:
        return describe(state, action, lang)

    def aftermath(self, before: DerbyState, after: DerbyState, lang: str) -> tuple[str, ...]:
        return aftermath(before, after, lang)


GAME = Derby()
