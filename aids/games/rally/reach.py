"""Where a movement may stop, in the order the tracker advises it (the page's stop list), and
the cards it may be made of (the page's chips).

The rules let a car stop at any town within reach (``engine.reachable``), its own town
included: the cards are then spent for nothing. This module is advice, not a rule. It never
proposes staying put, nor a jammed town (a car that stops there is stuck until the jam is
cleared); when no town nearer the goal is in reach it proposes nothing, says which town the
car needs and how many km, and staying becomes a choice the referee makes. At a port whose
ferry leads nearer the goal the advice is to keep the cards and cross (a car that plays no
card may take the ferry).

>>> from dataclasses import replace
>>> from aids.games.rally.model import Draw, RallySetup
>>> state = engine.apply(engine.initial_state(RallySetup.default(["Aki", "Ben"])), Draw(0))
>>> state = replace(state, towns=("utsunomiya", "tokyo"))  # Tokyo → Sapporo
>>> advice = advise(state, 0, 70)
>>> advice.proposal, advice.reason, advice.needed
(None, 'short', ('shirakawa', 75))
>>> [(s.town, s.km, s.here) for s in advice.stops]
[('utsunomiya', 0, True), ('mito', 60, False)]
>>> advise(state, 0, 80).proposal
'shirakawa'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from aids.games.rally import engine
from aids.games.rally.board import MAX_KM, MAX_ROADS
from aids.games.rally.data import load
from aids.games.rally.model import RallyState

Reason = Literal["nearest", "short", "jammed", "ferry_now", "ferry_next", "none"]


@dataclass(frozen=True, slots=True)
class Stop:
    """A town a movement may end at, as the stop list shows it."""

    town: str
    km: int  # road km driven to it
    left: int  # road km from it to the goal
    nearer: bool  # nearer the goal than the car's own town (ferry crossings counted)
    jammed: bool  # a jam there: a car that stops there is stuck until it is cleared
    here: bool  # the car's own town: staying put, the cards spent


@dataclass(frozen=True, slots=True)
class Advice:
    """The stop list of one movement and what the tracker makes of it.

    ``reason``: ``nearest`` (the proposal is the jam-free town within reach nearest the
    goal); else no proposal and why: ``short`` (no town nearer the goal in reach; ``needed``
    names the nearest one and its road km), ``jammed`` (only jammed towns nearer the goal
    in reach), ``ferry_now``/``ferry_next`` (the way on is the ferry to ``port``: this turn if
    no card is played, else next turn), ``none`` (no road leads nearer the goal)."""

    km: int
    stops: tuple[Stop, ...]  # every legal stop, best first
    proposal: str | None
    reason: Reason
    needed: tuple[str, int] | None = None
    port: str | None = None

    def stop(self, town: str) -> Stop | None:
        return next((s for s in self.stops if s.town == town), None)


def advise(state: RallyState, seat: int, km: int) -> Advice:
    """The stops of a ``km`` movement of car ``seat``, best first: jam-free towns nearer the
    goal (nearest the goal first, then the longer drive), jammed ones nearer the goal,
    staying put, then towns farther from the goal; and the one the tracker proposes.

    >>> from aids.games.rally.model import Draw, RallySetup
    >>> state = engine.apply(engine.initial_state(RallySetup.default(["Aki", "Ben"])), Draw(0))
    >>> advise(state, 0, 30).proposal  # Tokyo –30– Omiya, on the way north
    'omiya'
    >>> advise(state, 0, 20).reason  # nothing within 20 km of Tokyo
    'short'
    """
    here = state.towns[seat]
    reach = engine.reachable(state, seat, km)
    home = engine.to_goal(state, here)
    stops = []
    for town, driven in reach.items():
        dist = engine.to_goal(state, town)
        stops.append(
            Stop(town, driven, dist[0], dist < home, town in state.jams and town != here,
                 town == here)
        )  # fmt: skip

    def order(stop: Stop) -> tuple[int, tuple[int, int], int, str]:
        group = (1 if stop.jammed else 0) if stop.nearer else 2 if stop.here else 3
        return group, engine.to_goal(state, stop.town), -stop.km, stop.town

    stops.sort(key=order)
    best = stops[0] if stops else None
    if best is not None and best.nearer and not best.jammed:
        return Advice(km, tuple(stops), best.town, "nearest")
    across = [p for p in state.setup.board.ferry_from(here) if engine.to_goal(state, p) < home]
    if across and here not in state.jams:
        ferry_now = across[0] in engine.can_ferry(state, seat)
        reason: Reason = "ferry_now" if ferry_now else "ferry_next"
        return Advice(km, tuple(stops), None, reason, port=across[0])
    needed = nearest_nearer(state, seat)
    if any(s.nearer for s in stops):
        return Advice(km, tuple(stops), None, "jammed", needed=needed)
    return Advice(km, tuple(stops), None, "short" if needed else "none", needed=needed)


def nearest_nearer(state: RallyState, seat: int) -> tuple[str, int] | None:
    """The jam-free town nearer the goal that car ``seat`` reaches by road in the fewest km,
    and those km (None if no road leads nearer the goal: the way on is a ferry, or jams)."""
    here = state.towns[seat]
    home = engine.to_goal(state, here)
    far = state.setup.board.reachable(here, MAX_KM * MAX_ROADS, state.jams | {state.setup.goal})
    found = [
        (km, engine.to_goal(state, town), town)
        for town, km in far.items()
        if town not in state.jams and engine.to_goal(state, town) < home
    ]
    if not found:
        return None
    km, _, town = min(found)
    return town, km


def travel_hand(state: RallyState, seat: int) -> tuple[str, ...]:
    """The travel cards car ``seat`` may lay down in its movement now, one entry per card
    (the page's chips: 50 + 50 is two taps on two chips): each card as many times as the
    most any legal movement holds, distances in seed order, TOP SPEED last.

    >>> from aids.games.rally.model import Draw, RallySetup
    >>> state = engine.apply(engine.initial_state(RallySetup.default(["Aki", "Ben"])), Draw(0))
    >>> " ".join(travel_hand(state, 0))  # tracking, 3 actions: any 3 distance cards, 1 TOP SPEED
    '20 20 20 25 25 25 30 30 30 40 40 40 50 50 50 top'
    """
    most: Counter[str] = Counter()
    for combo in engine.travel_choices(state, seat):
        most |= Counter(combo)
    order = {card: i for i, card in enumerate((*load().keys("travel"), "top"))}
    return tuple(sorted(most.elements(), key=lambda card: (order.get(card, len(order)), card)))
