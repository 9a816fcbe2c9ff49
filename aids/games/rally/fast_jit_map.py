"""The map's side of the rally's compiled playouts (``fast_jit``): ``Roads`` packed into arrays
(each town's rank, port and reach without jams, its roads) and the compiled questions the
loop asks of it — a town's reach under jams (a small Dijkstra, only where a jam lies within
the reach), the proposal for a movement's km, the greedy driver's movement (``Roads.drive``'s
choice, found by running over every set of travel cards the hand holds) — and of a hand: how
many ways it can throw cards down, and the ``index``-th of them in sorted order, never listed;
and the reshuffle (Fisher–Yates, as ``random.shuffle`` runs).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from aids.games.jit import compiled, uniform
from aids.games.rally.fast import FastRally
from aids.games.rally.fast_map import CARDS, DRIVE_CODES, KM, MOST_KM, TOP

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

# rows of ``Kernel.places``: per town
RANK, PORT, REACH = range(3)
# layers of ``Kernel.paths``: per town, a row of towns (``REACH_AT``: per other town, its
# place in the town's reach without jams, or -1)
REACH_KM, REACH_BEST, REACH_TOWN, ROAD_TO, ROAD_KM, REACH_AT = range(6)
PATH_LAYERS = 6
FAR = 1 << 40  # farther than any road
#: the travel cards' codes and km, in code order (TOP SPEED last: it counts 0 km and doubles)
D0, D1, D2, D3, D4, TOP_CODE = DRIVE_CODES
K0, K1, K2, K3, K4 = (KM[c] for c in DRIVE_CODES[:5])
assert TOP_CODE == TOP and tuple(sorted(DRIVE_CODES)) == DRIVE_CODES


def pack_map(race: FastRally) -> tuple[Ints, Ints]:
    """The map's side of ``Roads`` as arrays: per town its rank, its port and its reach
    without jams (``Roads.reach``: the km of each stop ascending and the proposal within
    each), which towns that reach holds, and its roads."""
    roads = race.roads
    towns = len(roads.ids)
    places = np.zeros((3, towns), dtype=np.int64)
    paths = np.zeros((PATH_LAYERS, towns, towns), dtype=np.int64)
    places[RANK], places[PORT] = roads.rank, roads.port
    goal = roads.ids[roads.goal]
    for t, town in enumerate(roads.ids):
        kms, best = roads.reach(t, 0)
        places[REACH, t] = len(kms)
        paths[REACH_KM, t, : len(kms)] = kms
        paths[REACH_BEST, t, : len(best)] = best
        found = roads.board.reachable(town, MOST_KM, {goal})
        stops = sorted((km, roads.index[stop]) for stop, km in found.items())
        paths[REACH_TOWN, t, : len(stops)] = [stop for _, stop in stops]
        paths[REACH_AT, t] = -1
        for i, (_, stop) in enumerate(stops):
            paths[REACH_AT, t, stop] = i
        for i, (other, km) in enumerate(roads.board.neighbours(town)):
            paths[ROAD_TO, t, i] = roads.index[other]
            paths[ROAD_KM, t, i] = km
        paths[ROAD_KM, t, len(roads.board.neighbours(town)) :] = -1  # no more roads
    return places, paths


@compiled
def shuffle_cards(cards: Ints, size: int, draws: Floats, drawn: int) -> int:
    """Fisher–Yates on ``cards[:size]`` in place, as ``random.shuffle`` runs (the last place
    first), one number a place; the numbers drawn so far."""
    for i in range(size - 1, 0, -1):
        j = int(uniform(draws, drawn) * (i + 1))
        drawn += 1
        cards[i], cards[j] = cards[j], cards[i]
    return drawn


@compiled
def throw_ways(hand: Ints, first: int, size: int) -> int:
    """How many distinct sets of ``size`` cards a hand of these counts holds among the codes
    from ``first`` on. One or two cards (nearly every hand over its limit) are counted
    directly: the codes held, and the pairs of them plus the codes held twice."""
    if size <= 2:
        held = doubles = 0
        for card in range(first, CARDS):
            held += hand[card] > 0
            doubles += hand[card] > 1
        return 1 if size <= 0 else held if size == 1 else held * (held - 1) // 2 + doubles
    ways = np.zeros(size + 1, dtype=np.int64)
    ways[0] = 1
    for card in range(first, CARDS):
        for k in range(size, 0, -1):  # each k from the smaller ones of the cards before
            for m in range(1, min(hand[card], k) + 1):
                ways[k] += ways[k - m]
    return int(ways[size])


@compiled
def throw_nth(hand: Ints, size: int, index: int, out: Ints) -> None:
    """The ``index``-th of the distinct sets of ``size`` cards in ``hand`` (``Roads.discards``:
    sorted as tuples of codes), as counts into ``out``; ``hand`` is left as it was."""
    out[:] = 0
    card = 0
    for place in range(size):
        while True:  # the set's next card: the first code whose sets from it hold ``index``
            if hand[card] > 0:
                hand[card] -= 1
                ways = throw_ways(hand, card, size - place - 1)
                if index < ways:
                    out[card] += 1
                    break
                index -= ways
                hand[card] += 1
            card += 1
    for card in range(CARDS):
        hand[card] += out[card]


@compiled
def reach_under_jams(here: int, jams: Ints, goal: int, places: Ints, paths: Ints, dist: Ints,
           kms: Ints, best: Ints) -> int:  # fmt: skip
    """``Roads.reach`` from ``here`` under these jams, into ``kms`` and ``best``: the stops'
    km ascending (ties by town code) and the proposal within each; how many stops. A jammed
    town (and the goal) may be reached but not passed. Jams only close roads, so the stops
    are among those without jams (``REACH_TOWN``), and only those are looked at.

    Dijkstra with the towns reached but not yet final kept in a short list (``best``
    borrowed): the nearest of them, the lower code on a tie, is final next, so the stops
    come out in the order they are listed in and need no sorting."""
    near = paths[REACH_TOWN, here]
    size = places[REACH, here]
    for i in range(size):
        dist[near[i]] = FAR
    dist[here] = 0
    open_ = best  # the towns reached, not yet final
    open_[0], n_open = here, 1
    stops = 0
    while n_open > 0:
        at = 0
        for i in range(1, n_open):
            town, low = open_[i], open_[at]
            if dist[town] < dist[low] or (dist[town] == dist[low] and town < low):
                at = i
        town = open_[at]
        n_open -= 1
        open_[at] = open_[n_open]
        low = dist[town]
        kms[stops] = town  # final (its km replaces it below)
        stops += 1
        if town != here and (jams[town] != 0 or town == goal):
            continue
        for i in range(paths.shape[2]):
            step = paths[ROAD_KM, town, i]
            if step < 0:
                break
            other = paths[ROAD_TO, town, i]
            total = low + step
            if total <= MOST_KM and total < dist[other]:  # a town of ``near``: see above
                if dist[other] >= FAR:
                    open_[n_open] = other
                    n_open += 1
                dist[other] = total
    top_rank, top_km, top = FAR, 0, -1
    for i in range(stops):
        stop = kms[i]
        km, rank = dist[stop], places[RANK, stop]
        if top < 0 or (rank, -km, stop) < (top_rank, -top_km, top):
            top_rank, top_km, top = rank, km, stop
        kms[i] = km
        best[i] = top
    return stops


@compiled
def proposal(kms: Ints, best: Ints, stops: int, km: int) -> int:
    """The proposal of a movement of ``km``: ``best`` at the last stop within it."""
    low, high = 0, stops  # bisect_right
    while low < high:
        mid = (low + high) // 2
        if km < kms[mid]:
            high = mid
        else:
            low = mid + 1
    return int(best[low - 1])


@compiled
def _farthest(n0: int, n1: int, n2: int, n3: int, n4: int, cards: int) -> int:
    """The km of the ``cards`` longest of these travel cards (counts of each code)."""
    km = 0
    for count, each in ((n4, K4), (n3, K3), (n2, K2), (n1, K1), (n0, K0)):
        take = min(count, cards)
        km += take * each
        cards -= take
    return km


@compiled
def drive_choice(hand: Ints, most: int, here: int, kms: Ints, best: Ints, stops: int, rank: Ints,
           go: Ints) -> int:  # fmt: skip
    """``Roads.drive``: of every set of at most ``most`` travel cards in ``hand`` (one TOP
    SPEED at most, never alone), the one whose proposal is nearest the goal, then the fewest
    cards, the fewest km, the first cards in code order; its cards as counts of each of
    ``DRIVE_CODES`` into ``go`` and the town it stops at, or -1 if none is nearer than
    ``here``.

    A proposal is the best stop within its km, so it never gets farther from the goal as the
    km grow: the longest movement's proposal is as near as any gets, and the sets that get
    as near are those of at least ``need`` km, the km of the first stop whose proposal is
    that near. The fewest cards making ``need`` are found from the longest cards; only the
    sets of that many cards are gone through, for the fewest km and the first cards."""
    n0, n1, n2 = min(hand[D0], most), min(hand[D1], most), min(hand[D2], most)
    n3, n4 = min(hand[D3], most), min(hand[D4], most)
    top = 1 if hand[TOP_CODE] > 0 and most >= 2 else 0
    plain = n0 + n1 + n2 + n3 + n4
    if plain == 0:
        return -1
    far = _farthest(n0, n1, n2, n3, n4, most)
    if top:
        far = max(far, 2 * _farthest(n0, n1, n2, n3, n4, most - 1))
    nearest = rank[proposal(kms, best, stops, far)]
    if nearest >= rank[here]:
        return -1
    low, high = 0, stops  # the first stop whose proposal is that near (ranks never rise)
    while low < high:
        mid = (low + high) // 2
        if rank[best[mid]] > nearest:
            low = mid + 1
        else:
            high = mid
    need = kms[low]
    size = 1  # the fewest cards making ``need``: the longest of them, or with TOP SPEED
    while _farthest(n0, n1, n2, n3, n4, size) < need and not (
        top and size >= 2 and 2 * _farthest(n0, n1, n2, n3, n4, size - 1) >= need
    ):
        size += 1
    f_km = -1
    f0 = f1 = f2 = f3 = f4 = f5 = 0
    for c5 in range(top + 1):
        p = size - c5  # the travel cards besides TOP SPEED
        if p < 1:
            continue
        for c0 in range(min(n0, p) + 1):
            for c1 in range(min(n1, p - c0) + 1):
                for c2 in range(min(n2, p - c0 - c1) + 1):
                    for c3 in range(min(n3, p - c0 - c1 - c2) + 1):
                        c4 = p - c0 - c1 - c2 - c3
                        if c4 > n4:
                            continue
                        km = c0 * K0 + c1 * K1 + c2 * K2 + c3 * K3 + c4 * K4
                        if c5:
                            km *= 2
                        if km < need or (f_km >= 0 and km > f_km):
                            continue
                        # the same km: the first cards in code order hold more of the first
                        # code where they differ
                        if km == f_km and (-c0, -c1, -c2, -c3, -c4, -c5) >= (
                            -f0, -f1, -f2, -f3, -f4, -f5,
                        ):  # fmt: skip
                            continue
                        f_km = km
                        f0, f1, f2, f3, f4, f5 = c0, c1, c2, c3, c4, c5
    go[0], go[1], go[2], go[3], go[4], go[5] = f0, f1, f2, f3, f4, f5
    return proposal(kms, best, stops, f_km)
