"""The codes the rally's fast path plays in (towns, cards and actions as small ints, and
their translation to the engine's) and the map's answers it asks (``Roads``): each town's
distance to the goal as one comparable int, the ferry that takes a car nearer, and the
greedy driver's movement from a town with a hand — memoised per estimate.

Only ``aids.games.rally.fast`` and the tests use it. A car's reach is the engine's own
(``RallyMap.reachable`` with the jams and the goal closed onward), asked once per town and
set of jams; a movement is then the reach's prefix within its km.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from aids.games.rally.board import RallyMap
from aids.games.rally.data import load
from aids.games.rally.model import Action, Attack, Defend, Draw, EndRace, EndTurn, Ferry, Travel

#: the cards by key in sorted order: a card's code is its index, so codes sort as keys do
#: (the engine's hands, discards and reshuffles are sorted by key)
CARD_KEYS: tuple[str, ...] = tuple(sorted(c.key for c in load().cards))
CODE = {key: i for i, key in enumerate(CARD_KEYS)}
CARDS = len(CARD_KEYS)
KM = tuple(getattr(load().card(key), "km", 0) for key in CARD_KEYS)
DISTANCE = tuple(CODE[c.key] for c in load().cards if c.kind == "travel")  # ascending codes
TOP = CODE["top"]
DRIVE_CODES = (*sorted(DISTANCE), TOP)  # the cards a movement is made of, in code order
ATTACKS = tuple(sorted(CODE[key] for key in load().keys("attack")))
DEFENCES = tuple(sorted(CODE[key] for key in load().keys("defence")))
AIMED = tuple(sorted(ATTACKS + DEFENCES))
JAM, RAIN, ENGINE, POLICE = (CODE[k] for k in ("jam", "rain", "engine", "police"))
JAM_CLEAR, CLEAR_SKY, REPAIR = (CODE[k] for k in ("jam_clear", "clear_sky", "repair"))
#: the most km one movement can have: every action a 50, doubled
MOST_KM = load().actions[1] * max(KM) * 2
CROSSINGS = 1024  # a distance to the goal as ``km * CROSSINGS + crossings`` (fewer than this)

# an action: (DRAW,) | (TRAVEL, cards, town) | (ATTACK, card, seat) | (DEFEND, card, seat,
# town) (-1 for the one not named) | (FERRY, port) | (END, the cards thrown) | (END_RACE,)
DRAW, TRAVEL, ATTACK, DEFEND, FERRY, END, END_RACE = range(7)
FastAction = tuple[Any, ...]
#: a movement the driver makes: (cards in code order, the town it stops at)
Drive = tuple[tuple[int, ...], int]


class Roads:
    """A map and a goal as the fast path needs them: town ``i`` is the ``i``-th id in sorted
    order (so ints compare as ids do), ``rank[i]`` its distance to the goal (road km, then
    ferry crossings) as one int, ``port[i]`` the port its ferry takes it to nearer the goal
    (the nearest; -1: none). The memos keep what a reach, a movement or a discard gave."""

    __slots__ = (
        "board", "drives", "goal", "ids", "index", "kinds", "port", "rank", "reaches", "throws",
    )  # fmt: skip

    def __init__(self, board: RallyMap, goal: str) -> None:
        self.board = board
        self.ids: tuple[str, ...] = tuple(sorted(t.id for t in board.towns))
        self.index = {town: i for i, town in enumerate(self.ids)}
        self.goal = self.index[goal]
        to_goal = board.to_goal(goal)
        self.rank = [to_goal[t][0] * CROSSINGS + to_goal[t][1] for t in self.ids]
        self.port: list[int] = []
        for i, town in enumerate(self.ids):
            nearer = [self.index[p] for p in board.ferry_from(town)]
            nearer = [p for p in nearer if self.rank[p] < self.rank[i]]
            self.port.append(min(nearer, key=lambda p: (self.rank[p], p)) if nearer else -1)
        #: (town, jams) -> (road km in ascending order, the proposal within each)
        self.reaches: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        #: (town, jams, most cards, the hand's count of each ``DRIVE_CODES``) -> a movement
        self.drives: dict[tuple[int, ...], Drive | None] = {}
        #: (most cards, the hand's count of each ``DRIVE_CODES``) -> ``movements``
        self.kinds: dict[tuple[int, ...], list[tuple[int, int, tuple[int, ...]]]] = {}
        #: (the hand's counts, how many to throw) -> every choice of cards, sorted
        self.throws: dict[tuple[tuple[int, ...], int], list[tuple[int, ...]]] = {}

    def jams_of(self, jams: int) -> frozenset[str]:
        """The towns of a jam bitmask (bit ``i``: town ``i``), as ids."""
        return frozenset(self.ids[i] for i in range(len(self.ids)) if jams >> i & 1)

    def mask(self, towns: frozenset[str]) -> int:
        return sum(1 << self.index[t] for t in towns)

    def reach(self, town: int, jams: int) -> tuple[list[int], list[int]]:
        """The km to each town a car at ``town`` can stop at (ascending) and, for a movement
        of at least that many km, the engine's ``proposal``: the town nearest the goal, then
        the longer drive, then the id."""
        key = (town, jams)
        known = self.reaches.get(key)
        if known is not None:
            return known
        blocked = self.jams_of(jams) | {self.ids[self.goal]}
        found = self.board.reachable(self.ids[town], MOST_KM, blocked)
        stops = sorted((km, self.index[t]) for t, km in found.items())
        rank = self.rank
        kms: list[int] = []
        best: list[int] = []
        top: tuple[int, int, int] | None = None
        for km, stop in stops:
            mine = (rank[stop], -km, stop)
            if top is None or mine < top:
                top = mine
            kms.append(km)
            best.append(top[2])
        self.reaches[key] = kms, best
        return kms, best

    def drive(self, town: int, jams: int, most: int, counts: tuple[int, ...]) -> Drive | None:
        """The greedy driver's movement (``chances._drive``): of every set of at most
        ``most`` travel cards from a hand holding ``counts`` of each of ``DRIVE_CODES`` (one
        TOP SPEED at most, never alone), the one whose proposal is nearest the goal, then
        the fewest cards, the fewest km, the first cards in order; None if it gets no
        nearer than ``town``."""
        key = (town, jams, most, *counts)
        if key in self.drives:
            return self.drives[key]
        hand = (most, *counts)
        kinds = self.kinds.get(hand)
        if kinds is None:
            kinds = self.kinds[hand] = movements(most, counts)
        kms, best = self.reach(town, jams)
        rank = self.rank
        found: tuple[int, int, int, tuple[int, ...], int] | None = None
        for km, size, cards in kinds:
            stop = best[bisect_right(kms, km) - 1]
            mine = (rank[stop], size, km, cards, stop)
            if found is None or mine < found:
                found = mine
        out = None if found is None or found[0] >= rank[town] else (found[3], found[4])
        self.drives[key] = out
        return out

    def discards(self, hand: tuple[int, ...], excess: int) -> list[tuple[int, ...]]:
        """Every distinct set of ``excess`` cards a hand of these counts may throw down, in
        the order of the engine's ``legal_actions`` (sorted)."""
        key = (hand, excess)
        known = self.throws.get(key)
        if known is None:
            cards = [c for c in range(CARDS) for _ in range(hand[c])]
            known = sorted(set(itertools.combinations(cards, excess)))
            self.throws[key] = known
        return known


def movements(most: int, counts: tuple[int, ...]) -> list[tuple[int, int, tuple[int, ...]]]:
    """Each km a movement of at most ``most`` cards from a hand holding ``counts`` of each of
    ``DRIVE_CODES`` can have (one TOP SPEED at most, never alone), with the fewest cards
    that make it and, of those, the first in order: (km, how many cards, the cards). Where it stops
    depends on the town and the jams; which cards make a km never does."""
    pool = [c for c, k in zip(DRIVE_CODES, counts, strict=True) for _ in range(k)]
    first: dict[int, tuple[int, tuple[int, ...]]] = {}
    for size in range(1, most + 1):
        for cards in set(itertools.combinations(pool, size)):
            tops = cards.count(TOP)
            if tops > 1 or tops == size:
                continue
            km = sum(KM[c] for c in cards) * (2 if tops else 1)
            if km not in first or (size, cards) < first[km]:
                first[km] = (size, cards)
    return [(km, size, cards) for km, (size, cards) in sorted(first.items())]


# --- the engine's cards and actions as codes ---------------------------------------------


def counts(cards: Sequence[str]) -> list[int]:
    """Card keys as counts per code."""
    out = [0] * CARDS
    for card in cards:
        out[CODE[card]] += 1
    return out


def counts_of(codes: Sequence[int]) -> list[int]:
    """Card codes as counts per code."""
    out = [0] * CARDS
    for card in codes:
        out[card] += 1
    return out


def keys(cards: Sequence[int]) -> tuple[str, ...]:
    """Counts per code as the engine's sorted tuple of keys."""
    return tuple(CARD_KEYS[c] for c in range(CARDS) for _ in range(cards[c]))


def engine_action(ids: Sequence[str], seat: int, action: FastAction) -> Action:
    """A code action as the engine's, for ``seat`` (towns named by ``ids``)."""
    kind = action[0]
    if kind == DRAW:
        return Draw(seat)
    if kind == TRAVEL:
        return Travel(seat, tuple(CARD_KEYS[c] for c in action[1]), ids[action[2]])
    if kind == ATTACK:
        return Attack(seat, CARD_KEYS[action[1]], action[2])
    if kind == DEFEND:
        card, target, town = CARD_KEYS[action[1]], action[2], action[3]
        if town >= 0:
            return Defend(seat, card, town=ids[town])
        return Defend(seat, card, target=target)
    if kind == FERRY:
        return Ferry(seat, ids[action[1]])
    if kind == END:
        return EndTurn(seat, tuple(CARD_KEYS[c] for c in action[1]))
    return EndRace()
