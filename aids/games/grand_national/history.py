"""Grand National's race chart: each stable's money by round.

Money moves only at a few steps — the deal (in the first state), each bet taken in the
market, and the settlement (prizes and paid bets) — so the chart is read by round, as the
race is run (the rules' round: every horse due has moved once): round 0 is the money before
the race (after the deal and the market), round k the money at the end of round k, and the
round the race ends in holds the settlement. The round being run is drawn as it stands. The
page draws it as a staircase. Money is the engine's ``cash`` on the ledger: a blind bet's
stake is not on it until settlement, so the chart never shows a sealed bet. Each stable's
line is in its own colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.model import GnState
from aids.games.series import Line, Series


def money(state: GnState) -> tuple[int, ...]:
    """Each seat's cash (the start money less the horses it bought, at the first state).

    >>> from aids.games.grand_national.model import GnSetup
    >>> money(engine.initial_state(GnSetup.default(["Aki", "Ben"])))[0] < 250_000
    True
    """
    return tuple(engine.cash(state, seat) for seat in range(state.seats))


def piece_hex(key: str) -> str | None:
    """A stable's line's colour: its own, as the seeds give it (white is the seeds' white).

    >>> piece_hex("white")
    '#f5f5f5'
    """
    colour = load().colour(key)
    return colour.hex if colour else None


def series(history: Sequence[GnState]) -> Series:
    """Money per stable before the race (round 0) and at the end of each round since.

    >>> from aids.games.grand_national.model import GnSetup
    >>> s = series([engine.initial_state(GnSetup.default(["Aki", "Ben"]))])
    >>> s.x, s.names
    ((0,), ('Aki', 'Ben'))
    """
    states = list(history)
    rounds: list[int] = []
    values: list[tuple[int, ...]] = []
    for at, state in enumerate(states):
        following = states[at + 1] if at + 1 < len(states) else None
        if following is None or following.round != state.round:  # its round's last state
            rounds.append(state.round)
            values.append(money(state))
    stables = states[0].setup.stables if states else ()
    return Series.of(
        "gn",
        x=tuple(rounds),
        lines=tuple(
            Line(stable.name, tuple(v[seat] for v in values), colour=piece_hex(stable.colour))
            for seat, stable in enumerate(stables)
        ),
        step=True,
        money=True,
    )
