"""The card a horse must draw after an action: the horse that just landed on a fence or the
water (a Jump card, also in the first turn and again after a Jump card's advance onto
another fence) or on a horseshoe (a Turf card, a Go For Home card late in the race; never in
the first turn nor when a card put it there) — for the page to say so while it still matters
and to aim the card's effect at that horse.

>>> from aids.games.grand_national.model import BlindBet, GnSetup, Going, LaneSpin, Start
>>> s = engine.initial_state(GnSetup.default(["Aki", "Ben"]))
>>> for seat in (0, 1):
...     s = engine.apply(s, BlindBet(seat, None, None, 0))
>>> s = engine.apply(s, Going("good"))
>>> for lane in range(1, 5):
...     s = engine.apply(s, LaneSpin(lane, "red"))
>>> s = engine.apply(s, Start())
>>> move = Move(0, 10, 1)  # Aki's red cap (+3) onto the fence at 10
>>> card_due(s, move, engine.apply(s, move))
Draw(horse=0, deck='jump')
>>> card_due(s, Move(0, 9, 1), engine.apply(s, Move(0, 9, 1))) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from aids.games.grand_national import engine
from aids.games.grand_national.model import Action, Card, GnState, Move


@dataclass(frozen=True, slots=True)
class Draw:
    """``horse`` draws from ``deck``: ``jump``, ``turf`` or ``go_for_home``."""

    horse: int
    deck: str


def mover(before: GnState, action: Action) -> int | None:
    """The horse ``action`` moved along the course: a move's horse, or the horse a card's
    advance moved (the next in line without a stamina penalty); None for anything else."""
    if isinstance(action, Move):
        return action.horse
    if isinstance(action, Card) and action.effect == "advance":
        if not 0 <= action.horse < before.horses or before.status[action.horse] != "running":
            return None
        return engine.advance_target(before, action.horse)
    return None


def card_due(before: GnState, action: Action, after: GnState) -> Draw | None:
    """The card to draw now because of ``action`` (``before`` → ``after``), or None: the horse
    it moved is still running and stands where a card is drawn (``engine.deck_for``)."""
    horse = mover(before, action)
    if horse is None or after.phase != "race" or after.status[horse] != "running":
        return None
    deck = engine.deck_for(after, horse)
    return Draw(horse, deck) if deck else None
