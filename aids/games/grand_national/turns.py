"""Grand National's turns: who moves (the running horses, the race order, the turn order, the
next horse, a spin that is due, the card a horse draws) and what follows every change on the
course (finishes, pulled up, running too free, the next turn, the end of the race). Used by
``aids.games.grand_national.engine``, which offers every public name here under its own too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from aids.games.grand_national.data import load
from aids.games.grand_national.ledger import settle
from aids.games.grand_national.model import GnState

T = TypeVar("T")


def replace_at(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``values`` with the one at ``i`` replaced.

    >>> replace_at((1, 2, 3), 1, 9)
    (1, 9, 3)
    """
    return (*values[:i], value, *values[i + 1 :])


def clamp(value: int, low: int, high: int) -> int:
    """[ruling] Only the part of an effect past a bound is void: 6 + 2 → 7, 1 − 2 → 0.

    >>> clamp(6 + 2, 0, 7), clamp(1 - 2, 0, 7)
    (7, 0)
    """
    return max(low, min(high, value))


# --- who moves ---------------------------------------------------------------------------------


def running(state: GnState) -> list[int]:
    return [h for h in range(state.horses) if state.status[h] == "running"]


def race_order(state: GnState) -> list[int]:
    """Horses still running, leader first (ties: the inside lane first, then the horse)."""
    return sorted(running(state), key=lambda h: (-state.distance[h], state.lane[h], h))


def ring_from(state: GnState, colour: str) -> tuple[int, ...]:
    """Lanes: stables clockwise round the spinner's colour ring from ``colour``'s stable."""
    ring = state.setup.ring
    start = next(i for i, s in enumerate(ring) if state.setup.stables[s].colour == colour)
    return ring[start:] + ring[:start]


def seats_from(state: GnState, colour: str) -> tuple[int, ...]:
    """Later turns: the stable spun, then "the player to his left (clockwise seating
    position)" and so on round the table — seating order, not the spinner's ring (a ruling:
    the ring decides lanes only). Stables are kept in seating order.

    >>> from aids.games.grand_national.model import GnSetup, Horse, Stable
    >>> from aids.games.grand_national.track import sample_track
    >>> horses = (Horse("a", 60000, 1), Horse("b", 40000, 1), Horse("c", 20000, 1),
    ...           Horse("d", 10000, 1))
    >>> stables = tuple(Stable(n, c, tuple(Horse(n + h.name, h.price, 1) for h in horses))
    ...                 for n, c in (("A", "red"), ("B", "blue"), ("C", "white")))
    >>> from aids.games.grand_national.engine import initial_state
    >>> seats_from(initial_state(GnSetup(stables, 0, sample_track())), "red")
    (0, 1, 2)
    """
    seats = tuple(range(len(state.setup.stables)))
    start = next(s for s in seats if state.setup.stables[s].colour == colour)
    return seats[start:] + seats[:start]


def first_round_group(state: GnState, cap: int) -> tuple[int, ...]:
    """The first turn: cap ``cap``'s horses, inside first as lane ``cap + 1`` was spun."""
    return tuple(s * load().horses + cap for s in state.lanes[cap])


def turn_order(state: GnState) -> tuple[int, ...]:
    """This turn's horses in the order they move, for a page to show (those in
    ``state.moved`` have moved): the cap's horses as spun — the first turn inside first, later
    turns from the stable spun round the table — or, position order after the first turn,
    the horses yet to move from the leader back. Empty while a spin is due."""
    if state.phase != "race":
        return ()
    if state.setup.order == "position" and state.round > 1:
        return tuple(h for h in race_order(state) if h not in state.moved)
    return state.group


def next_horse(state: GnState) -> int | None:
    """The horse to move now, or None (a spin is needed first, or the race is not on)."""
    return next(
        (h for h in turn_order(state) if h not in state.moved and state.status[h] == "running"),
        None,
    )


def needs_spin(state: GnState) -> bool:
    """Cap order after the first turn: the next cap's horses wait for the spinner."""
    return (
        state.phase == "race"
        and state.setup.order == "caps"
        and state.round > 1
        and not state.group
    )


def deck_for(state: GnState, horse: int) -> str | None:
    """The card the horse draws where it stands now: ``jump`` on a fence or the water,
    ``turf`` on a horseshoe (not in the first turn, nor when a card put it there), which
    becomes ``go_for_home`` once the leader has cleared Becher's on the last lap."""
    spot = state.setup.track.landmark(state.distance[horse])
    if spot in ("fence", "water"):
        return "jump"
    if spot != "horseshoe" or state.round <= 1 or horse in state.card_moved:
        return None
    leader = max((state.distance[h] for h in running(state)), default=0)
    leaders = max([leader, *(state.distance[h] for h in state.placed)])
    return "go_for_home" if leaders > state.setup.track.bechers_last_lap else "turf"


def advance_target(state: GnState, horse: int) -> int | None:
    """The horse an advance card moves: ``horse``, or if it carries a stamina penalty the
    next one in line behind it without one (None: nobody can take it)."""
    order = race_order(state)
    if horse not in order:
        return None
    for h in order[order.index(horse) :]:
        if state.penalty[h] == 0:
            return h
    return None


# --- after every change: finishes, pulled up, running too free, the end, the next turn -------


def after_change(state: GnState, *, turn: bool = False) -> GnState:
    """What follows every change on the course, in order: horses past the finish placed, horses
    out of speed points or lapped pulled up, running too free (where it is checked at any time),
    the turn moved on (after a turn, or any change in the race) and the race ended."""
    state = _finishes(state)
    state = _pulled_up(state)
    if state.setup.too_free == "any_time" and state.round > 1:
        state = _too_free(state)
    if turn or state.phase == "race":
        state = advance_turn(state)
    return maybe_over(state)


def _finishes(state: GnState) -> GnState:
    finish = state.setup.track.finish
    placed, status = state.placed, state.status
    for h in race_order(state):
        if state.distance[h] >= finish and len(placed) < len(load().prizes):
            placed = (*placed, h)
            status = replace_at(status, h, "finished")
    return replace(state, placed=placed, status=status)


def _pulled_up(state: GnState) -> GnState:
    """Out of speed points, or lapped by the leader (a horse that has just finished too)."""
    lead = max((state.distance[h] for h in (*running(state), *state.placed)), default=0)
    status = state.status
    for h in running(state):
        if state.speed_left(h) <= 0 or lead - state.distance[h] >= state.setup.track.lap:
            status = replace_at(status, h, "pulled_up")
    return replace(state, status=status)


def _too_free(state: GnState) -> GnState:
    """A leader 10 or more lengths clear, up to Melling Road on the last lap: −2 handicap,
    once per horse, never below 0."""
    order = race_order(state)
    if len(order) < 2:
        return state
    leader, second = order[0], order[1]
    gap = state.distance[leader] - state.distance[second]
    if (
        gap < load().too_free_lengths
        or state.distance[leader] > state.setup.track.too_free_until
        or leader in state.too_free_done
    ):
        return state
    mark = clamp(state.handicap[leader] - load().too_free_penalty, *load().handicap)
    return replace(
        state,
        handicap=replace_at(state.handicap, leader, mark),
        too_free_done=state.too_free_done | {leader},
    )


def _skip_lost_turns(state: GnState) -> GnState:
    """A horse whose turn comes while it has a turn to lose loses it (marked moved)."""
    while True:
        h = next_horse(state)
        if h is None or h not in state.lose_turn:
            return state
        state = replace(state, moved=state.moved | {h}, lose_turn=state.lose_turn - {h})


def _has_runner(state: GnState, cap: int) -> bool:
    """Some stable's horse of this cap is still running."""
    return any(state.status[s * load().horses + cap] == "running" for s in range(state.seats))


def advance_turn(state: GnState) -> GnState:
    """On to the next cap's group, or the next round, once every horse due has moved. A cap
    with no horse left running is passed over (no spin for it)."""
    if state.phase != "race":
        return state
    state = _skip_lost_turns(state)
    if next_horse(state) is not None or needs_spin(state):
        return state
    if state.setup.order == "caps" or state.round == 1:  # the first turn goes by caps too
        for cap in range(state.cap + 1, load().horses):
            if state.round == 1:
                return advance_turn(replace(state, cap=cap, group=first_round_group(state, cap)))
            if _has_runner(state, cap):
                return replace(state, cap=cap, group=())  # the spinner for this cap's horses
    # the round is over
    if state.setup.too_free == "round_end":
        state = _too_free(state)
    nxt = replace(state, round=state.round + 1, cap=0, group=(), moved=frozenset())
    if nxt.setup.order == "caps":
        first = next((c for c in range(load().horses) if _has_runner(nxt, c)), 0)
        return replace(nxt, cap=first)
    return _skip_lost_turns(nxt)


def maybe_over(state: GnState) -> GnState:
    """The race over, and settled, once four horses have placed or none is left running."""
    if state.phase != "race":
        return state
    if len(state.placed) < len(load().prizes) and running(state):
        return state
    return settle(replace(state, phase="over"))
