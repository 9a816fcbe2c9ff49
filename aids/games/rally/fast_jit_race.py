"""The rally's compiled race: ``FastRally.run``'s loop once more (the greedy driver, the
model's uniform choices, reshuffles, the referee's end at the round cap) on the arrays
``fast_jit.Kernel`` packs, and the row ``FastRally.result`` makes of the finish.

The loop is written for a compiler: a hand and the discard pile are counts per card code,
the jams one flag per town (and a list of the jammed towns), the pile an array whose next
card is last. The driver's movement is ``Roads.drive``'s (``fast_jit_map.drive_choice``);
each town's reach without jams is packed once (``Roads.reach``), and found again (a small
Dijkstra over the roads) only when a jammed town lies within it, then kept in the kernel's
``Memo`` for every later race under the same jams. The discards are counted and the one
drawn is found by its index in their sorted order, never listed.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from aids.games.jit import compiled, uniform
from aids.games.rally.fast import ACT, DRAW_PHASE, OVER
from aids.games.rally.fast_jit_map import (
    PORT,
    RANK,
    REACH,
    REACH_AT,
    REACH_BEST,
    REACH_KM,
    drive_choice,
    reach_under_jams,
    shuffle_cards,
    throw_nth,
    throw_ways,
)
from aids.games.rally.fast_map import (
    ATTACK,
    ATTACKS,
    CARDS,
    CLEAR_SKY,
    DEFENCES,
    DEFEND,
    DRAW,
    DRIVE_CODES,
    END,
    END_RACE,
    ENGINE,
    FERRY,
    JAM,
    JAM_CLEAR,
    POLICE,
    RAIN,
    REPAIR,
    TRAVEL,
)

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

# indices into ``Kernel.cfg``: the fixed numbers, then where the race stands
PLAYERS, START, GOAL, LAST_ROUND, POLICE_TURNS, TEAMS, HIDDEN = range(7)
ROUND, TURN, PHASE, LEFT, MOVED, FERRIED, ACTED, THROWN, RESHUFFLES, ENDED, ARRIVED = range(7, 18)
CFG = 18
# rows of ``Kernel.seats``: per seat
ACTIONS, LIMITS, DRAWS, TEAM, POINTS, TOWN, WET, BROKEN, STOPPED, DONE, ORDER, SIZE = range(12)
SEAT_ROWS = 12


#: reaches under jams kept per town (``Memo``); a key's bits per word (a town's reach holds
#: at most ``2 * KEY_BITS`` stops for its key to be kept: wider reaches are found every time)
SLOTS, KEY_BITS = 8, 62
A0, A1, A2, A3 = ATTACKS
F0, F1, F2 = DEFENCES


@compiled
def race(cfg: Ints, seats0: Ints, jams0: Ints, places: Ints, paths: Ints, hands: Ints,
         pile: Ints, n_pile: int, discard: Ints, draws: Floats, max_steps: int, memo: Ints,
         memo_keys: Ints, memo_next: Ints, out: Floats) -> int:  # fmt: skip
    """One race of ``FastRally.run``'s loop (the greedy driver) from the packed position
    with these ``hands`` (counts per code), ``pile`` (``n_pile`` cards, the next one last)
    and ``discard`` (counts), into ``out``: the numbers drawn, or -1 past ``max_steps``
    steps. ``hands``, ``pile`` and ``discard`` are changed. ``memo``, ``memo_keys`` and
    ``memo_next`` are a ``Memo``'s arrays: a town's reach under the jams that lie within its
    reach without jams, kept from race to race."""
    n, start, goal, last = cfg[PLAYERS], cfg[START], cfg[GOAL], cfg[LAST_ROUND]
    police_turns, teams = cfg[POLICE_TURNS], cfg[TEAMS]
    rnd, turn, phase, left = cfg[ROUND], cfg[TURN], cfg[PHASE], cfg[LEFT]
    moved, ferried, acted = cfg[MOVED] != 0, cfg[FERRIED] != 0, cfg[ACTED] != 0
    thrown, reshuffles, n_arrived = cfg[THROWN], cfg[RESHUFFLES], cfg[ARRIVED]
    seats = seats0.copy()
    actions, limits, draw_of = seats[ACTIONS], seats[LIMITS], seats[DRAWS]
    towns, rain, eng, police = seats[TOWN], seats[WET], seats[BROKEN], seats[STOPPED]
    done, arrived, sizes = seats[DONE], seats[ORDER], seats[SIZE]
    jams = jams0.copy()
    n_towns = jams.shape[0]
    rank = places[RANK]
    plays = np.zeros((4, 4 * n + 2 * n + n_towns + 1), dtype=np.int64)  # kind, card, seat, town
    go = np.zeros(6, dtype=np.int64)
    throw = np.zeros(CARDS, dtype=np.int64)
    dist = np.zeros(n_towns, dtype=np.int64)
    jammed_towns = np.zeros(n_towns, dtype=np.int64)  # the jammed towns, ``n_jams`` of them
    n_jams = 0
    for t in range(n_towns):
        if jams[t] != 0:
            jammed_towns[n_jams] = t
            n_jams += 1
    deck = np.zeros(pile.shape[0], dtype=np.int64)
    drawn = 0
    steps = max_steps
    while steps > 0 and phase != OVER:
        s = turn
        hand = hands[s]
        kind, card, target, town = -1, -1, -1, -1
        n_plays, n_ends, excess, end = 0, 1, 0, 0
        if rnd > last:
            kind = END_RACE
        elif phase == DRAW_PHASE:
            kind = DRAW
        else:
            here = towns[s]
            stuck = jams[here] != 0
            if not (acted or moved or ferried or stuck) and left == actions[s]:
                port = places[PORT, here]
                if port >= 0:
                    kind, town = FERRY, port
            if kind < 0 and left > 0:
                if stuck and hand[JAM_CLEAR] > 0:
                    kind, card, town = DEFEND, JAM_CLEAR, here
                elif eng[s] and hand[REPAIR] > 0:
                    kind, card, target = DEFEND, REPAIR, s
                elif rain[s] and hand[CLEAR_SKY] > 0:
                    kind, card, target = DEFEND, CLEAR_SKY, s
                elif not (moved or eng[s] or stuck):
                    most = 1 if rain[s] else min(left, sizes[s])
                    jammed, kept, w0, w1 = False, True, 0, 0
                    for j in range(n_jams):  # the jams within the reach without jams: a key
                        i = paths[REACH_AT, here, jammed_towns[j]]
                        if i >= 1:  # (its place 0 is ``here``)
                            jammed = True
                            if i < KEY_BITS:
                                w0 |= 1 << i
                            elif i < 2 * KEY_BITS:
                                w1 |= 1 << (i - KEY_BITS)
                            else:
                                kept = False  # a reach too wide for the key: not kept
                    if jammed:  # found once per town and such jams, for every playout
                        slot, stops = -1, 0
                        for k in range(SLOTS if kept else 0):
                            if (memo_keys[k, here, 2] >= 0 and memo_keys[k, here, 0] == w0
                                    and memo_keys[k, here, 1] == w1):  # fmt: skip
                                slot, stops = k, memo_keys[k, here, 2]
                                break
                        if slot < 0:
                            slot = memo_next[here]
                            memo_next[here] = (slot + 1) % SLOTS
                            stops = reach_under_jams(
                                here, jams, goal, places, paths, dist, memo[slot, 0, here],
                                memo[slot, 1, here])  # fmt: skip
                            memo_keys[slot, here, 0], memo_keys[slot, here, 1] = w0, w1
                            memo_keys[slot, here, 2] = stops if kept else -1
                        stop = drive_choice(hand, most, here, memo[slot, 0, here],
                                            memo[slot, 1, here], stops, rank, go)  # fmt: skip
                    else:
                        stop = drive_choice(hand, most, here, paths[REACH_KM, here],
                                            paths[REACH_BEST, here], places[REACH, here], rank,
                                            go)  # fmt: skip
                    if stop >= 0:
                        kind, town = TRAVEL, stop
            if kind < 0:
                if left > 0:
                    for a in (A0, A1, A2, A3):
                        if hand[a] == 0:
                            continue
                        for t in range(n):
                            if t == s or done[t] != 0:
                                continue
                            if a == JAM:
                                held = jams[towns[t]] != 0
                            elif a == RAIN:
                                held = rain[t] != 0
                            elif a == ENGINE:
                                held = eng[t] != 0
                            else:
                                held = police[t] > 0
                            if not held:
                                plays[0, n_plays], plays[1, n_plays] = ATTACK, a
                                plays[2, n_plays], plays[3, n_plays] = t, -1
                                n_plays += 1
                    for d in (F0, F1, F2):
                        if hand[d] == 0:
                            continue
                        if d == JAM_CLEAR:
                            for t in range(n_towns if n_jams > 0 else 0):  # lowest code first
                                if jams[t] != 0:
                                    plays[0, n_plays], plays[1, n_plays] = DEFEND, d
                                    plays[2, n_plays], plays[3, n_plays] = -1, t
                                    n_plays += 1
                        else:
                            for t in range(n):
                                if (rain[t] if d == CLEAR_SKY else eng[t]) != 0:
                                    plays[0, n_plays], plays[1, n_plays] = DEFEND, d
                                    plays[2, n_plays], plays[3, n_plays] = t, -1
                                    n_plays += 1
                excess = sizes[s] - limits[s]
                if excess > 0:
                    n_ends = throw_ways(hand, 0, excess)
                if n_plays == 0 and n_ends == 1:
                    kind = END
        if kind < 0:  # as ``chances._pick``: one draw, the weights subtracted
            share = 1.0 / (n_plays + 1)
            x = uniform(draws, drawn)
            drawn += 1
            for i in range(n_plays):
                x -= share
                if x < 0:
                    kind, card, target, town = plays[0, i], plays[1, i], plays[2, i], plays[3, i]
                    break
            if kind < 0:
                each = share / n_ends
                kind, end = END, n_ends - 1
                for i in range(n_ends):
                    x -= each
                    if x < 0:
                        end = i
                        break
        steps -= 1
        advance = home = False
        if kind == DRAW:
            want = min(draw_of[s], n_pile + thrown)
            sizes[s] += want
            if n_pile < want:  # the pile runs out: the discard pile shuffled into a new one
                for i in range(n_pile):
                    hand[pile[i]] += 1
                want -= n_pile
                reshuffles += 1
                m = 0
                for c in range(CARDS):
                    for _ in range(discard[c]):
                        deck[m] = c
                        m += 1
                drawn = shuffle_cards(deck, m, draws, drawn)
                for i in range(m):
                    pile[i] = deck[m - 1 - i]
                n_pile = m
                discard[:] = 0
                thrown = 0
            for _ in range(want):
                n_pile -= 1
                hand[pile[n_pile]] += 1
            phase, left = ACT, actions[s]
        elif kind == TRAVEL:
            used = 0
            for i in range(6):
                c = DRIVE_CODES[i]
                hand[c] -= go[i]
                discard[c] += go[i]
                used += go[i]
            sizes[s] -= used
            thrown += used
            left -= used
            acted = moved = True
            towns[s] = town
            home = town == goal
        elif kind in (ATTACK, DEFEND):
            hand[card] -= 1
            discard[card] += 1
            sizes[s] -= 1
            thrown += 1
            left -= 1
            acted = True
            if card == JAM:
                if jams[towns[target]] == 0:
                    jammed_towns[n_jams] = towns[target]
                    n_jams += 1
                jams[towns[target]] = 1
            elif card == RAIN:
                rain[target] = 1
            elif card == ENGINE:
                eng[target] = 1
            elif card == POLICE:
                police[target] = police_turns
            elif card == JAM_CLEAR:
                if jams[town] != 0:
                    for j in range(n_jams):  # out of the list: the last one takes its place
                        if jammed_towns[j] == town:
                            n_jams -= 1
                            jammed_towns[j] = jammed_towns[n_jams]
                            break
                jams[town] = 0
            elif card == CLEAR_SKY:
                rain[target] = 0
            else:
                eng[target] = 0
        elif kind == FERRY:
            towns[s] = town
            left = 0
            ferried = True
            home = town == goal
        elif kind == END:
            if excess > 0:
                throw_nth(hand, excess, end, throw)
                for c in range(CARDS):
                    hand[c] -= throw[c]
                    discard[c] += throw[c]
                sizes[s] -= excess
                thrown += excess
            advance = True
        else:
            phase = OVER  # the referee's end
        if home:  # arriving ends the car's race and its turn
            arrived[n_arrived] = s
            n_arrived += 1
            done[s] = 1
            rain[s] = eng[s] = 0
            advance = True
        if advance:
            if n_arrived == n:
                phase, left = OVER, 0
                continue
            seat = s
            while True:  # clockwise to the next car on the road; police turns missed
                seat = (seat + 1) % n
                if seat == start:
                    rnd += 1
                if done[seat] != 0:
                    continue
                if police[seat] > 0:
                    police[seat] -= 1
                    continue
                break
            turn, phase, left = seat, DRAW_PHASE, 0
            moved = ferried = acted = False
    if phase != OVER:
        return -1
    _result(n, teams, seats, n_arrived, rank, out)
    return drawn


@compiled
def _result(n: int, teams: int, seats: Ints, n_arrived: int, rank: Ints, out: Floats) -> None:
    """``FastRally.result``: each car first, each car's place, each team winning and its
    points (the arrivals in order, then the cars on the road nearest the goal first, equal
    distances sharing a place)."""
    towns, done, arrived, table, team = (
        seats[TOWN],
        seats[DONE],
        seats[ORDER],
        seats[POINTS],
        seats[TEAM],
    )
    places = np.zeros(n, dtype=np.int64)
    points = np.zeros(n, dtype=np.int64)
    rest = np.zeros(n, dtype=np.int64)
    place, first = 0, 0
    for i in range(n_arrived):
        places[arrived[i]] = place
        points[arrived[i]] = table[place]
        place += 1
    n_rest = 0
    for seat in range(n):  # the cars on the road by (distance, seat): an insertion sort
        if done[seat] != 0:
            continue
        i = n_rest
        while i > 0 and rank[towns[rest[i - 1]]] > rank[towns[seat]]:
            rest[i] = rest[i - 1]
            i -= 1
        rest[i] = seat
        n_rest += 1
    group, last = place, -1
    for i in range(n_rest):
        seat = rest[i]
        distance = rank[towns[seat]]
        if distance != last:
            group, last = place, distance
        places[seat] = group
        points[seat] = table[group]
        place += 1
    for seat in range(n):
        if places[seat] == 0:
            first += 1
    for seat in range(n):
        out[seat] = 1.0 / first if places[seat] == 0 else 0.0
        out[n + seat] = float(places[seat] + 1)
    if teams > 0:
        totals = np.zeros(teams, dtype=np.int64)
        for seat in range(n):
            totals[team[seat]] += points[seat]
        top = totals.max()
        winners = 0
        for i in range(teams):
            if totals[i] == top:
                winners += 1
        for i in range(teams):
            out[2 * n + i] = 1.0 / winners if totals[i] == top else 0.0
            out[2 * n + teams + i] = float(totals[i])
