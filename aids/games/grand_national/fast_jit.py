"""Grand National's playouts compiled (Numba): ``FastRace``'s loop once more, on NumPy arrays,
for the chances' hot path. ``FastRace`` (``aids.games.grand_national.fast``) stays the
reference: it is checked against the engine move for move, and
``tests/games/grand_national/test_fast_jit.py`` checks this loop against it playout for
playout on thousands of positions, fed the same uniform numbers (the same draws, in the same
order, give the same race and the same figures).

``Kernel(race)`` packs a race (as ``fast_state.race_of`` makes it) into arrays once per
estimate; ``Kernel.play(seeds)`` runs a playout per seed in one compiled call and
returns their figures as rows (``FastRace.result``'s). Where Numba is not installed
(``aids.games.jit.AVAILABLE``), the chances use ``FastRace`` itself.

The loop is written for a compiler, not for CPython: no sets, dicts or sorted lists — each
horse's flags are rows of one array, the running horses are those whose status is 0, and the
leader, the second and the hindmost are found by scanning (16–24 horses), where ``FastRace``
keeps them incrementally to spare the interpreter.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from aids.games.chances import PlayoutTooLong
from aids.games.grand_national.data import load
from aids.games.grand_national.fast import (
    BLIND,
    GOING,
    KEY_BITS,
    KEY_LOW,
    LANES,
    MARKET,
    OVER,
    RACE,
    FastRace,
)
from aids.games.jit import AVAILABLE as AVAILABLE
from aids.games.jit import compiled, seed, uniform

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

# the fixed numbers of a race: indices into ``Kernel.cfg``
(N, SLOTS, SEATS, RIDER, LOW, HIGH, FINISH, LAP, UNTIL, ORDER_CAPS, TF_ANY, TF_END, FREE_GAP,
 FREE_CUT, LOW_MARK, PRIZES, N_GOINGS, N_COLOURS, PAID,
 # and where the race stands
 PHASE, TOP, BLIND_LEFT, N_LANES, N_PLACED, LEAD, ROUND, CAP, N_GROUP, N_SEQ,
 CFG) = range(30)  # fmt: skip
# the rows of ``Kernel.horse``: one int per horse
HANDICAP, USED, DIST, LANE, STATUS, MOVED, DONE_FREE, LOSE_TURN, HORSE_ROWS = range(9)
# the rows of ``Kernel.lists``: the placed, this turn's group, the turn's sequence
PLACED, GROUP, SEQ, LIST_ROWS = range(4)


class Kernel:
    """A race packed into arrays for the compiled loop (``races``)."""

    __slots__ = ("cash", "cfg", "horse", "lanes", "lists", "pay", "rings", "spin", "stakes", "tops")

    def __init__(self, race: FastRace) -> None:
        d = load()
        n, slots = race.horses, len(race.spin_groups)
        cfg = np.zeros(CFG, dtype=np.int64)
        values = {
            N: n, SLOTS: slots, SEATS: race.seats, RIDER: race.pacing == "rider",
            LOW: d.speed[0], HIGH: d.speed[1], FINISH: race.finish, LAP: race.lap,
            UNTIL: race.until, ORDER_CAPS: race.order_caps, TF_ANY: race.tf_any,
            TF_END: race.tf_end, FREE_GAP: d.too_free_lengths, FREE_CUT: d.too_free_penalty,
            LOW_MARK: d.handicap[0], PRIZES: len(race.prizes), N_GOINGS: len(race.tops),
            N_COLOURS: len(race.lane_rings), PAID: race.paid, PHASE: race.phase,
            TOP: race.top, BLIND_LEFT: len(race.blind_left), N_LANES: len(race.lanes),
            N_PLACED: len(race.placed), LEAD: race.lead, ROUND: race.round, CAP: race.cap,
            N_GROUP: len(race.group), N_SEQ: len(race.seq),
        }  # fmt: skip
        for index, value in values.items():
            cfg[index] = int(value)
        self.cfg = cfg
        horse = np.zeros((HORSE_ROWS, n), dtype=np.int64)
        horse[HANDICAP], horse[USED], horse[DIST] = race.handicap, race.used, race.dist
        horse[LANE], horse[STATUS], horse[MOVED] = race.lane, race.status, race.moved
        for h in race.done_free:
            horse[DONE_FREE, h] = 1
        for h in race.lose_turn:
            horse[LOSE_TURN, h] = 1
        self.horse = horse
        lists = np.zeros((LIST_ROWS, n), dtype=np.int64)
        lists[PLACED, : len(race.placed)] = race.placed
        lists[GROUP, : len(race.group)] = race.group
        lists[SEQ, : len(race.seq)] = race.seq
        self.lists = lists
        self.lanes = np.zeros((slots, race.seats), dtype=np.int64)
        for cap, stables in enumerate(race.lanes):
            self.lanes[cap] = stables
        self.tops = np.array(race.tops, dtype=np.int64)
        self.rings = np.array(race.lane_rings, dtype=np.int64).reshape(-1, race.seats)
        self.spin = np.array(race.spin_groups, dtype=np.int64).reshape(slots, -1, race.seats)
        # the settlement: per horse and place, each seat's sum; the blind stakes per seat
        self.pay = np.zeros((n, len(race.prizes), race.seats), dtype=np.float64)
        for h in range(n):
            for place in range(len(race.prizes)):
                for seat, amount in race.pay[h][place]:
                    self.pay[h, place, seat] += amount
        self.stakes = np.zeros(race.seats, dtype=np.float64)
        for seat, amount in race.pay[n]:
            self.stakes[seat] += amount
        self.cash = np.array(race.cash, dtype=np.float64)

    def play(self, seeds: Ints, draws: Floats | None = None,
             max_steps: int = 5_000) -> tuple[Floats, int]:  # fmt: skip
        """One playout per seed (each 0 ≤ seed < 2³², so a playout depends on its own seed
        alone, however the playouts are split into calls): their rows (``FastRace.result``'s)
        and the uniform numbers drawn. The numbers are taken from ``draws`` while it lasts,
        then from the compiled generator seeded with the playout's seed. ``PlayoutTooLong``
        if one needs more than ``max_steps`` steps."""
        n, seats = int(self.cfg[N]), int(self.cfg[SEATS])
        out = np.zeros((len(seeds), 2 * n + seats), dtype=np.float64)
        given = np.zeros(0, dtype=np.float64) if draws is None else draws
        drawn = races(self.cfg, self.horse, self.lists, self.lanes, self.tops, self.rings,
                      self.spin, self.pay, self.stakes, self.cash, seeds, given,
                      max_steps, out)  # fmt: skip
        if drawn < 0:
            raise PlayoutTooLong("gn", max_steps)
        return out, int(drawn)


@compiled
def _speed(cfg: Ints, handicap: int, lengths: int, points: int, x: float,
           buf: Ints) -> int:  # fmt: skip
    """The speed the ``x``-th share (in [0, 1)) of the horse's options picks: exactly
    ``fast_state.speeds``' list (ascending), indexed as ``FastRace.run`` indexes it."""
    low, high = cfg[LOW], cfg[HIGH]
    top = min(high, points)
    count = 0
    if cfg[RIDER]:
        pace = -1
        for s in range(high, low - 1, -1):  # the even pace: the fastest s it can keep
            if handicap + s > 0:
                turns = (lengths + handicap + s - 1) // (handicap + s)
                if s * turns <= points:
                    pace = s
                    break
        if pace >= 0:
            for s in range(low, top + 1):
                if abs(s - pace) <= 1:
                    rest = lengths - handicap - s
                    if rest <= 0 or points - s >= (rest + handicap) // (handicap + 1):
                        buf[count] = s
                        count += 1
    if count == 0:
        for s in range(low, top + 1):
            buf[count] = s
            count += 1
    return int(buf[int(x * count)])


@compiled
def _top_two(horse: Ints, key: Ints, n: int) -> tuple[int, int]:
    """The keys of the leader and the second among the running horses (-1 for none)."""
    first = second = -1
    for x in range(n):
        if horse[STATUS, x] == 0:
            k = key[x]
            if k > first:
                first, second = k, first
            elif k > second:
                second = k
    return first, second


@compiled
def races(cfg0: Ints, horse0: Ints, lists0: Ints, lanes0: Ints, tops: Ints, rings: Ints,
          spin: Ints, pay: Floats, stakes: Floats, cash: Floats, seeds: Ints,
          draws: Floats, max_steps: int, out: Floats) -> int:  # fmt: skip
    """One playout of ``FastRace.run``'s loop (uniform choices) per seed, each from the
    packed race, into ``out``'s rows; the numbers drawn, or -1 if a playout needed more than
    ``max_steps`` steps while something could still move."""
    n, slots, seats = cfg0[N], cfg0[SLOTS], cfg0[SEATS]
    finish, lap, until = cfg0[FINISH], cfg0[LAP], cfg0[UNTIL]
    order_caps, tf_any, tf_end = cfg0[ORDER_CAPS] != 0, cfg0[TF_ANY] != 0, cfg0[TF_END] != 0
    free_gap, free_cut, low_mark = cfg0[FREE_GAP], cfg0[FREE_CUT], cfg0[LOW_MARK]
    prizes = cfg0[PRIZES]
    buf = np.zeros(16, dtype=np.int64)
    key = np.zeros(n, dtype=np.int64)
    cap_run = np.zeros(slots, dtype=np.int64)
    first = np.zeros((slots, seats), dtype=np.int64)
    drawn = 0
    for play in range(seeds.shape[0]):
        seed(seeds[play])
        cfg = cfg0.copy()
        horse = horse0.copy()
        lists = lists0.copy()
        lanes = lanes0.copy()
        placed, group, seq = lists[PLACED], lists[GROUP], lists[SEQ]
        status, dist, used, handicap = horse[STATUS], horse[DIST], horse[USED], horse[HANDICAP]
        moved, lose_turn, done_free = horse[MOVED], horse[LOSE_TURN], horse[DONE_FREE]
        steps = max_steps
        phase = cfg[PHASE]
        top = cfg[TOP]
        # --- before the race: the blind bets left (none), the going, the lanes, the start
        while phase < RACE and steps > 0:
            x = uniform(draws, drawn)
            drawn += 1
            steps -= 1
            if phase == BLIND:
                cfg[BLIND_LEFT] -= 1
                phase = BLIND if cfg[BLIND_LEFT] > 0 else GOING
            elif phase == GOING:
                top = tops[int(x * cfg[N_GOINGS])]
                phase = LANES
            elif phase == LANES:
                lanes[cfg[N_LANES], :] = rings[int(x * cfg[N_COLOURS]), :]
                cfg[N_LANES] += 1
                if cfg[N_LANES] == slots:
                    phase = MARKET
            else:  # the start
                phase = RACE
                cfg[ROUND], cfg[CAP] = 1, 0
                for h in range(n):
                    moved[h] = 0
                for s in range(seats):
                    group[s] = lanes[0, s] * slots
                cfg[N_GROUP] = cfg[N_SEQ] = seats
                for s in range(seats):
                    seq[s] = group[s]
        n_placed = cfg[N_PLACED]
        if phase == RACE:
            for h in range(n):
                key[h] = (dist[h] << KEY_BITS) | (KEY_LOW - horse[LANE, h] * 32 - h)
            for c in range(slots):
                cap_run[c] = 0
                for s in range(seats):
                    first[c, s] = lanes[c, s] * slots + c
            running = 0
            for h in range(n):
                if status[h] == 0:
                    cap_run[h % slots] += 1
                    running += 1
            rnd, cap, at, lead = cfg[ROUND], cfg[CAP], 0, cfg[LEAD]
            n_group, n_seq = cfg[N_GROUP], cfg[N_SEQ]
            seq_is_group = True  # ``seq`` is ``group`` (cap order, or the first round)
            if not order_caps and rnd > 1:
                seq_is_group = False
            tf_now = tf_any and rnd > 1
            due = -1
            while at < n_seq and due < 0:
                x_h = group[at] if seq_is_group else seq[at]
                if moved[x_h] == 0 and status[x_h] == 0:
                    due = x_h
                else:
                    at += 1
            ended = False
            while steps > 0:
                if due >= 0:  # the move
                    h = due
                    x = uniform(draws, drawn)
                    drawn += 1
                    speed = _speed(cfg, handicap[h], finish - dist[h], top - used[h], x, buf)
                    steps -= 1
                    lengths = handicap[h] + speed
                    here = dist[h] + lengths
                    dist[h] = here
                    key[h] += lengths << KEY_BITS
                    used[h] += speed
                    moved[h] = 1
                    at += 1
                    if here >= finish and n_placed < prizes:
                        placed[n_placed] = h
                        n_placed += 1
                        status[h] = 1
                        running -= 1
                        cap_run[h % slots] -= 1
                        ended = n_placed >= prizes or running == 0
                    if here > lead:
                        lead = here
                        for x_h in range(n):  # the lapped are pulled up
                            if status[x_h] == 0 and lead - dist[x_h] >= lap:
                                status[x_h] = 4
                                running -= 1
                                cap_run[x_h % slots] -= 1
                        ended = ended or running == 0
                    if status[h] == 0 and used[h] >= top:  # out of speed points
                        status[h] = 4
                        running -= 1
                        cap_run[h % slots] -= 1
                        lead = 0
                        for x_h in range(n):
                            if status[x_h] == 0 and dist[x_h] > lead:
                                lead = dist[x_h]
                        for p in range(n_placed):
                            if dist[placed[p]] > lead:
                                lead = dist[placed[p]]
                        ended = ended or running == 0
                    if tf_now and running > 1:
                        k1, k2 = _top_two(horse, key, n)
                        if (k1 >> KEY_BITS) - (k2 >> KEY_BITS) >= free_gap:
                            x_h = (KEY_LOW - (k1 & KEY_LOW)) & 31
                            if dist[x_h] <= until and done_free[x_h] == 0:
                                handicap[x_h] = max(low_mark, handicap[x_h] - free_cut)
                                done_free[x_h] = 1
                elif order_caps and rnd > 1 and n_group == 0:  # the spin
                    x = uniform(draws, drawn)
                    drawn += 1
                    k = int(x * cfg[N_COLOURS])
                    steps -= 1
                    for s in range(seats):
                        group[s] = spin[cap, k, s]
                    n_group = n_seq = seats
                    seq_is_group = True
                    at = 0
                else:
                    break  # nobody is due and no spin
                # the turn advance: lost turns, the next cap's group, the next round
                while True:
                    due = -1
                    while at < n_seq:
                        x_h = group[at] if seq_is_group else seq[at]
                        if moved[x_h] == 0 and status[x_h] == 0:
                            due = x_h
                            break
                        at += 1
                    if due >= 0:
                        if lose_turn[due] != 0:
                            moved[due] = 1
                            lose_turn[due] = 0
                            continue
                        break
                    if order_caps and rnd > 1 and n_group == 0:
                        break  # the spinner for this cap's horses
                    if order_caps or rnd == 1:
                        nxt = -1
                        for c in range(cap + 1, slots):
                            if rnd == 1 or cap_run[c] > 0:
                                nxt = c
                                break
                        if nxt >= 0:
                            cap, at = nxt, 0
                            if rnd == 1:
                                for s in range(seats):
                                    group[s] = first[nxt, s]
                                n_group = seats
                            else:
                                n_group = 0
                            n_seq = n_group
                            seq_is_group = True
                            continue
                    if tf_end and running > 1:  # the round is over: running too free
                        k1, k2 = _top_two(horse, key, n)
                        x_h = (KEY_LOW - (k1 & KEY_LOW)) & 31
                        gap = (k1 >> KEY_BITS) - (k2 >> KEY_BITS)
                        if gap >= free_gap and dist[x_h] <= until and done_free[x_h] == 0:
                            handicap[x_h] = max(low_mark, handicap[x_h] - free_cut)
                            done_free[x_h] = 1
                    rnd, cap, n_group, at = rnd + 1, 0, 0, 0
                    tf_now = tf_any
                    for x_h in range(n):
                        moved[x_h] = 0
                    if order_caps:
                        cap = 0
                        for c in range(slots):
                            if cap_run[c] > 0:
                                cap = c
                                break
                        n_seq = 0
                        seq_is_group = True
                        break
                    n_seq = 0  # the round in position order: the running, furthest first
                    for x_h in range(n):
                        if status[x_h] == 0:
                            j = n_seq
                            while j > 0 and key[seq[j - 1]] < key[x_h]:
                                seq[j] = seq[j - 1]
                                j -= 1
                            seq[j] = x_h
                            n_seq += 1
                    seq_is_group = False
                    while at < n_seq and lose_turn[seq[at]] != 0:
                        moved[seq[at]] = 1
                        lose_turn[seq[at]] = 0
                        at += 1
                    due = seq[at] if at < n_seq else -1
                    break
                if ended:
                    phase = OVER
                    break
            spin_due = order_caps and rnd > 1 and n_group == 0
            if steps == 0 and phase != OVER and (due >= 0 or spin_due):
                return -1
        elif phase < RACE:
            return -1  # the steps ran out before the race (cannot happen: a few steps)
        # --- the row: each horse 1st, each horse placed, each stable's money
        row = out[play]
        for s in range(seats):
            row[2 * n + s] = cash[s]
        settle = phase == OVER and cfg0[PAID] == 0
        for p in range(n_placed):
            h = placed[p]
            if p == 0:
                row[h] = 1.0
            row[n + h] = 1.0
            if settle:
                for s in range(seats):
                    row[2 * n + s] += pay[h, p, s]
        if settle:
            for s in range(seats):
                row[2 * n + s] += stakes[s]
    return drawn


def warm() -> None:
    """Compile the loop now (or load it from the disk cache): a worker does this before its
    first job, so no estimate's budget pays for the compiler (about 10 s the first time on a
    machine, well under 1 s from the cache)."""
    ints = np.zeros(CFG, dtype=np.int64)
    ints[N], ints[SEATS], ints[PHASE], ints[PAID] = 1, 1, OVER, 1
    one = np.zeros(1, dtype=np.int64)
    races(ints, np.zeros((HORSE_ROWS, 1), dtype=np.int64), np.zeros((LIST_ROWS, 1), dtype=np.int64),
          np.zeros((1, 1), dtype=np.int64), one, np.zeros((1, 1), dtype=np.int64),
          np.zeros((1, 1, 1), dtype=np.int64), np.zeros((1, 1, 1)), np.zeros(1), np.zeros(1), one,
          np.zeros(0), 1, np.zeros((1, 3)))  # fmt: skip
