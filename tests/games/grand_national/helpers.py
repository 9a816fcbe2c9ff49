"""Builders for Grand National tests: a 3-stable field, and the way to the race."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aids.games.base import REFEREE, Role
from aids.games.grand_national import GAME, engine
from aids.games.grand_national.model import (
    Action,
    BlindBet,
    GnSetup,
    GnState,
    Going,
    Horse,
    LaneSpin,
    Stable,
    Start,
)
from aids.games.grand_national.track import sample_track

# Red (seat 0), Blue (seat 1), Green (seat 2); the spinner's ring is Red, White, Blue, Black,
# Green, Yellow, so clockwise in play: Red → Blue → Green.
FIELD = [
    ("Aki", "red", [("Red Rum", 60000, 6), ("Aldaniti", 40000, 4), ("Foinavon", 10000, 1),
                    ("Party Politics", 30000, 3)]),
    ("Ben", "blue", [("Corbiere", 50000, 5), ("Rough Quest", 30000, 3),
                     ("Little Polveir", 20000, 2), ("Mon Mome", 10000, 1)]),
    ("Chie", "green", [("Amberleigh", 60000, 6), ("Bindaree", 40000, 4), ("Silver Birch", 20000, 2),
                       ("Numbersixvalverde", 50000, 5)]),
]  # fmt: skip


def setup(**changes: Any) -> GnSetup:
    stables = tuple(
        Stable(name, colour, tuple(Horse(n, p, h) for n, p, h in horses))
        for name, colour, horses in FIELD
    )
    base = GnSetup(stables, bookmaker=2, track=sample_track())
    return replace(base, **changes)


def play(state: GnState, *actions: Action) -> GnState:
    for action in actions:
        state = engine.apply(state, action)
    return state


def to_market(state: GnState | None = None, going: str = "good") -> GnState:
    """No blind bets, the going, lanes spun from Red each time."""
    state = state or engine.initial_state(setup())
    for seat in range(state.seats):
        if state.blind[seat] is None:
            state = engine.apply(state, BlindBet(seat, None, None, 0))
    state = play(state, Going(going))
    for lane in range(1, 5):
        state = engine.apply(state, LaneSpin(lane, "red"))
    return state


def to_race(**changes: Any) -> GnState:
    return play(to_market(engine.initial_state(setup(**changes))), Start())


def placed_at(state: GnState, **where: int) -> GnState:
    """The same state with horses (by index) moved to distances: ``placed_at(s, h0=12)``."""
    distance = list(state.distance)
    for key, value in where.items():
        distance[int(key[1:])] = value
    return replace(state, distance=tuple(distance))


def as_role(state: GnState, action: Action, role: Role = REFEREE) -> GnState:
    return GAME.apply(state, action, role)
