"""Grand National's fast path (``FastRace``, ``aids.games.grand_national.fast``) to and from
the engine: a state as a race (``race_of``), a race's state in the engine's names
(``fields``, for the tests to compare field by field), a code as the engine's action
(``to_engine_action``) and what the settlement pays (``payouts``), computed once per state;
and the model's pace (``speeds``): which speeds a horse due picks among.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.fast import (
    BLIND_AT,
    GOING_AT,
    KEY_BITS,
    LANE_AT,
    OVER,
    PHASES,
    RACE,
    RUN,
    SPIN,
    START,
    STATUS,
    TABLES,
    FastMove,
    FastRace,
    keys,
)
from aids.games.grand_national.model import (
    SEALED,
    Action,
    BlindBet,
    GnState,
    Going,
    LaneSpin,
    Move,
    Spin,
    Start,
)


def speeds(pacing: str, handicap: int, lengths: int, points: int) -> list[int]:
    """The speeds a horse due picks among, ``lengths`` from the finish with ``points`` speed
    points left: ``uniform``, every legal speed (1–8, no more than it has left); ``rider``,
    its even pace (``even_pace``) or one point either side, never one that leaves it unable
    to finish (``can_finish``) — or every legal speed when it cannot finish whatever it runs.

    >>> speeds("uniform", 3, 96, 5), speeds("rider", 6, 96, 60), speeds("rider", 3, 96, 60)
    ([1, 2, 3, 4, 5], [7, 8], [4, 5, 6])
    >>> speeds("rider", 1, 96, 60), speeds("rider", 0, 96, 60)  # slow; cannot finish
    ([1, 2], [1, 2, 3, 4, 5, 6, 7, 8])
    """
    low, high = load().speed
    legal = list(range(low, min(high, points) + 1))
    pace = even_pace(handicap, lengths, points) if pacing == "rider" else None
    if pace is None:
        return legal
    near = [
        s
        for s in legal
        if abs(s - pace) <= 1 and can_finish(handicap, lengths - handicap - s, points - s)
    ]
    return near or legal


def even_pace(handicap: int, lengths: int, points: int) -> int | None:
    """The fastest speed a horse could run every turn to the finish with its points: the
    largest s (1–8) whose turns to cover ``lengths``, at handicap + s a turn, cost no more
    than ``points``; None if not even 1 does.

    >>> even_pace(6, 96, 60), even_pace(5, 96, 60), even_pace(3, 96, 60), even_pace(0, 96, 60)
    (8, 7, 5, None)
    """
    low, high = load().speed
    for s in range(high, low - 1, -1):
        if handicap + s > 0 and s * -(-lengths // (handicap + s)) <= points:
            return s
    return None


def can_finish(handicap: int, lengths: int, points: int) -> bool:
    """Whether ``points`` can still carry a horse ``lengths`` to the finish: the fewest it
    needs is one a turn (handicap + 1 lengths a turn).

    >>> can_finish(3, 0, 0), can_finish(3, 8, 2), can_finish(3, 9, 2), can_finish(0, 5, 4)
    (True, True, False, False)
    """
    return lengths <= 0 or points >= -(-lengths // (handicap + 1))


def moves(pacing: str, code: int) -> list[FastMove]:
    """The moves of a horse whose code is ``code`` (handicap << 20 | lengths to go << 10 |
    speed points left): each (speed, lengths run, what its code loses, what its order key
    gains)."""
    handicap = code >> 20
    return [
        (s, handicap + s, ((handicap + s) << 10) + s, (handicap + s) << KEY_BITS)
        for s in speeds(pacing, handicap, (code >> 10) & 1023, code & 1023)
    ]


def race_of(state: GnState, pacing: str = "rider") -> FastRace:
    """``state`` (a viewer's or the referee's) as a race; ``pacing``: the speeds a horse
    picks among (``speeds``: ``uniform`` or ``rider``)."""
    d = load()
    race = FastRace.__new__(FastRace)
    setup, track, n = state.setup, state.setup.track, state.horses
    slots = d.horses
    race.horses, race.seats, race.pacing = n, state.seats, pacing
    race.table = TABLES.setdefault(pacing, {})
    race.fill = partial(moves, pacing)
    race.phase = PHASES.index(state.phase)
    race.goings, race.tops = d.goings, d.tops
    race.going = -1 if state.going is None else d.goings.index(state.going)
    race.top = state.top()
    race.finish, race.lap, race.until = track.finish, track.lap, track.too_free_until
    race.order_caps = setup.order == "caps"
    race.tf_any, race.tf_end = setup.too_free == "any_time", setup.too_free == "round_end"
    race.handicap, race.used = list(state.handicap), list(state.used)
    race.dist, race.lane = list(state.distance), list(state.lane)
    race.status = [STATUS.index(s) for s in state.status]
    race.running = [h for h in range(n) if race.status[h] == RUN]
    race.placed = list(state.placed)
    race.lead = max((race.dist[h] for h in (*race.running, *race.placed)), default=0)
    race.round, race.cap, race.group, race.at = state.round, state.cap, list(state.group), 0
    race.moved = [h in state.moved for h in range(n)]
    race.seq = race.group
    if not race.order_caps and race.round > 1:  # the round's horses yet to move, in order
        key = keys(race.dist, race.lane)
        race.seq = sorted((h for h in race.running if not race.moved[h]),
                          key=key.__getitem__, reverse=True)  # fmt: skip
    race.done_free, race.lose_turn = set(state.too_free_done), set(state.lose_turn)
    race.card_moved = set(state.card_moved)
    race.blind_left = [s for s, b in enumerate(state.blind) if b is None]
    race.lanes = [list(stables) for stables in state.lanes]
    by_colour = sorted(range(race.seats), key=lambda s: setup.stables[s].colour)
    seats = list(range(race.seats))
    ring = list(setup.ring)
    race.spin_groups = [
        [[s * slots + cap for s in seats[k:] + seats[:k]] for k in by_colour]
        for cap in range(slots)
    ]
    race.lane_rings = [ring[ring.index(k) :] + ring[: ring.index(k)] for k in by_colour]
    race.cash = [float(engine.cash(state, s)) for s in range(race.seats)]
    race.prizes = d.prizes
    race.pay, race.paid = payouts(state), state.settled
    race.key, race.codes, race.cap_run, race.first, race.spins = [], [], [], [], []
    race.tail, race.free = 0, (0, 0, 0)
    if race.phase >= RACE:
        race.derive()
    return race


def fields(race: FastRace) -> dict[str, Any]:
    """The state in the engine's names and values (``GnState``'s fields the model's moves
    change), for the tests to compare field by field."""
    return {
        "phase": PHASES[race.phase],
        "going": None if race.going < 0 else race.goings[race.going],
        "lanes": tuple(tuple(stables) for stables in race.lanes),
        "handicap": tuple(race.handicap),
        "used": tuple(race.used),
        "distance": tuple(race.dist),
        "lane": tuple(race.lane),
        "status": tuple(STATUS[s] for s in race.status),
        "placed": tuple(race.placed),
        "round": race.round,
        "cap": race.cap,
        "group": tuple(race.group),
        "moved": frozenset(h for h in range(race.horses) if race.moved[h]),
        "too_free_done": frozenset(race.done_free),
        "lose_turn": frozenset(race.lose_turn),
        "card_moved": frozenset(race.card_moved),
        "settled": race.phase == OVER,
    }


def payouts(state: GnState) -> list[Any]:
    """Per horse, per place 1st–4th: the (seat, dollars) the settlement pays — the prize to
    the owner, each bet at the posted odds that wins there, each blind bet the state shows
    (returns, its stake being off the ledger until then); last, each such blind stake
    (seat, −stake), paid whatever happens."""
    d = load()
    n = state.horses
    pay: list[Any] = [[[(state.owner(h), float(d.prizes[p]))] for p in range(4)] for h in range(n)]
    bets = [(w.seat, w.horse, w.kind, w.odds.returns(w.stake)) for w in state.wagers]
    stakes: list[tuple[int, float]] = []
    for b in state.blind:
        if b is not None and b is not SEALED and b.stake > 0 and b.horse is not None and b.kind:
            odds = d.odds[state.setup.horse(b.horse).price][0 if b.kind == "win" else 1]
            bets.append((b.seat, b.horse, b.kind, odds.returns(b.stake)))
            stakes.append((b.seat, -float(b.stake)))
    for seat, horse, kind, returns in bets:
        for p in range(len(d.prizes)):
            if p == 0 or (kind == "show" and p < d.show_places):
                pay[horse][p].append((seat, float(returns)))
    pay.append(stakes)
    return pay


# --- the codes as the engine's actions --------------------------------------------------------


def to_engine_action(state: GnState, code: int) -> Action:
    """A code of ``FastRace.run`` at ``state`` as the engine's action."""
    colours = sorted(s.colour for s in state.setup.stables)
    if code >= BLIND_AT:
        return BlindBet(code - BLIND_AT, None, None, 0)
    if code == START:
        return Start()
    if code >= LANE_AT:
        return LaneSpin(len(state.lanes) + 1, colours[code - LANE_AT])
    if code >= GOING_AT:
        return Going(load().goings[code - GOING_AT])
    if code >= SPIN:
        return Spin(colours[code - SPIN])
    horse = engine.next_horse(state)
    assert horse is not None, "a move code where no horse is due"
    return Move(horse, state.handicap[horse] + code, state.lane[horse])
