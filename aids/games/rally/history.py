"""Japan Rally's race chart: each car's road km to the goal after each round.

A round ends when the turn comes back round to the start player (the engine's ``round``
counter, missed police turns included). The km are the engine's ``to_goal`` (shortest road
distance; a ferry counts 0 km), 0 for a car that has arrived. A race that ends part-way
through a round (every car in, or the referee ends it) gets a last point for that round.
Each car's line is in the car's own colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from aids.games.rally import engine
from aids.games.rally.data import load
from aids.games.rally.model import RallyState
from aids.games.series import Line, Series, first_where


def km_to_goal(state: RallyState, seat: int) -> int:
    """Road km from car ``seat``'s town to the goal (0 once it has arrived).

    >>> from aids.games.rally.model import RallySetup
    >>> start = engine.initial_state(RallySetup.default(["Aki", "Ben"]))
    >>> km_to_goal(start, 0) > 0
    True
    """
    return engine.to_goal(state, state.towns[seat])[0]


def piece_hex(key: str) -> str | None:
    """A player's line's colour: their car's own, as the seeds give it.

    >>> piece_hex("orange")
    '#ef6c00'
    """
    colour = load().colour(key)
    return colour.hex if colour else None


def series(history: Sequence[RallyState]) -> Series:
    """Km to the goal per car after each round played.

    >>> from aids.games.rally.model import RallySetup
    >>> s = series([engine.initial_state(RallySetup.default(["Aki", "Ben"]))])
    >>> s.empty, s.names
    (True, ('Aki', 'Ben'))
    """
    states = list(history)
    done = [s.round - 1 for s in states]  # rounds completed
    picked = first_where(max(done, default=0), done)
    x = list(range(1, len(picked) + 1))
    if states and states[-1].phase == "over" and states[-1].round > len(picked):
        picked.append(len(states) - 1)  # the race ended during this round
        x.append(states[-1].round)
    players = states[0].setup.players if states else ()
    at = [states[i] for i in picked]
    return Series.of(
        "rally",
        x=tuple(x),
        lines=tuple(
            Line(p.name, tuple(km_to_goal(s, seat) for s in at), colour=piece_hex(p.colour))
            for seat, p in enumerate(players)
        ),
    )
