"""Squares and routes: where a horse can land this turn on the tracker's own record of the
course (each running horse's distance and lane), for the page to offer and to flag.

The rulebook: one horse per square; a horse cannot jump another, it overtakes by changing
lane; each sideways step counts as a length; no sideways move on or over a fence; a horse whose
route is blocked still burns at least 1 speed point and goes as far as the move allows; boxed
in (front and side), it forfeits the turn. Where it is silent, the rulings (``gn.rulings.route``,
``gn.rulings.squares``): a move is a path of one-length steps, forward or sideways toward the
new lane, the sideways ones taken anywhere along the path but never on a fence or the water
jump; the start line (distance 0) and the run-in past the finish are not squares; only running
horses hold one. The engine records what the referee enters (the board on the table is the
truth, and the tracker's squares are its record of it): these helpers never refuse, they say
what is free, what is not and why.

Ben's red cap (horse 4, handicap 3) at 9 lengths in lane 1, Aki's (horse 0) at 13 ahead of it:

>>> from dataclasses import replace
>>> from aids.games.grand_national.model import GnSetup
>>> s = engine.initial_state(GnSetup.default(["Aki", "Ben"]))
>>> s = replace(s, distance=(13, 0, 0, 0, 9, 0, 0, 0))
>>> [x.lengths for x in landings(s, 4) if x.lane == 1]  # 13 is taken and cannot be jumped
[]
>>> [x.lengths for x in landings(s, 4) if x.lane == 2]  # round it: 1 sideways + 3 to 10 on
[4, 5, 6, 7, 8, 9, 10, 11]
>>> problem(s, 4, 4, 1), problem(s, 4, 6, 1)
(Problem(code='taken', by=0), Problem(code='through', by=0))
>>> advance_room(s, 4, 6)  # a card's 6 in lane: blocked after 3
3
"""

from __future__ import annotations

from dataclasses import dataclass

from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.model import GnState, Move

Square = tuple[int, int]  # (distance, lane)


@dataclass(frozen=True, slots=True)
class Landing:
    """A square the horse to move can reach: ``forward`` lengths on, in ``lane``; ``lengths``
    counts the sideways steps too; ``blocked``: short of its handicap + 1 (no full move is
    free), so it burns 1 speed point."""

    forward: int
    lane: int
    lengths: int
    blocked: bool = False

    def move(self, horse: int) -> Move:
        return Move(horse, self.forward, self.lane, self.blocked)


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a move is not on the tracker's squares: ``taken`` (another horse is on the landing
    square), ``through`` (every route passes through a horse: ``by`` is the nearest in the
    way) or ``fence`` (the lane change needs a sideways step on a fence or the water)."""

    code: str
    by: int | None = None


def is_square(state: GnState, distance: int) -> bool:
    """The start line and the run-in past the finish are not squares (any number of horses).

    >>> from aids.games.grand_national.model import GnSetup
    >>> s = engine.initial_state(GnSetup.default(["Aki", "Ben"]))
    >>> is_square(s, 0), is_square(s, 1), is_square(s, s.setup.track.finish)
    (False, True, False)
    """
    return 0 < distance < state.setup.track.finish


def holders(state: GnState, but: int | None = None) -> dict[Square, int]:
    """The squares held by running horses (all but ``but``): the first horse on each.

    >>> from aids.games.grand_national.model import GnSetup
    >>> s = engine.initial_state(GnSetup.default(["Aki", "Ben"]))
    >>> holders(s)  # everyone behind the start line
    {}
    """
    out: dict[Square, int] = {}
    for h in engine.running(state):
        if h != but and is_square(state, state.distance[h]):
            out.setdefault((state.distance[h], state.lane[h]), h)
    return out


def shared_squares(state: GnState) -> tuple[tuple[int, ...], ...]:
    """Groups of running horses on one square (the rulebook allows one): what the tracker has
    been told that the board cannot hold, for the page to flag.

    >>> from dataclasses import replace
    >>> from aids.games.grand_national.model import GnSetup
    >>> s = engine.initial_state(GnSetup.default(["Aki", "Ben"]))
    >>> shared_squares(replace(s, distance=(13, 0, 0, 0, 13, 0, 0, 0)))
    ((0, 4),)
    """
    spots: dict[Square, list[int]] = {}
    for h in engine.running(state):
        if is_square(state, state.distance[h]):
            spots.setdefault((state.distance[h], state.lane[h]), []).append(h)
    return tuple(tuple(hs) for hs in spots.values() if len(hs) > 1)


def _no_sideways(state: GnState, distance: int) -> bool:
    """On a fence or the water jump a horse cannot step sideways."""
    return state.setup.track.landmark(distance) in ("fence", "water")


def _reach(
    state: GnState,
    horse: int,
    most: int,
    *,
    sideways_cost: bool = True,
    fences: bool = True,
    taken: dict[Square, int] | None = None,
) -> set[Square]:
    """Every square the horse can reach on a path of one-length steps, forward or sideways
    (all toward one side), within ``most`` lengths (sideways steps count unless
    ``sideways_cost`` is off, as on a card's advance) and never onto a ``taken`` square.
    ``fences`` off: sideways steps on a fence allowed (to tell a fence from a horse)."""
    taken = holders(state, horse) if taken is None else taken
    lanes = state.setup.track.lanes
    d0, l0 = state.distance[horse], state.lane[horse]

    def cost(square: Square) -> int:
        return square[0] - d0 + (abs(square[1] - l0) if sideways_cost else 0)

    seen: set[Square] = {(d0, l0)}
    for side in (-1, 1):
        # by distance, then lane away from the start lane: each step goes to a later square
        outward = range(l0, lanes + 1) if side == 1 else range(l0, 0, -1)
        for d in range(d0, d0 + most + 1):
            for lane in outward:
                if (d, lane) not in seen:
                    continue
                steps = [(d + 1, lane)]
                if 1 <= lane + side <= lanes and not (fences and _no_sideways(state, d)):
                    steps.append((d, lane + side))
                seen.update(
                    sq
                    for sq in steps
                    if sq not in taken and sq[0] - d0 <= most and cost(sq) <= most
                )
    return seen


def landings(state: GnState, horse: int) -> tuple[Landing, ...]:
    """The squares the horse to move can reach this turn, by lane then lengths: its handicap
    plus 1–8 speed points (no more than it has left) on a free route; if no full move is
    free, the squares it can still reach, ``blocked`` (it burns 1 speed point); empty when it
    is boxed in (see the module's example).
    """
    low, high = load().speed
    handicap = state.handicap[horse]
    most = handicap + min(high, state.speed_left(horse))
    d0, l0 = state.distance[horse], state.lane[horse]
    reached = [
        (d - d0, lane, (d - d0) + abs(lane - l0))
        for (d, lane) in _reach(state, horse, most)
        if (d, lane) != (d0, l0)
    ]
    full = [Landing(f, lane, n) for f, lane, n in reached if handicap + low <= n <= most]
    if full:
        return tuple(sorted(full, key=lambda x: (x.lane, x.lengths)))
    short = [Landing(f, lane, n, True) for f, lane, n in reached if 1 <= n < handicap + low]
    return tuple(sorted(short, key=lambda x: (x.lane, x.lengths)))


def problem(state: GnState, horse: int, forward: int, lane: int) -> Problem | None:
    """Why a move of ``forward`` lengths to ``lane`` is not on the tracker's squares (None:
    it is): the landing square taken, every route through a horse, or a sideways step that
    would be on a fence."""
    d0, l0 = state.distance[horse], state.lane[horse]
    target = (d0 + forward, lane)
    taken = holders(state, horse)
    if target in taken:
        return Problem("taken", taken[target])
    most = forward + abs(lane - l0)
    if target in _reach(state, horse, most, taken=taken):
        return None
    if target in _reach(state, horse, most, fences=False, taken=taken):
        return Problem("fence")
    low, high = sorted((l0, lane))
    in_way = [
        (d, h) for (d, ln), h in taken.items() if d0 < d <= d0 + forward and low <= ln <= high
    ]
    return Problem("through", min(in_way)[1] if in_way else None)


def advance_room(state: GnState, horse: int, value: int, lane: int | None = None) -> int:
    """How far a card's advance of ``value`` lengths can take the horse (into ``lane``, a
    change a card allows without counting it) before a horse is in its way: ``value`` when
    the squares are free; less is a blocked advance (it burns 1 speed point)."""
    lane = state.lane[horse] if lane is None else lane
    d0 = state.distance[horse]
    reach = _reach(state, horse, value, sideways_cost=False)
    room = [d - d0 for (d, ln) in reach if ln == lane]
    return max(room, default=0)
