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
    from ``first`` on."""
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
    sorted as tuples of codes), as counts into ``out``."""
    rest = hand.copy()
    out[:] = 0
    card = 0
    for place in range(size):
        while True:
            if rest[card] > 0:
                rest[card] -= 1
                ways = throw_ways(rest, card, size - place - 1)
                if index < ways:
                    out[card] += 1
                    break
                index -= ways
                rest[card] += 1
            card += 1


@compiled
def reach_under_jams(here: int, jams: Ints, goal: int, places: Ints, paths: Ints, dist: Ints,
           kms: Ints, best: Ints) -> int:  # fmt: skip
    """``Roads.reach`` from ``here`` under these jams, into ``kms`` and ``best``: the stops'
    km ascending (ties by town code) and the proposal within each; how many stops. A jammed
    town (and the goal) may be reached but not passed. Jams only close roads, so the stops
    are among those without jams (``REACH_TOWN``), and only those are looked at."""
    towns = jams.shape[0]
    near = paths[REACH_TOWN, here]
    size = places[REACH, here]
    for i in range(size):
        dist[near[i]] = FAR
    dist[here] = 0
    fixed = kms  # borrowed: 1 once a town's distance is final
    fixed[:size] = 0
    while True:
        at, low = -1, FAR
        for i in range(size):
            if fixed[i] == 0 and dist[near[i]] < low:
                at, low = i, dist[near[i]]
        if at < 0:
            break
        fixed[at] = 1
        town = near[at]
        if town != here and (jams[town] != 0 or town == goal):
            continue
        for i in range(towns):
            step = paths[ROAD_KM, town, i]
            if step < 0:
                break
            other = paths[ROAD_TO, town, i]
            total = low + step
            if total <= MOST_KM and total < dist[other]:  # a town of ``near``: see above
                dist[other] = total
    stops = 0
    for i in range(size):  # the stops by (km, town): an insertion sort
        town = near[i]
        if dist[town] >= FAR:
            continue
        key = dist[town] * towns + town
        j = stops
        while j > 0 and best[j - 1] > key:
            best[j] = best[j - 1]
            j -= 1
        best[j] = key
        stops += 1
    top_rank, top_km, top = FAR, 0, -1
    for i in range(stops):
        km, stop = best[i] // towns, best[i] % towns
        rank = places[RANK, stop]
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
def drive_choice(hand: Ints, most: int, here: int, kms: Ints, best: Ints, stops: int, rank: Ints,
           go: Ints) -> int:  # fmt: skip
    """``Roads.drive``: of every set of at most ``most`` travel cards in ``hand`` (one TOP
    SPEED at most, never alone), the one whose proposal is nearest the goal, then the fewest
    cards, the fewest km, the first cards in code order; its cards as counts of each of
    ``DRIVE_CODES`` into ``go`` and the town it stops at, or -1 if none is nearer than
    ``here``."""
    found = -1
    f_rank, f_size, f_km = 0, 0, 0
    f0 = f1 = f2 = f3 = f4 = f5 = 0
    for c5 in range(min(hand[TOP_CODE], 1) + 1):
        for c0 in range(min(hand[D0], most) + 1):
            for c1 in range(min(hand[D1], most - c0) + 1):
                for c2 in range(min(hand[D2], most - c0 - c1) + 1):
                    for c3 in range(min(hand[D3], most - c0 - c1 - c2) + 1):
                        for c4 in range(min(hand[D4], most - c0 - c1 - c2 - c3) + 1):
                            plain = c0 + c1 + c2 + c3 + c4
                            size = plain + c5
                            if plain == 0 or size > most:
                                continue
                            km = c0 * K0 + c1 * K1 + c2 * K2 + c3 * K3 + c4 * K4
                            if c5:
                                km *= 2
                            stop = proposal(kms, best, stops, km)
                            mine = rank[stop]
                            if found >= 0:
                                if (mine, size, km) > (f_rank, f_size, f_km):
                                    continue
                                # the same size: the first cards in code order hold more
                                # of the first code where they differ
                                if (mine, size, km) == (f_rank, f_size, f_km) and (
                                    -c0, -c1, -c2, -c3, -c4, -c5,
                                ) >= (-f0, -f1, -f2, -f3, -f4, -f5):  # fmt: skip
                                    continue
                            found, f_rank, f_size, f_km = stop, mine, size, km
                            f0, f1, f2, f3, f4, f5 = c0, c1, c2, c3, c4, c5
    if found < 0 or f_rank >= rank[here]:
        return -1
    go[0], go[1], go[2], go[3], go[4], go[5] = f0, f1, f2, f3, f4, f5
    return found
