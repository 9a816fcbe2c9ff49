"""The Derby's playouts compiled (Numba, ``aids.games.jit``): a deal of the unseen cards and
``FastRace``'s loop once more, on NumPy arrays, for the chances' hot path.

``FastRace`` (``aids.games.derby.fast``) stays the reference: it is checked against the
engine move for move, and ``tests/games/derby/test_fast_jit.py`` checks this loop against it
playout for playout on thousands of positions and deals, fed the same uniform numbers (the
same hands and pile and the same draws give the same race and the same figures).

``Kernel(race, unseen, dead, gone, sizes)`` packs the public race (``FastRace.of`` with no
hands) and what a deal needs once per estimate; ``Kernel.play(seeds)`` deals and plays one
race per seed in one compiled call and returns the rows of ``FastRace.result``. A deal is the
model's: ``gone`` of the fallen horses' unseen cards discarded, uniformly, then the rest
shuffled (Fisher–Yates) into the hands, in seat order, and the pile.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from aids.games.chances import PlayoutTooLong
from aids.games.derby.fast import FastRace
from aids.games.jit import AVAILABLE as AVAILABLE
from aids.games.jit import compiled, seed, uniform

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

HORSES = 8
HAND = 16  # room in a hand's row (a hand holds 8)
# indices into ``Kernel.cfg``: the fixed numbers, then where the race stands
PLAYERS, FENCES, HAND_SIZE, FENCE, TURN, BET_MADE, ENDED, GONE, N_COUNTERS, CFG = range(10)


class Kernel:
    """A public race and what its deals need, packed for the compiled loop (``races``)."""

    __slots__ = (
        "bets", "cfg", "counters", "dead", "fallen", "left", "payout", "sizes", "taken",
        "tops", "unseen",
    )  # fmt: skip

    def __init__(
        self,
        race: FastRace,
        unseen: Sequence[int] = (),
        dead: Sequence[int] = (),
        gone: int = 0,
        sizes: Sequence[int] = (),
    ) -> None:
        cfg = np.zeros(CFG, dtype=np.int64)
        cfg[PLAYERS], cfg[FENCES], cfg[HAND_SIZE] = race.players, race.fences, race.hand_size
        cfg[FENCE], cfg[TURN], cfg[BET_MADE] = race.fence, race.turn, race.bet_made
        cfg[ENDED], cfg[GONE], cfg[N_COUNTERS] = race.ended, gone, len(race.counters)
        self.cfg = cfg
        self.fallen = np.array(race.fallen, dtype=np.int64)
        self.tops = np.array(race.tops, dtype=np.int64)
        self.left = np.array(race.left, dtype=np.int64)
        self.taken = np.zeros(HORSES, dtype=np.int64)
        for h in race.taken:
            self.taken[h] = 1
        room = len(race.counters) + sum(race.left)  # every counter, placed or still held
        self.counters = np.zeros((3, max(1, room)), dtype=np.int64)  # player, horse, fence
        for i, (player, horse, fence) in enumerate(race.counters):
            self.counters[:, i] = (player, horse, fence)
        self.bets = np.zeros(race.fences + 2, dtype=np.int64)  # per fence: betting allowed
        self.payout = np.zeros(race.fences + 2, dtype=np.int64)  # per fence: its points
        for fence in race.bets:
            self.bets[fence] = 1
        for fence, points in race.payout.items():
            self.payout[fence] = points
        # the deal: every unseen card, the fallen horses' among them, each hand's size
        self.unseen = np.array(unseen, dtype=np.int64)
        self.dead = np.array(dead, dtype=np.int64)
        self.sizes = np.array(sizes, dtype=np.int64)

    def play(self, seeds: Ints, max_steps: int = 2_000) -> Floats:
        """One deal and race per seed (0 ≤ seed < 2³²; a playout depends on its own seed
        alone): the rows of ``FastRace.result``. ``PlayoutTooLong`` past ``max_steps``."""
        out = np.zeros((len(seeds), HORSES + 2 * int(self.cfg[PLAYERS])), dtype=np.float64)
        code = races(self.cfg, self.fallen, self.tops, self.left, self.taken, self.counters,
                     self.bets, self.payout, self.unseen, self.dead, self.sizes, seeds,
                     max_steps, out)  # fmt: skip
        if code < 0:
            raise PlayoutTooLong("derby", max_steps)
        return out

    def play_dealt(self, hands: Sequence[Sequence[int]], deck: Sequence[int],
                   draws: Floats, max_steps: int = 2_000) -> tuple[Floats, int]:  # fmt: skip
        """One race from these hands (live cards only, as ``FastRace`` holds them) and pile
        (its next card first), its choices taken from ``draws`` in order: the row and the
        numbers drawn (the tests' twin of ``FastRace.play_out``)."""
        players = int(self.cfg[PLAYERS])
        held = np.zeros((players, HAND), dtype=np.int64)
        sizes = np.zeros(players, dtype=np.int64)
        for p, hand in enumerate(hands):
            held[p, : len(hand)] = hand
            sizes[p] = len(hand)
        out = np.zeros(HORSES + 2 * players, dtype=np.float64)
        pile = np.array(deck, dtype=np.int64)
        drawn = race(self.cfg, self.fallen, self.tops, self.left, self.taken, self.counters,
                     self.bets, self.payout, held, sizes, pile, draws, 0, max_steps,
                     out)  # fmt: skip
        if drawn < 0:
            raise PlayoutTooLong("derby", max_steps)
        return out, int(drawn)


@compiled
def _live(card: int, fallen: Ints) -> bool:
    """Whether a card can still be played: a black card always, a horse's while it runs."""
    return card >= 80 or fallen[card // 10] == 0


@compiled
def race(cfg0: Ints, fallen0: Ints, tops0: Ints, left0: Ints, taken0: Ints, counters0: Ints,
         bets: Ints, payout: Ints, hands: Ints, sizes: Ints, pile: Ints, draws: Floats,
         drawn: int, max_steps: int, out: Floats) -> int:  # fmt: skip
    """One race of ``FastRace.run``'s loop (uniformly random legal choices) from the packed
    position with these ``hands`` (rows, ``sizes`` long) and ``pile`` (next card first), into
    ``out``; the numbers drawn so far, or -1 past ``max_steps`` actions. ``hands`` and
    ``sizes`` are changed."""
    players, fences, hand_size = cfg0[PLAYERS], cfg0[FENCES], cfg0[HAND_SIZE]
    fence, turn, bet_made, ended = cfg0[FENCE], cfg0[TURN], cfg0[BET_MADE] != 0, cfg0[ENDED] != 0
    fallen, tops, left, taken = fallen0.copy(), tops0.copy(), left0.copy(), taken0.copy()
    counters = counters0.copy()
    n_counters = cfg0[N_COUNTERS]
    n_running, covered = 0, 0
    for h in range(HORSES):
        if fallen[h] == 0:
            n_running += 1
            if tops[h] >= 0:
                covered += 1
    top_of_pile, n_pile = 0, pile.shape[0]
    steps = max_steps
    while not ended and steps > 0:
        size = sizes[turn]
        # the options, in ``FastRace.run``'s order: open bets by row, each card's plays (a
        # black card one per running horse, by row), the pass when no card fits
        betting = 0
        if not bet_made and bets[fence] != 0 and left[turn] > 0:
            for h in range(HORSES):
                if fallen[h] == 0 and taken[h] == 0:
                    betting += 1
        plays = 0
        for i in range(size):
            plays += n_running if hands[turn, i] >= 80 else 1
        total = betting + plays if plays > 0 else betting + 1
        index = int(uniform(draws, drawn) * total)
        drawn += 1
        steps -= 1
        if index < betting:  # a bet on the index-th open slot: the turn goes on to its play
            for h in range(HORSES):
                if fallen[h] == 0 and taken[h] == 0:
                    if index == 0:
                        counters[0, n_counters] = turn
                        counters[1, n_counters] = h
                        counters[2, n_counters] = fence
                        n_counters += 1
                        left[turn] -= 1
                        taken[h] = 1
                        bet_made = True
                        break
                    index -= 1
            continue
        index -= betting
        if plays > 0:  # a play: find its card and horse
            at, horse = 0, -1
            for i in range(size):
                card = hands[turn, i]
                width = n_running if card >= 80 else 1
                if index < width:
                    at = i
                    if card >= 80:
                        for h in range(HORSES):
                            if fallen[h] == 0:
                                if index == 0:
                                    horse = h
                                    break
                                index -= 1
                    else:
                        horse = card // 10
                    break
                index -= width
            card = hands[turn, at]
            for i in range(at, size - 1):  # out of the hand, the others in order
                hands[turn, i] = hands[turn, i + 1]
            size -= 1
            sizes[turn] = size
            if tops[horse] < 0:
                covered += 1
            tops[horse] = card % 10
            if covered == n_running:  # the column is full: the lowest falls
                low, loser = 10, -1
                for h in range(HORSES):  # rows ascending: ``<=`` keeps the highest of a tie
                    if fallen[h] == 0 and tops[h] <= low:
                        low, loser = tops[h], h
                fallen[loser] = fence
                n_running -= 1
                ended = fence == fences
                fence += 1
                for h in range(HORSES):
                    tops[h] = -1
                    taken[h] = 0
                covered = 0
                for p in range(players):  # the fallen horse's cards leave every hand
                    kept = 0
                    for i in range(sizes[p]):
                        if _live(hands[p, i], fallen):
                            hands[p, kept] = hands[p, i]
                            kept += 1
                    sizes[p] = kept
                size = sizes[turn]
        draw = hand_size - size  # back up to 8 (dead cards drawn are set aside)
        while draw > 0 and top_of_pile < n_pile:
            card = pile[top_of_pile]
            top_of_pile += 1
            if _live(card, fallen):
                hands[turn, sizes[turn]] = card
                sizes[turn] += 1
            draw -= 1
        turn = (turn + 1) % players
        bet_made = False
        if top_of_pile >= n_pile and not ended:  # the pile is out: it ends if nobody can play
            ended = True
            for p in range(players):
                if sizes[p] > 0:
                    ended = False
    if not ended:
        return -1
    # the row: each horse finishing, each player's share of the win, each player's points
    points = np.zeros(players, dtype=np.int64)
    for c in range(n_counters):
        if fallen[counters[1, c]] == 0:
            points[counters[0, c]] += payout[counters[2, c]]
    best = points.max()
    winners = 0
    for p in range(players):
        if points[p] == best:
            winners += 1
    for h in range(HORSES):
        out[h] = 0.0 if fallen[h] else 1.0
    for p in range(players):
        out[HORSES + p] = 1.0 / winners if points[p] == best else 0.0
        out[HORSES + players + p] = float(points[p])
    return drawn


@compiled
def races(cfg: Ints, fallen: Ints, tops: Ints, left: Ints, taken: Ints, counters: Ints,
          bets: Ints, payout: Ints, unseen: Ints, dead: Ints, sizes: Ints, seeds: Ints,
          max_steps: int, out: Floats) -> int:  # fmt: skip
    """One deal and race per seed into ``out``'s rows; 0, or -1 if a race ran past
    ``max_steps`` actions."""
    players, gone = cfg[PLAYERS], cfg[GONE]
    none = np.zeros(0, dtype=np.float64)
    hands = np.zeros((players, HAND), dtype=np.int64)
    held = np.zeros(players, dtype=np.int64)
    n_dead = dead.shape[0]
    for play in range(seeds.shape[0]):
        seed(seeds[play])
        cards = unseen.copy()
        n = cards.shape[0]
        if gone > 0:  # the discarded: ``gone`` of the dead cards, uniformly
            pool = dead.copy()
            for i in range(gone):
                j = i + int(np.random.random() * (n_dead - i))
                pool[i], pool[j] = pool[j], pool[i]
            kept = 0
            for i in range(n):
                out_card = False
                for k in range(gone):
                    if cards[i] == pool[k]:
                        out_card = True
                        break
                if not out_card:
                    cards[kept] = cards[i]
                    kept += 1
            n = kept
        for i in range(n - 1, 0, -1):  # the rest shuffled: Fisher–Yates
            j = int(np.random.random() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        start = 0
        for p in range(players):  # the hands in seat order (live cards kept), then the pile
            held[p] = 0
            for i in range(start, start + sizes[p]):
                if _live(cards[i], fallen):
                    hands[p, held[p]] = cards[i]
                    held[p] += 1
            start += sizes[p]
        if race(cfg, fallen, tops, left, taken, counters, bets, payout, hands, held,
                cards[start:n], none, 0, max_steps, out[play]) < 0:  # fmt: skip
            return -1
    return 0
