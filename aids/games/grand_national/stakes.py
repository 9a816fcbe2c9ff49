"""How much a bet may be, as the page asks before offering amounts: a blind bet's most (the
blind limit, or less cash), and a bet at the posted odds for a stable — its own available cash
on its own link, less the blind maximum for anyone else while its blind stake is sealed (so
the limit never hints at the stake).

>>> from aids.games.base import REFEREE, Role
>>> from aids.games.grand_national.model import BlindBet, GnSetup
>>> s = engine.initial_state(GnSetup.default(["Aki", "Ben"]))
>>> blind_most(s, 0), engine.cash(s, 0)
(10000, 70000)
>>> s = engine.apply(s, BlindBet(0, 5, "win", 3000))  # sealed from all but Aki
>>> bet_most(s, 0, Role.seat_of(0)), bet_most(engine.view(s, REFEREE), 0, REFEREE)
(67000, 60000)
"""

from __future__ import annotations

from aids.games.base import Role
from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.model import GnState


def blind_most(state: GnState, seat: int) -> int:
    """A blind bet is at most $10,000 in total, and no more than the seat's cash."""
    return max(0, min(load().blind_max, engine.cash(state, seat)))


def bet_most(state: GnState, seat: int, role: Role) -> int:
    """The most ``role`` may stake for ``seat`` at the posted odds: its available cash on its
    own link; anyone else's entry stops short of a sealed blind stake (``entry_limit``)."""
    own = role == Role.seat_of(seat)
    return max(0, engine.available(state, seat) if own else engine.entry_limit(state, seat))
