"""The Derby's live chances: each horse finishing, each player winning, each player's points.

What nobody at the table can see is sampled from the cards not yet seen: the cards of fallen
horses said to be discarded (only their count is public), each hand (its size follows from
the public log: every hand draws back to 8 while the pile lasts) and the draw pile's order.
The players' future choices are uniformly random legal choices — a bet on any open slot, a
play of any card on any horse it fits, a pass only when nothing fits — and each turn discards
every card of a fallen horse the hand holds (such a card can never be played, and discarding
it draws a live one: never worse). What a pass revealed (that hand held no playable card) is
not used. The same model serves the exact figures and the Monte Carlo ones.

Playouts run on a compiled loop (``aids.games.derby.fast_jit``, Numba), checked playout for
playout against ``FastRace`` (``aids.games.derby.fast``: the engine's rules on plain lists of
small ints, checked against the engine move for move), which runs them where Numba is not
installed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from math import comb

import numpy as np
from numpy.typing import NDArray

from aids.core.i18n import t
from aids.games.chances import Measure, past
from aids.games.derby import engine
from aids.games.derby.data import load
from aids.games.derby.fast import MAX_STEPS, FastRace, card_of, code
from aids.games.derby.fast_jit import AVAILABLE as JIT
from aids.games.derby.fast_jit import Kernel
from aids.games.derby.model import (
    DerbySetup,
    DerbyState,
    full_deck,
)
from aids.games.jit import playouts as compiled_playouts

# --- what the table cannot see ---------------------------------------------------------------


def hand_sizes(history: Sequence[DerbyState]) -> list[int]:
    """Each hand's size now, from the public log: a turn plays one card (or passes), discards
    some and draws what the pile gave (the pile's fall is public)."""
    first = history[0]
    sizes = [load().hand_size] * len(first.setup.players)
    for before, after in itertools.pairwise(history):
        if after.moves == before.moves or after.bet_made:  # a bet: no card moves
            continue
        if (
            after.ended == "no_cards"
            and after.played == before.played
            and after.pile == before.pile
        ):
            continue  # the referee's "no cards left": nothing moves
        p = before.turn
        played = len(after.played) - len(before.played)
        discarded = after.discarded - before.discarded
        drawn = before.pile - after.pile
        sizes[p] += drawn - played - discarded
    return sizes


def unseen(state: DerbyState) -> list[int]:
    """The codes of the cards nobody has seen played: in hands, in the pile, or discarded."""
    return sorted(code(state, c) for c in full_deck() if c not in state.played)


class DerbyChances:
    """The Derby's ``ChanceModel`` (see the module's docstring)."""

    model: str = "derby.chances.model"
    groups: tuple[str, ...] = ("player", "horse", "points")
    #: exact enumeration when the deals of the unseen cards are at most this many (each deal
    #: then played out over every sequence of choices)
    exact_deals = 2_000
    #: and when the positions met along the way are at most this many
    exact_nodes = 200_000
    #: a playout's cap in actions (``PlayoutTooLong`` past it)
    max_steps = MAX_STEPS

    #: playouts on the compiled loop (``fast_jit``, where Numba is installed), else on
    #: ``FastRace``; the same model and the same figures either way, within their error
    compiled = JIT

    def __init__(self, history: Sequence[DerbyState] = ()) -> None:
        self.history = tuple(history)
        self._packed: tuple[DerbyState, Kernel] | None = None

    def measures(self, state: DerbyState) -> tuple[Measure, ...]:
        horses = [Measure("horse", h) for h in range(len(state.setup.horses))]
        players = [Measure("player", p) for p in range(len(state.setup.players))]
        points = [Measure("points", p, "expected") for p in range(len(state.setup.players))]
        return (*horses, *players, *points)

    def title(self, group: str, lang: str) -> str:
        return t(f"derby.chances.{group}", lang)

    def label(self, state: DerbyState, measure: Measure, lang: str) -> str:
        if measure.group == "horse":
            horse = state.setup.horses[measure.index]
            colour = load().horse_colour(horse.colour)
            return f"{colour.symbol} {horse.name}" if colour else horse.name
        return state.setup.players[measure.index].name

    def colour(self, state: DerbyState, measure: Measure) -> str | None:
        """A horse's bar in the horse's colour, a player's in their counters'."""
        data = load()
        if measure.group == "horse":
            found = data.horse_colour(state.setup.horses[measure.index].colour)
        else:
            found = data.counter_colour(state.setup.players[measure.index].colour)
        return found.hex if found else None

    def decided(self, state: DerbyState) -> tuple[float, ...] | None:
        if state.ended is None:
            return None
        return tuple(FastRace.of(state, [[] for _ in state.setup.players], []).result())

    def _sizes(self, state: DerbyState) -> list[int]:
        if self.history and self.history[-1] == state:
            return hand_sizes(self.history)
        if state.moves == 0:
            return [load().hand_size] * len(state.setup.players)
        raise ValueError("the hand sizes need the history up to this state")

    def deals(self, state: DerbyState) -> Iterator[tuple[list[list[int]], list[int]]]:
        """Every way (equally likely) to split the unseen cards into the discarded ones, the
        hands and the pile — for exact enumeration, when the pile is empty."""
        cards = unseen(state)
        sizes = self._sizes(state)
        fallen_rows = {h for h, f in enumerate(state.fallen) if f is not None}
        dead = [c for c in cards if c // 10 in fallen_rows]
        for gone in itertools.combinations(dead, min(state.discarded, len(dead))):
            rest = list(cards)
            for c in gone:
                rest.remove(c)
            yield from ((hands, []) for hands in _split(rest, sizes))

    def sample(self, state: DerbyState, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """One deal of the unseen cards: the discarded ones, the hands, the pile."""
        return self._dealer(state)(rng)

    def _dealer(
        self, state: DerbyState
    ) -> Callable[[random.Random], tuple[list[list[int]], list[int]]]:
        cards = unseen(state)
        fallen_rows = {h for h, f in enumerate(state.fallen) if f is not None}
        dead = [c for c in cards if c // 10 in fallen_rows]
        gone = min(state.discarded, len(dead))
        sizes = self._sizes(state)

        def deal(rng: random.Random) -> tuple[list[list[int]], list[int]]:
            rest = list(cards)
            for c in rng.sample(dead, gone):
                rest.remove(c)
            rest.sort(key=lambda _: rng.random())  # a uniform shuffle, sooner than shuffle()
            hands, start = [], 0
            for size in sizes:
                hands.append(rest[start : start + size])
                start += size
            return hands, rest[start:]

        return deal

    def exact(self, state: DerbyState, deadline: float | None = None) -> tuple[float, ...] | None:
        """Every deal of the unseen cards, each played out over every sequence of choices:
        only once the pile is out, and given up (None) past ``exact_nodes`` positions or
        ``deadline``."""
        if state.pile > 0 or _deal_count(state, self._sizes(state)) > self.exact_deals:
            return None
        memo: dict[tuple[object, ...], list[float]] = {}
        total: list[float] = []
        n = 0
        try:
            for hands, deck in self.deals(state):
                race = FastRace.of(state, hands, deck)
                value = _expected(race, memo, self.exact_nodes, deadline)
                total = [a + b for a, b in zip(total, value, strict=True)] if total else value
                n += 1
        except _TooBig:
            return None
        return tuple(v / n for v in total) if n else None

    def _kernel(self, state: DerbyState) -> Kernel:
        """The compiled loop's packing of ``state`` and its deals (kept for the estimate)."""
        if self._packed is None or self._packed[0] is not state:
            cards = unseen(state)
            fallen_rows = {h for h, f in enumerate(state.fallen) if f is not None}
            dead = [c for c in cards if c // 10 in fallen_rows]
            gone = min(state.discarded, len(dead))
            race = FastRace.of(state, [], [])
            self._packed = (state, Kernel(race, cards, dead, gone, self._sizes(state)))
        return self._packed[1]

    def warm(self) -> None:
        """Compile the playout loop (or load it from its cache) before an estimate needs it."""
        if self.compiled:
            start = engine.initial_state(DerbySetup.default(["A", "B"]))
            DerbyChances([start])._kernel(start).play(np.zeros(1, dtype=np.int64))

    def playouts(
        self, state: DerbyState, n: int, rng: random.Random, deadline: float | None = None
    ) -> list[list[float]] | NDArray[np.float64]:
        """``n`` deals, each played out: on the compiled loop (``fast_jit``: a seed per
        playout drawn from ``rng``), or on ``FastRace`` (the hands put in as ``FastRace.of``
        has them, live cards only: a fallen horse's card dealt to a hand is discarded at its
        holder's turn and a live one drawn in its place). The same model either way."""
        if self.compiled:
            kernel, cap = self._kernel(state), self.max_steps
            return compiled_playouts(lambda seeds: kernel.play(seeds, cap), n, rng, deadline)
        deal = self._dealer(state)
        template = FastRace.of(state, [], [])
        live = template.options
        rows: list[list[float]] = []
        while len(rows) < n and not (rows and past(deadline)):
            hands, deck = deal(rng)
            race = template.copy()
            race.hands = [[c for c in hand if live[c]] for hand in hands]
            race.deck = deck[::-1]
            rows.append(race.play_out(rng, self.max_steps))
        return rows


def _split(cards: list[int], sizes: Sequence[int]) -> Iterator[list[list[int]]]:
    if not sizes:
        yield []
        return
    for hand in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in hand]
        for others in _split(rest, sizes[1:]):
            yield [list(hand), *others]


def _deal_count(state: DerbyState, sizes: Sequence[int]) -> int:
    cards = len(unseen(state))
    fallen_rows = {h for h, f in enumerate(state.fallen) if f is not None}
    dead = sum(1 for c in unseen(state) if c // 10 in fallen_rows)
    count = comb(dead, min(state.discarded, dead))
    left = cards - min(state.discarded, dead)
    for size in sizes:
        count *= comb(left, size)
        left -= size
    return count


class _TooBig(Exception):
    """Exact enumeration met more positions than it may: Monte Carlo instead."""


def _expected(
    race: FastRace,
    memo: dict[tuple[object, ...], list[float]],
    limit: int,
    deadline: float | None = None,
) -> list[float]:
    """The expectation of ``result`` over every sequence of uniformly random choices (each
    position once: ``memo``); ``_TooBig`` past ``limit`` positions or ``deadline``."""
    if race.ended:
        return race.result()
    key = (
        tuple(race.fallen), race.fence, tuple(race.tops), tuple(sorted(race.counters)),
        tuple(race.left), tuple(sorted(race.taken)), race.turn, race.bet_made,
        tuple(tuple(sorted(h)) for h in race.hands), tuple(race.deck),
    )  # fmt: skip
    known = memo.get(key)
    if known is not None:
        return known
    if len(memo) >= limit or (len(memo) & 255 == 0 and past(deadline)):
        raise _TooBig
    options = race.actions()
    total: list[float] = []
    for action in options:
        after = race.copy()
        after.step(action)
        value = _expected(after, memo, limit, deadline)
        total = [a + b for a, b in zip(total, value, strict=True)] if total else list(value)
    memo[key] = result = [v / len(options) for v in total]
    return result


def with_hands(
    state: DerbyState, hands: Sequence[Sequence[int]], deck: Sequence[int]
) -> DerbyState:
    """``state`` as a simulation with these hands and pile: the engine's twin of
    ``FastRace.of`` (the tests compare them)."""
    setup = replace(state.setup, mode="simulation", seed=0)
    cards_hands = tuple(tuple(card_of(state, c) for c in h) for h in hands)
    return replace(
        state,
        setup=setup,
        hands=cards_hands,
        deck=tuple(card_of(state, c) for c in deck),
        pile=len(deck),
    )
