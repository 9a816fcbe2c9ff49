"""The Ekiden's race chart: each team's standing after each leg (順位変動), 1 = leading.

The standings are the engine's, as recorded when each leg resolved
(``standing_after_each_leg``); a leg still being run has no point yet. Each team's line is
in its pieces' colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from aids.games.ekiden import engine
from aids.games.ekiden.data import load
from aids.games.ekiden.model import EkidenState
from aids.games.series import Line, Series


def piece_hex(key: str) -> str | None:
    """A team's line's colour: its pieces' own, as the seeds give it.

    >>> piece_hex("purple")
    '#6a1b9a'
    """
    colour = load().colour(key)
    return colour.hex if colour else None


def series(history: Sequence[EkidenState]) -> Series:
    """Standing per team after each finished leg; the y axis runs from 1 (top) down.

    >>> from aids.games.ekiden.model import EkidenSetup
    >>> s = series([engine.initial_state(EkidenSetup.default(["A", "B", "C"]))])
    >>> s.empty, s.y_domain, s.y_reversed
    (True, (1, 3), True)
    """
    last = history[-1] if history else None
    rows = engine.standing_after_each_leg(last) if last is not None else ()
    teams = last.setup.teams if last is not None else ()
    return Series.of(
        "ekiden",
        x=tuple(range(1, len(rows) + 1)),
        lines=tuple(
            Line(team.name, tuple(row[t] for row in rows), colour=piece_hex(team.colour))
            for t, team in enumerate(teams)
        ),
        x_domain=(1, load().legs),
        y_domain=(1, max(1, len(teams))),
        y_reversed=True,
    )
