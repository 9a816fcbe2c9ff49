"""Grand National's race for playouts (``FastRace``): the engine's rules on plain lists of
small ints, for the moves the chances model makes (straight on at a rider's pace, the
spinner's spins, the race started as it stands), 40–60 times faster than a playout of the
same model on the engine (``GnChances.play_out``; one run, 2026-12-01, a busy 2-core machine:
44 → 2,712 a second from the start of a 4-stable table, 100 → 4,108 mid-race);
``fast_state`` makes one of a state and reads it back.

Only ``aids.games.grand_national.chances`` and the tests use it;
``tests/games/grand_national/test_fast.py`` checks it against the engine on thousands of
random positions, move for move (the legal actions of the model's kinds as a set, and the
state after each, field by field), and replays whole playouts through the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from aids.games.chances import PlayoutTooLong
from aids.games.grand_national.data import load

#: a playout's cap: every move burns at least one speed point, so a race ends far sooner
MAX_STEPS = 5_000
PHASES = ("blind_bets", "going", "lanes", "market", "race", "over")
BLIND, GOING, LANES, MARKET, RACE, OVER = range(6)
STATUS = ("running", "finished", "fallen", "withdrawn", "pulled_up")
RUN, FINISHED, PULLED = 0, 1, 4
# an action's code: a move of the horse due by ``speed`` points straight on is the speed
# (1–8); a spin of the k-th colour in play (sorted) SPIN + k; the k-th going GOING_AT + k; the
# next lane's spin LANE_AT + k; the start START; "no blind bet" of a seat BLIND_AT + seat
SPIN, GOING_AT, LANE_AT, START, BLIND_AT = 16, 32, 48, 64, 80
#: a horse's order key: distance << 10 | (1023 − lane × 32 − horse), larger = further ahead
KEY_BITS, KEY_LOW = 10, 1023
#: a move of a horse: (speed, lengths run, what its code loses, what its order key gains)
FastMove = tuple[int, int, int, int]


class FastRace:
    """One table from the viewer's state to the end, in plain lists, for playouts. Horses
    are indices (stable × 4 + slot); per horse: distance, lane, speed points used, handicap,
    status (``STATUS``), whether it has moved this round. Everything that no move of the
    model changes (the spin groups, the lane rings, the payouts) is computed once, in
    ``fast_state.race_of``, and shared by every copy. Only ``GnChances`` and the tests use it.
    """

    __slots__ = (
        "at", "blind_left", "cap", "cap_run", "card_moved", "cash", "codes", "dist",
        "done_free", "fill", "finish", "first", "free", "going", "goings", "group", "handicap",
        "horses", "key", "lane", "lane_rings", "lanes", "lap", "lead", "lose_turn", "moved",
        "order_caps", "pacing", "paid", "pay", "phase", "placed", "prizes", "round", "running",
        "seats", "seq", "spin_groups", "spins", "status", "table", "tail", "tf_any", "tf_end",
        "top", "tops", "until", "used",
    )  # fmt: skip
    horses: int
    seats: int
    pacing: str
    table: dict[int, list[FastMove]]  # a horse's code: its moves, filled by
    fill: Callable[[int], list[FastMove]]  # ``fast_state.moves`` for ``pacing``
    phase: int
    goings: tuple[str, ...]
    tops: tuple[int, ...]
    going: int  # an index in ``goings``; -1 before the spin
    top: int
    finish: int
    lap: int
    until: int  # running too free is checked up to this distance
    order_caps: bool
    tf_any: bool
    tf_end: bool
    handicap: list[int]
    used: list[int]
    dist: list[int]
    lane: list[int]
    status: list[int]
    running: list[int]  # in horse order
    placed: list[int]
    lead: int  # the furthest distance of a horse running or placed
    round: int
    cap: int
    group: list[int]
    seq: list[int]  # this turn's horses in order: ``group``, or the round's in position order
    at: int  # where in ``seq`` the next horse due is looked for
    moved: list[bool]
    done_free: set[int]
    lose_turn: set[int]
    card_moved: set[int]
    blind_left: list[int]  # seats yet to write a blind bet
    lanes: list[list[int]]
    spin_groups: list[list[list[int]]]  # per cap, per colour (sorted): the turn's horses
    lane_rings: list[list[int]]  # per colour (sorted): the stables, inside first
    cash: list[float]
    prizes: tuple[int, ...]
    pay: list[Any]
    key: list[int]  # per horse: its order key (``KEY_BITS``)
    codes: list[int]  # per horse: handicap << 20 | lengths to go << 10 | speed points left
    cap_run: list[int]  # per cap: the horses running
    tail: int  # at most the hindmost running horse's distance
    first: list[list[int]]  # the first turn's groups, per cap
    spins: list[int]  # a spin's codes
    free: tuple[int, int, int]  # running too free: the lead, the cut, the lowest mark
    paid: bool  # settled before ``of``: the cash holds the settlement already

    def copy(self) -> FastRace:
        other = FastRace.__new__(FastRace)
        for name in FastRace.__slots__:
            setattr(other, name, getattr(self, name))
        other.handicap, other.used = list(self.handicap), list(self.used)
        other.dist, other.status = list(self.dist), list(self.status)
        other.running, other.placed = list(self.running), list(self.placed)
        other.moved = list(self.moved)
        if self.phase >= RACE:
            other.key, other.codes = list(self.key), list(self.codes)
            other.cap_run = list(self.cap_run)
        other.done_free, other.lose_turn = set(self.done_free), set(self.lose_turn)
        other.card_moved, other.blind_left = set(self.card_moved), list(self.blind_left)
        other.lanes = [list(stables) for stables in self.lanes]
        return other

    # --- the rules ------------------------------------------------------------------------

    def actions(self) -> list[int]:
        """The codes the model may choose among now (as ``run`` lists them; [] at the end)."""
        seen: list[int] = []

        def look(options: list[int]) -> int:
            seen.extend(options)
            return -1

        self.run(look, steps=1)
        return seen

    def step(self, code: int) -> None:
        """Apply one action (a code from ``actions``)."""
        self.run(lambda options: options.index(code), steps=1)

    def play_out(self, rng: random.Random, max_steps: int = MAX_STEPS) -> list[float]:
        """The model's choices, each uniform among its options, to the end; the result.
        Raises ``PlayoutTooLong`` rather than take more than ``max_steps`` steps."""
        left = self.run(None, steps=max_steps, pick=rng.random)
        if left == 0 and self.phase != OVER and self.actions():
            raise PlayoutTooLong("gn", max_steps)
        return self.result()

    def run(
        self,
        choose: Callable[[list[int]], int] | None,
        steps: int = -1,
        pick: Callable[[], float] | None = None,
    ) -> int:
        """The rules' loop, the one path ``actions``, ``step`` and ``play_out`` all take;
        returns the steps left of ``steps``.

        At each step the model's options are listed as codes (the module's constants): before
        the race the one "no blind bet" of the first seat yet to write, the goings, the lane's
        colours, the start; in the race a spin's colours, or the speeds the horse due may run
        straight on (``fast_state.speeds``). ``choose`` returns the index of one (or -1: stop before
        applying anything) and it is applied, with everything the engine does after it:
        finishes, pulled up, running too free, the next turn, the end. ``steps`` bounds how
        many are applied (-1: to the end). With no ``choose``, each is picked uniformly with
        ``pick`` (a float in [0, 1)) — inline: a playout's hot path.

        What keeps it fast: the horse due is found once per step (the turn's sequence and a
        pointer into it; in position order the round's sequence is fixed at its start, as
        no horse yet to move changes place); the leader and the second for running too free
        are kept as each move goes, scanned again only when one of them leaves the race; the
        lapped are looked for only when the lead has gained a lap on the hindmost.
        """
        uniform = pick or random.random
        if self.phase < RACE:
            steps = self._before_race(choose, steps, uniform)
            if self.phase < RACE or not steps:
                return steps
        if self.phase == OVER:
            return steps
        dist, used, handicap, status, running = (
            self.dist, self.used, self.handicap, self.status, self.running,
        )  # fmt: skip
        moved, placed, table, lose_turn = self.moved, self.placed, self.table, self.lose_turn
        finish, lap, until, top = self.finish, self.lap, self.until, self.top
        order_caps, tf_any, tf_end = self.order_caps, self.tf_any, self.tf_end
        spin_groups, card_moved, done_free = self.spin_groups, self.card_moved, self.done_free
        rnd, cap, group, seq, at, lead = (
            self.round, self.cap, self.group, self.seq, self.at, self.lead,
        )  # fmt: skip
        free_gap, free_cut, low_mark = self.free
        first_round, spins, key, codes, cap_run = (
            self.first, self.spins, self.key, self.codes, self.cap_run,
        )  # fmt: skip
        slots, prizes, tail = len(spin_groups), len(self.prizes), self.tail
        k1 = k2 = -2  # the keys of the leader and the second running; -2: to scan again
        tf_now = tf_any and rnd > 1
        n_seq, due = len(seq), -1
        while at < n_seq and due < 0:  # the horse due: at ``seq[at]``
            if not moved[seq[at]] and not status[seq[at]]:
                due = seq[at]
            else:
                at += 1
        ended = False
        while steps:
            if due >= 0:  # the move: handicap + speed lengths on, the speed struck off
                h = due
                moves = table.get(codes[h]) or table.setdefault(codes[h], self.fill(codes[h]))
                if choose is None:
                    speed, lengths, delta, ahead = moves[int(uniform() * len(moves))]
                else:
                    index = choose([m[0] for m in moves])
                    if index < 0:
                        break
                    speed, lengths, delta, ahead = moves[index]
                steps -= 1
                codes[h] -= delta
                here = dist[h] = dist[h] + lengths
                old = key[h]
                mine = key[h] = old + ahead
                used[h] += speed
                moved[h] = True
                at += 1  # past it in ``seq``
                if card_moved:
                    card_moved.discard(h)
                if k1 >= 0:
                    if old == k1:
                        k1 = mine
                    elif mine > k1:
                        k1, k2 = mine, k1
                    elif old == k2 or mine > k2:
                        k2 = mine
                if here >= finish and len(placed) < prizes:
                    placed.append(h)
                    status[h] = FINISHED
                    running.remove(h)
                    cap_run[h % slots] -= 1
                    k1 = -2
                    ended = len(placed) >= prizes or not running
                if here > lead:
                    lead = here
                    if lead - tail >= lap:  # someone may be lapped: look
                        for x in [x for x in running if lead - dist[x] >= lap]:
                            status[x] = PULLED
                            running.remove(x)
                            cap_run[x % slots] -= 1
                            if key[x] in (k1, k2):
                                k1 = -2
                        tail = min((dist[x] for x in running), default=lead)
                        ended = ended or not running
                if not status[h] and used[h] >= top:  # out of speed points
                    status[h] = PULLED
                    running.remove(h)
                    cap_run[h % slots] -= 1
                    k1 = -2
                    lead = max((dist[x] for x in (*running, *placed)), default=0)
                    ended = ended or not running
                if tf_now and len(running) > 1:
                    if k1 < 0:
                        k1, k2 = _top_two(key, running)
                    if (k1 >> KEY_BITS) - (k2 >> KEY_BITS) >= free_gap:
                        x = (KEY_LOW - (k1 & KEY_LOW)) & 31  # the leader
                        if dist[x] <= until and x not in done_free:
                            handicap[x] = max(low_mark, handicap[x] - free_cut)
                            codes[x] = (handicap[x] << 20) | (codes[x] & 0xFFFFF)
                            done_free.add(x)
            elif order_caps and rnd > 1 and not group:  # the spin: from the stable spun
                if choose is None:
                    k = int(uniform() * len(spins))
                else:
                    k = choose(list(spins))
                    if k < 0:
                        break
                steps -= 1
                group = seq = spin_groups[cap][k]
                at, n_seq = 0, len(seq)
            else:
                break  # nobody is due and no spin: the engine waits for something else
            # the engine's turn advance: lost turns, the next cap's group, the next round
            while True:
                due = -1
                while at < n_seq:
                    x = seq[at]
                    if not moved[x] and not status[x]:
                        due = x
                        break
                    at += 1
                if due >= 0:
                    if lose_turn and due in lose_turn:
                        moved[due] = True
                        lose_turn.discard(due)
                        continue
                    break
                if order_caps and rnd > 1 and not group:
                    break  # the spinner for this cap's horses
                if order_caps or rnd == 1:
                    nxt = next((c for c in range(cap + 1, slots) if rnd == 1 or cap_run[c]), -1)
                    if nxt >= 0:
                        cap, at = nxt, 0
                        group = seq = first_round[nxt] if rnd == 1 else []
                        n_seq = len(seq)
                        continue
                if tf_end and len(running) > 1:  # the round is over
                    _too_free(self, key, running, dist, until)
                    codes[:] = [
                        (hc << 20) | (c & 0xFFFFF) for hc, c in zip(handicap, codes, strict=True)
                    ]
                rnd, cap, group, at = rnd + 1, 0, [], 0
                tf_now = tf_any
                moved[:] = [False] * len(moved)
                if order_caps:
                    cap = next((c for c in range(slots) if cap_run[c]), 0)
                    seq, n_seq = group, 0
                    break
                seq = sorted(running, key=key.__getitem__, reverse=True)
                n_seq = len(seq)
                while at < n_seq and seq[at] in lose_turn:  # the round's lost turns
                    moved[seq[at]] = True
                    lose_turn.discard(seq[at])
                    at += 1
                due = seq[at] if at < n_seq else -1
                break
            if ended:
                self.phase = OVER
                break
        self.round, self.cap, self.group, self.seq, self.at, self.lead, self.tail = (
            rnd, cap, group, seq, at, lead, tail,
        )  # fmt: skip
        return steps

    def _before_race(self, choose: Callable[[list[int]], int] | None, steps: int,
                     uniform: Callable[[], float]) -> int:  # fmt: skip
        """The steps before the race: blind bets still to write (none), the going, the lanes'
        spins, the start as the market stands; returns the steps left."""
        while self.phase < RACE and steps:
            if self.phase == BLIND:
                options = [BLIND_AT + self.blind_left[0]]
            elif self.phase == GOING:
                options = list(range(GOING_AT, GOING_AT + len(self.goings)))
            elif self.phase == LANES:
                options = list(range(LANE_AT, LANE_AT + len(self.lane_rings)))
            else:
                options = [START]
            if choose is None:
                action = options[int(uniform() * len(options))]
            else:
                index = choose(list(options))
                if index < 0:
                    return steps
                action = options[index]
            steps -= 1
            if self.phase == BLIND:
                self.blind_left.pop(0)
                self.phase = BLIND if self.blind_left else GOING
            elif self.phase == GOING:
                self.going = action - GOING_AT
                self.top = self.tops[self.going]
                self.phase = LANES
            elif self.phase == LANES:
                self.lanes.append(list(self.lane_rings[action - LANE_AT]))
                if len(self.lanes) == len(self.spin_groups):
                    self.phase = MARKET
            else:
                self.phase, self.round, self.cap, self.at = RACE, 1, 0, 0
                self.moved = [False] * self.horses
                self.derive()
                self.group = self.seq = self.first[0]
        return steps

    def derive(self) -> None:
        """What the race's loop keeps beside the state, from it: each horse's order key and
        code, the horses running per cap, the hindmost's distance, the first turn's groups,
        the spin's codes and running too free's numbers (once, when the race is on)."""
        d = load()
        n = self.horses
        self.key = keys(self.dist, self.lane)
        self.codes = [
            (self.handicap[h] << 20)
            | ((self.finish - self.dist[h]) << 10)
            | (self.top - self.used[h])
            for h in range(n)
        ]
        slots = len(self.spin_groups)
        self.cap_run = [0] * slots
        for x in self.running:
            self.cap_run[x % slots] += 1
        self.tail = min((self.dist[x] for x in self.running), default=0)
        self.first = self._first_round()
        self.spins = list(range(SPIN, SPIN + len(self.spin_groups[0])))
        self.free = (d.too_free_lengths, d.too_free_penalty, d.handicap[0])

    def _first_round(self) -> list[list[int]]:
        """The first turn's groups, cap by cap, inside first as the lanes were spun."""
        slots = len(self.spin_groups)
        return [[s * slots + cap for s in stables] for cap, stables in enumerate(self.lanes)]

    # --- the result -----------------------------------------------------------------------

    def result(self) -> list[float]:
        """Each horse 1st (0/1), each horse placed (0/1), each stable's money: the ledger's
        cash after the engine's settlement (prizes, bets at the posted odds, blind bets it can
        see), or the cash as it stands if the race has not ended."""
        n = self.horses
        row = [0.0] * (2 * n) + list(self.cash)
        settle = self.phase == OVER and not self.paid
        for place, h in enumerate(self.placed):
            if place == 0:
                row[h] = 1.0
            row[n + h] = 1.0
            if settle:
                for seat, amount in self.pay[h][place]:
                    row[2 * n + seat] += amount
        if settle:
            for seat, amount in self.pay[n]:
                row[2 * n + seat] += amount
        return row


#: per pacing: the moves by a horse's code (handicap << 20 | lengths to go << 10 | points left)
TABLES: dict[str, dict[int, list[FastMove]]] = {}


def keys(dist: list[int], lane: list[int]) -> list[int]:
    """Each horse's order key (``KEY_BITS``): the engine's race order is by key, descending."""
    return [
        (d << KEY_BITS) | (KEY_LOW - ln * 32 - h)
        for h, (d, ln) in enumerate(zip(dist, lane, strict=True))
    ]


def _top_two(key: list[int], running: list[int]) -> tuple[int, int]:
    """The keys of the leader and the second among ``running`` (two or more)."""
    first = second = -1
    for x in running:
        k = key[x]
        if k > first:
            first, second = k, first
        elif k > second:
            second = k
    return first, second


def _too_free(race: FastRace, key: list[int], running: list[int], dist: list[int],
              until: int) -> None:  # fmt: skip
    """The leader 10 or more lengths clear of the second, up to Melling Road on the last
    lap: −2 handicap, once per horse, never below 0 (the engine's rule)."""
    first, second = _top_two(key, running)
    gap = (first >> KEY_BITS) - (second >> KEY_BITS)
    leader = (KEY_LOW - (first & KEY_LOW)) & 31
    d = load()
    if gap < d.too_free_lengths or dist[leader] > until or leader in race.done_free:
        return
    race.handicap[leader] = max(d.handicap[0], race.handicap[leader] - d.too_free_penalty)
    race.done_free.add(leader)
