"""Grand National on the game contract (``aids.games.base.Game``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from aids.core.errors import Forbidden
from aids.games.base import CHANCE, REFEREE, Game, GameInfo, Outcome, Role, rank_by_score
from aids.games.grand_national import engine, paper
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import aftermath, describe
from aids.games.grand_national.model import (
    Action,
    Bet,
    BlindBet,
    GnSetup,
    GnState,
    Going,
    LaneSpin,
    PullUp,
    SetOdds,
    Spin,
    action_from_dict,
)
from aids.games.paper import PaperForm, PaperResult

if TYPE_CHECKING:  # the playouts (and the compiler they load) only when asked for
    from aids.games.grand_national.chances import GnChances


RULINGS = (
    "gn.rulings.stables",
    "gn.rulings.blind_odds",
    "gn.rulings.payout",
    "gn.rulings.handicap_entered",
    "gn.rulings.clamp",
    "gn.rulings.odds_board",
    "gn.rulings.ring",
    "gn.rulings.too_free",
    "gn.rulings.too_free_once",
    "gn.rulings.back_of_pack",
    "gn.rulings.starting_price",
    "gn.rulings.cards",
    "gn.rulings.rounding",
    "gn.rulings.squares",
    "gn.rulings.route",
    "gn.rulings.no_blind_bet",
)


class GrandNational(Game[GnSetup, GnState, Action]):
    """Grand National: stables buy their horses as dealt (the setup), write blind bets with
    their own links (sealed even from the referee), then the referee records the going, the
    lane spins, the market (handicaps, the bookmaker's odds, bets) and the race."""

    info: ClassVar[GameInfo] = GameInfo(
        kind="gn",
        seats=(load().min_stables, load().max_stables),
        rulings=RULINGS,
        simultaneous=True,
        hidden=True,
        seat_keys=True,
        sheet_orientation="portrait",
    )

    def setup_from_dict(self, raw: object) -> GnSetup:
        return GnSetup.from_dict(raw)

    def default_setup(self, names: Sequence[str], lang: str) -> GnSetup:
        return GnSetup.default(list(names))

    def in_language(self, state: GnState, lang: str) -> GnState:
        setup = state.setup.in_language(lang)
        return state if setup is state.setup else replace(state, setup=setup)

    def seat_names(self, setup: GnSetup) -> tuple[str, ...]:
        return tuple(s.name for s in setup.stables)

    def action_from_dict(self, raw: object) -> Action:
        return action_from_dict(raw)

    def actor_of(self, action: Action) -> Role:
        if isinstance(action, Going | LaneSpin | Spin):
            return CHANCE
        if isinstance(action, BlindBet | Bet):
            return Role.seat_of(action.seat)
        return REFEREE

    def initial_state(self, setup: GnSetup) -> GnState:
        return engine.initial_state(setup)

    def to_move(self, state: GnState) -> frozenset[Role]:
        return engine.actors(state)

    def legal_actions(self, state: GnState, actor: Role) -> Sequence[Action]:
        return engine.legal_actions(state, actor)

    def may_act(self, state: GnState, action: Action, role: Role) -> bool:
        """A blind bet is its seat's own (not even the referee's: the referee may record only
        "no blind bet" for a seat, ``gn.rulings.no_blind_bet``); the bookmaker's seat may post
        odds; an owner may pull up its own horse.

        >>> from aids.games.grand_national.model import GnSetup
        >>> s = GAME.initial_state(GnSetup.default(["Aki", "Ben"]))
        >>> GAME.may_act(s, BlindBet(0, None, None, 0), REFEREE)
        True
        >>> GAME.may_act(s, BlindBet(0, 3, "win", 500), REFEREE)
        False
        """
        if isinstance(action, BlindBet):
            none = action.stake == 0 and action.horse is None and action.kind is None
            return role == Role.seat_of(action.seat) or (role.is_referee and none)
        if isinstance(action, SetOdds) and role == Role.seat_of(state.setup.bookmaker):
            return True
        if isinstance(action, PullUp) and 0 <= action.horse < state.horses:
            return role.is_referee or role == Role.seat_of(state.owner(action.horse))
        return role.is_referee or role == self.actor_of(action)

    def apply(self, state: GnState, action: Action, actor: Role) -> GnState:
        if actor == CHANCE or not self.may_act(state, action, actor):
            expected = self.actor_of(action)
            raise Forbidden("table/wrong_actor", actor=str(actor), expected=str(expected))
        if isinstance(action, Bet) and actor != Role.seat_of(action.seat):
            engine.check_bet_for_another(state, action)  # never a hint of a sealed stake
        return engine.apply(state, action)

    def outcome(self, state: GnState) -> Outcome | None:
        if state.phase != "over":
            return None
        money = tuple(engine.cash(state, s) for s in range(state.seats))
        stakes = (load().start_cash,) * state.seats
        return Outcome("settled", rank_by_score(money), money, stakes)

    def paper_form(self, setup: GnSetup, scored: bool) -> PaperForm:
        return paper.paper_form(setup, scored)

    def paper_outcome(self, setup: GnSetup, result: PaperResult, scored: bool) -> Outcome:
        return paper.paper_outcome(setup, result, scored)

    def chances(self, history: Sequence[GnState]) -> GnChances:
        from aids.games.grand_national.chances import GnChances

        return GnChances(history)

    def view(self, state: GnState, role: Role) -> GnState:
        return engine.view(state, role)

    def view_action(self, state: GnState, action: Action, role: Role) -> Action | None:
        sealed = (
            isinstance(action, BlindBet) and not state.settled and role != Role.seat_of(action.seat)
        )
        return None if sealed else action

    def describe(self, state: GnState, action: Action, lang: str) -> str:
        return describe(state, action, lang)

    def aftermath(self, before: GnState, after: GnState, lang: str) -> tuple[str, ...]:
        return aftermath(before, after, lang)


GAME = GrandNational()
