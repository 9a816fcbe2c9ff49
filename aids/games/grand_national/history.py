"""Grand National's race chart: each stable's money over the game.

Money moves only at a few steps — the deal (in the first state), each bet taken in the
market, and the settlement (prizes and paid bets) — and stands still through the whole race,
so a point per round would be a flat line. The x axis is the step (actions recorded): a point
at the start, at every step where someone's money changed, and at the latest step; the page
draws it as a staircase. Money is the engine's ``cash`` on the ledger: a blind bet's stake is
not on it until settlement, so the chart never shows a sealed bet.
"""

from __future__ import annotations

from collections.abc import Sequence

from aids.games.grand_national import engine
from aids.games.grand_national.model import GnState
from aids.games.series import Line, Series


def money(state: GnState) -> tuple[int, ...]:
    """Each seat's cash (the start money less the horses it bought, at the first state).

    >>> from aids.games.grand_national.model import GnSetup
    >>> money(engine.initial_state(GnSetup.default(["Aki", "Ben"])))[0] < 250_000
    True
    """
    return tuple(engine.cash(state, seat) for seat in range(state.seats))


def series(history: Sequence[GnState]) -> Series:
    """Money per stable at the start, after each step that moved money, and now.

    >>> from aids.games.grand_national.model import GnSetup
    >>> s = series([engine.initial_state(GnSetup.default(["Aki", "Ben"]))])
    >>> s.x, s.names
    ((0,), ('Aki', 'Ben'))
    """
    states = list(history)
    picked: list[int] = []
    values: list[tuple[int, ...]] = []
    for step, state in enumerate(states):
        latest = step == len(states) - 1
        if step and not latest and state.ledger == states[step - 1].ledger:
            continue  # nobody's money moved: the ledger is where money is
        now = money(state)
        if not values or now != values[-1] or latest:
            picked.append(step)
            values.append(now)
    stables = states[0].setup.stables if states else ()
    return Series.of(
        "gn",
        x=tuple(picked),
        lines=tuple(
            Line(stable.name, tuple(v[seat] for v in values)) for seat, stable in enumerate(stables)
        ),
        step=True,
        money=True,
    )
