"""The Derby's race chart: after each fence, each player's points if the race ended then.

Points are the engine's ``scores`` (counters on horses still running, by the fence they were
placed at), so the line is what the player would take home had the race stopped there; the
counters still in the race ride along as the second measure (the page's tooltip, the
report's legend). A fence's point is the state the moment it is resolved, before the next
fence's bets; a race the referee ends early ("no cards left") gets a last point at the fence
it ended on, holding the final scores. Each player's line is in their counters' colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from aids.games.derby import engine
from aids.games.derby.data import load
from aids.games.derby.model import DerbyState
from aids.games.series import Line, Series, first_where


def counters_in_race(state: DerbyState, player: int) -> int:
    """The player's counters on horses still running (the ones that may still score).

    >>> from aids.games.derby.model import Bet, DerbySetup
    >>> start = engine.initial_state(DerbySetup.default(["Aki", "Ben"]))
    >>> counters_in_race(engine.apply(start, Bet(0, 2)), 0)
    1
    """
    return sum(1 for c in state.counters if c.player == player and state.fallen[c.horse] is None)


def piece_hex(counter: str) -> str | None:
    """A player's line's colour: their counters' own, as the seeds give it.

    >>> piece_hex("red")
    '#e53935'
    """
    colour = load().counter_colour(counter)
    return colour.hex if colour else None


def series(history: Sequence[DerbyState]) -> Series:
    """Points per player after each fence resolved (and at an early end).

    >>> from aids.games.derby.model import DerbySetup
    >>> s = series([engine.initial_state(DerbySetup.default(["Aki", "Ben"]))])
    >>> s.empty, s.names
    (True, ('Aki', 'Ben'))
    """
    fences = load().fences
    states = list(history)
    picked = first_where(fences, [s.fence - 1 for s in states])  # fences resolved so far
    x = list(range(1, len(picked) + 1))
    if states and engine.is_over(states[-1]) and states[-1].fence <= fences:
        picked.append(len(states) - 1)  # ended early, during this fence
        x.append(states[-1].fence)
    players = states[0].setup.players if states else ()
    at = [states[i] for i in picked]
    lines = tuple(
        Line(
            p.name,
            tuple(engine.scores(s)[seat] for s in at),
            tuple(counters_in_race(s, seat) for s in at),
            piece_hex(p.colour),
        )
        for seat, p in enumerate(players)
    )
    return Series.of(
        "derby",
        x=tuple(x),
        lines=lines,
        extra_key="derby.charts.extra",
        x_domain=(1, fences),
    )
