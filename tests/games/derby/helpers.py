"""Small builders for Derby tests: tables of players and a compact move notation."""

from __future__ import annotations

from aids.games.derby import engine
from aids.games.derby.model import Bet, Card, DerbySetup, DerbyState, PlayCard

ROWS = ["red", "blue", "green", "yellow", "white", "pink", "brown", "purple"]


def tracking(players: int = 3) -> DerbyState:
    names = ["A", "B", "C", "D", "E"][:players]
    return engine.initial_state(DerbySetup.default(names))


def simulation(players: int = 3, seed: int = 1) -> DerbyState:
    names = ["A", "B", "C", "D", "E"][:players]
    return engine.initial_state(DerbySetup.default(names, mode="simulation", seed=seed))


def card(code: str) -> Card:
    """``"red 7"`` or ``"black 0"``."""
    colour, value = code.split()
    return Card(colour, int(value))


def play(state: DerbyState, horse: str, code: str) -> DerbyState:
    """The player to act plays ``code`` on the horse of colour ``horse``."""
    return engine.apply(state, PlayCard(state.turn, ROWS.index(horse), card(code)))


def bet(state: DerbyState, horse: str) -> DerbyState:
    return engine.apply(state, Bet(state.turn, ROWS.index(horse)))


def fill_fence(state: DerbyState, values: dict[str, int]) -> DerbyState:
    """Play one own-colour card per listed horse, in the order given."""
    for horse, value in values.items():
        state = play(state, horse, f"{horse} {value}")
    return state


FENCE1 = {h: v for h, v in zip(ROWS, [5, 6, 7, 8, 9, 4, 3, 2], strict=True)}  # purple falls
