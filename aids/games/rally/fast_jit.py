"""The rally's playouts compiled (Numba, ``aids.games.jit``): a deal of the unseen cards and
``FastRally.run``'s loop once more, on NumPy arrays, for the chances' hot path.

``FastRally`` (``aids.games.rally.fast``) stays the reference: it is checked against the
engine move for move, and ``tests/games/rally/test_fast_jit.py`` checks this loop against it
playout for playout on thousands of positions, fed the same uniform numbers (the same deal
and the same draws give the same race and the same figures).

``Kernel(race, cards, seen, sizes, hidden)`` packs the public race (``FastRally.of`` with no
hands yet, its ``last_round`` set) and what a deal needs once per estimate;
``Kernel.play(seeds)`` deals and plays one race per seed in one compiled call and returns
the rows of ``FastRally.result``. A deal is the model's: the unseen cards shuffled
(Fisher–Yates) into the hands in seat order, the cards thrown down unseen and the pile.

A reshuffle in a compiled playout is a uniform shuffle of the sorted deck drawn from the
playout's own numbers, not the engine's ``random.Random`` seeded per reshuffle: the model
draws that seed uniformly per playout, so either is a uniform shuffle of the same cards (the
tests give ``FastRally`` the same shuffle, ``FastRally.shuffle``, to compare race for race).

The race itself is ``fast_jit_race.race``: this module packs a race for it, deals, and plays
a batch of seeds in one compiled call.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from aids.games.chances import PlayoutTooLong
from aids.games.jit import AVAILABLE as AVAILABLE
from aids.games.jit import compiled, seed
from aids.games.rally.fast import FastRally
from aids.games.rally.fast_jit_map import pack_map, shuffle_cards
from aids.games.rally.fast_jit_race import (
    ACTED,
    ACTIONS,
    ARRIVED,
    BROKEN,
    CFG,
    DONE,
    DRAWS,
    ENDED,
    FERRIED,
    GOAL,
    HIDDEN,
    LAST_ROUND,
    LEFT,
    LIMITS,
    MOVED,
    ORDER,
    PHASE,
    PLAYERS,
    POINTS,
    POLICE_TURNS,
    RESHUFFLES,
    ROUND,
    SEAT_ROWS,
    SIZE,
    SLOTS,
    START,
    STOPPED,
    TEAM,
    TEAMS,
    THROWN,
    TOWN,
    TURN,
    WET,
    race,
)
from aids.games.rally.fast_map import (
    CARDS,
    counts_of,
)

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]


class Memo:
    """The reaches under jams a race has found, for every later race of the estimate: per
    town ``SLOTS`` of them, each under the key of the jams within the town's reach without
    jams (those outside it change nothing), replaced in turn. ``reach[slot, 0, town]``: the
    stops' km, ``reach[slot, 1, town]``: the proposals; ``keys[slot, town]``: the key's two
    words and the stops (-1: empty); ``next[town]``: the slot to fill next."""

    __slots__ = ("keys", "next", "reach")

    def __init__(self, towns: int) -> None:
        self.reach = np.zeros((SLOTS, 2, towns, towns), dtype=np.int64)
        self.keys = np.full((SLOTS, towns, 3), -1, dtype=np.int64)
        self.next = np.zeros(towns, dtype=np.int64)


class Kernel:
    """A public race and what its deals need, packed for the compiled loop (``races``)."""

    __slots__ = (
        "cfg", "jams", "memo", "paths", "places", "seats", "seen", "sizes", "unseen",
    )  # fmt: skip

    def __init__(
        self,
        race: FastRally,
        cards: Sequence[int] = (),
        seen: Sequence[int] = (),
        sizes: Sequence[int] = (),
        hidden: int = 0,
    ) -> None:
        n, roads = race.players, race.roads
        cfg = np.zeros(CFG, dtype=np.int64)
        cfg[PLAYERS], cfg[START], cfg[GOAL] = n, race.start_player, roads.goal
        cfg[LAST_ROUND], cfg[POLICE_TURNS] = race.last_round, race.police_turns
        cfg[TEAMS] = max(race.teams) + 1 if race.teams and race.teams[0] >= 0 else 0
        cfg[HIDDEN] = hidden
        cfg[ROUND], cfg[TURN], cfg[PHASE], cfg[LEFT] = race.round, race.turn, race.phase, race.left
        cfg[MOVED], cfg[FERRIED], cfg[ACTED] = race.moved, race.ferried, race.acted
        cfg[THROWN], cfg[RESHUFFLES] = race.discard_size, race.reshuffles
        cfg[ENDED], cfg[ARRIVED] = race.ended, len(race.arrived)
        self.cfg = cfg
        seats = np.zeros((SEAT_ROWS, n), dtype=np.int64)
        seats[ACTIONS], seats[LIMITS], seats[DRAWS] = race.actions, race.limits, race.draws
        seats[TEAM] = race.teams
        seats[POINTS] = [race.points[p] if p < len(race.points) else 0 for p in range(n)]
        seats[TOWN], seats[WET], seats[BROKEN] = race.towns, race.rain, race.engine
        seats[STOPPED], seats[DONE], seats[SIZE] = race.police, race.done, race.hand_sizes
        seats[ORDER, : len(race.arrived)] = race.arrived
        self.seats = seats
        towns = len(roads.ids)
        self.jams = np.array([race.jams >> t & 1 for t in range(towns)], dtype=np.int64)
        #: the reaches under jams found so far, kept for every playout of the estimate
        self.memo = Memo(towns)
        self.places, self.paths = pack_map(race)
        # the deal: every unseen card, the seen discards as counts, each hand's size
        self.unseen = np.array(cards, dtype=np.int64)
        self.seen = np.array(counts_of(seen), dtype=np.int64)
        self.sizes = np.array(sizes, dtype=np.int64)

    def width(self) -> int:
        """A row's length: each car first and its place, each team winning and its points."""
        return 2 * int(self.cfg[PLAYERS]) + 2 * int(self.cfg[TEAMS])

    def play(self, seeds: Ints, max_steps: int = 20_000) -> Floats:
        """One deal and race per seed (0 ≤ seed < 2³²; a playout depends on its own seed
        alone): the rows of ``FastRally.result``. ``PlayoutTooLong`` past ``max_steps``."""
        out = np.zeros((len(seeds), self.width()), dtype=np.float64)
        memo = self.memo
        code = races(self.cfg, self.seats, self.jams, self.places, self.paths, self.unseen,
                     self.seen, self.sizes, seeds, max_steps, memo.reach, memo.keys, memo.next,
                     out)  # fmt: skip
        if code < 0:
            raise PlayoutTooLong("rally", max_steps)
        return out

    def play_dealt(self, hands: Sequence[Sequence[int]], discard: Sequence[int],
                   pile: Sequence[int], draws: Floats,
                   max_steps: int = 20_000) -> tuple[Floats, int]:  # fmt: skip
        """One race from this deal (as ``FastRally.deal`` takes it: codes, the pile's next
        card first), its choices and reshuffles taken from ``draws`` in order: the row and
        the numbers drawn (the tests' twin of ``FastRally.play_out``)."""
        n = int(self.cfg[PLAYERS])
        held = np.zeros((n, CARDS), dtype=np.int64)
        for seat, hand in enumerate(hands):
            held[seat] = counts_of(hand)
        thrown = np.array(counts_of(discard), dtype=np.int64)
        room = int(held.sum() + thrown.sum()) + len(pile)
        stack = np.zeros(max(1, room), dtype=np.int64)
        stack[: len(pile)] = list(reversed(pile))  # the next card last
        out = np.zeros(self.width(), dtype=np.float64)
        memo = self.memo
        drawn = race(self.cfg, self.seats, self.jams, self.places, self.paths, held, stack,
                     len(pile), thrown, draws, max_steps, memo.reach, memo.keys, memo.next,
                     out)  # fmt: skip
        if drawn < 0:
            raise PlayoutTooLong("rally", max_steps)
        return out, int(drawn)


@compiled
def races(cfg: Ints, seats: Ints, jams: Ints, places: Ints, paths: Ints, unseen: Ints,
          seen: Ints, sizes: Ints, seeds: Ints, max_steps: int, memo: Ints, memo_keys: Ints,
          memo_next: Ints, out: Floats) -> int:  # fmt: skip
    """One deal and race per seed into ``out``'s rows; 0, or -1 if a race ran past
    ``max_steps`` steps. A deal as ``RallyChances.playouts`` splits one: the unseen cards
    shuffled, then each hand in seat order, the cards thrown down unseen (with the seen
    discards), the pile (its next card first)."""
    n, hidden = cfg[PLAYERS], cfg[HIDDEN]
    none = np.zeros(0, dtype=np.float64)
    hands = np.zeros((n, CARDS), dtype=np.int64)
    total = unseen.shape[0]
    room = total + int(seen.sum())
    pile = np.zeros(max(1, room), dtype=np.int64)
    cards = np.zeros(max(1, total), dtype=np.int64)
    for play in range(seeds.shape[0]):
        seed(seeds[play])
        cards[:total] = unseen
        shuffle_cards(cards, total, none, 0)
        hands[:] = 0
        at = 0
        for p in range(n):
            for i in range(at, min(at + sizes[p], total)):
                hands[p, cards[i]] += 1
            at += sizes[p]
        discard = seen.copy()
        for i in range(at, min(at + hidden, total)):
            discard[cards[i]] += 1
        at = min(at + hidden, total)
        n_pile = total - at
        for i in range(n_pile):  # the next card last
            pile[i] = cards[total - 1 - i]
        if race(cfg, seats, jams, places, paths, hands, pile, n_pile, discard, none, max_steps,
                memo, memo_keys, memo_next, out[play]) < 0:  # fmt: skip
            return -1
    return 0


def warm() -> None:
    """Compile the loop now (or load it from the disk cache), so no estimate's budget pays
    for the compiler."""
    from aids.games.rally import engine
    from aids.games.rally.model import RallySetup

    state = engine.initial_state(RallySetup.default(["A", "B"]))
    race = FastRally.of(state)
    race.last_round = state.round
    Kernel(race).play(np.zeros(1, dtype=np.int64))
