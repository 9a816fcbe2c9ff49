"""What just happened that the table must be told: turns missed to police while play moved
on, and a winner decided while the other cars still race.

>>> from aids.games.rally import engine
>>> from aids.games.rally.model import Attack, Draw, EndTurn, RallySetup
>>> state = engine.initial_state(RallySetup.default(["Aki", "Ben", "Chie"]))
>>> for action in (Draw(0), Attack(0, "police", 1), EndTurn(0)):
...     state = engine.apply(state, action)
>>> [(r.seat, r.missed) for r in missed_turns(state)], state.turn
([(1, True)], 2)
>>> winner(state) is None
True
"""

from __future__ import annotations

from aids.games.rally.model import RallyState, TurnRecord


def missed_turns(state: RallyState) -> tuple[TurnRecord, ...]:
    """The turns skipped to police since the last turn played, oldest first: the cars whose
    turn came and went while the car now to act was reached. Empty when none was skipped."""
    out: list[TurnRecord] = []
    for record in reversed(state.turns):
        if not record.missed:
            break
        out.append(record)
    return tuple(reversed(out))


def winner(state: RallyState) -> int | None:
    """The seat that has won, known as soon as it is decided: in individual play the first
    car to reach the goal (the others race on for the places). None before any car arrives,
    and in team play, where the places' points decide when the race ends.

    >>> from dataclasses import replace
    >>> from aids.games.rally import engine
    >>> from aids.games.rally.model import RallySetup
    >>> state = engine.initial_state(RallySetup.default(["Aki", "Ben", "Chie"]))
    >>> winner(replace(state, arrived=(2,)))
    2
    """
    if state.setup.teams or not state.arrived:
        return None
    return state.arrived[0]
