"""The rally's live chances: each car finishing first, each car's expected place and, in team
play, each team winning on team points and its expected team points.

What nobody at the table can see is sampled from the cards not yet seen. Seen are the cards
played since the discard pile was last shuffled into a new draw pile (every played card is on
a car's public turn record; the history says when the last reshuffle was). The other cards —
the hands (their sizes are on the table), the cards thrown down to the hand size (only their
count is public) and the draw pile, in an order — are dealt from the rest uniformly at random.
A later reshuffle in a playout is a uniform shuffle of the discard pile: drawn from the
playout's own numbers on the compiled loop, the engine's own from a seed drawn per playout on
``FastRally`` (the same model).

The players' future choices follow the **greedy driver**, not uniformly random legal choices:
a uniform mover mostly stops at a town behind it (every town within reach is a legal stop).
Measured on the sample map (Tokyo → Sapporo, 845 km and the ferry, four Balanced 3/5/2 cars):
in 100 uniform races no car reached the goal within 100 rounds, and 207 of the 400 cars ended
farther from it than they began; in 400 greedy races every car arrived, after 38 rounds on
average (99 % within 56, the longest 60). On its turn the greedy driver, through the engine's
own helpers:

1. crosses by ferry when that takes it nearer the goal (``can_ferry``, ``to_goal``);
2. lifts its own jam, engine failure or rain when it holds the defence (one action);
3. drives: of the engine's ``travel_choices``, the one whose ``proposal`` town is nearest the
   goal (fewest cards, then fewest km); it stays put if no town within reach is nearer;
4. then picks uniformly among every legal attack and defence and ending the turn, until it
   ends it, throwing down uniformly among the engine's discard choices.

A playout ends when every car has arrived or ``CAP_ROUNDS`` (100) rounds on, when the race is
ended as the referee ends it (``EndRace``) and the engine places the cars (``placings``).
Exact figures: when at most one car is on the road (every place is fixed: ``decided``, so the
table service shows them at once, never queued), and on small positions — few unseen cards,
a short game, no reshuffle — where every order of the unseen cards and every sequence of the
model's choices is enumerated (same model, same engine).

Playouts run on a compiled loop (``aids.games.rally.fast_jit``, Numba), checked playout for
playout against ``FastRally`` (``aids.games.rally.fast``: the engine's rules and this driver
on plain lists of small ints, checked against the engine move for move), which runs them
where Numba is missing. ``FastRally`` draws the same random numbers as ``play_out`` on the
engine (so the same games, the same figures): 300–500 a second for six cars on the sample
map, 20–25 times ``play_out``'s pace on the engine's frozen states. The engine's
``play_out`` stays the reference, and the exact enumeration's.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from math import factorial

import numpy as np
from numpy.typing import NDArray

from aids.core.i18n import t
from aids.games.base import Role
from aids.games.chances import Measure, PlayoutTooLong, past
from aids.games.jit import playouts as compiled_playouts
from aids.games.rally import engine
from aids.games.rally.data import load
from aids.games.rally.fast import FastRally
from aids.games.rally.fast_jit import AVAILABLE as JIT
from aids.games.rally.fast_jit import Kernel, warm
from aids.games.rally.fast_map import CODE, Roads
from aids.games.rally.model import (
    Action,
    Attack,
    Defend,
    Draw,
    EndRace,
    EndTurn,
    Ferry,
    RallyState,
    Travel,
)

CAP_ROUNDS = 100  # a playout is ended by the referee after this many more rounds
#: a playout's cap in engine steps: a turn is a draw, a few actions and its end, so 100
#: rounds of 6 cars take some thousands
MAX_STEPS = 20_000
SEEDS = 2**31  # a playout's reshuffle seed is drawn below this
#: playouts per compiled call: the deadline is looked at between calls
CHUNK = 64
_AIMED = frozenset(load().keys("attack") + load().keys("defence"))  # cards played at someone

Weighted = list[tuple[Action, float]]
#: a deal of the unseen cards: the hands, the cards thrown down unseen, the pile (top first)
Deal = tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]


# --- the model of the players' choices --------------------------------------------------------


def choices(state: RallyState) -> Weighted:
    """The greedy driver's next action with its probability (see the module's docstring):
    one certain action, or a uniform choice among attacks, defences and ending the turn."""
    seat = state.turn
    if state.phase == "draw":
        return [(Draw(seat), 1.0)]
    here = engine.to_goal(state, state.towns[seat])
    ports = [p for p in engine.can_ferry(state, seat) if engine.to_goal(state, p) < here]
    if ports:
        return [(Ferry(seat, min(ports, key=lambda p: (engine.to_goal(state, p), p))), 1.0)]
    if state.actions_left > 0:
        fix = _own_defence(state, seat)
        if fix is not None:
            return [(fix, 1.0)]
        drive = _drive(state, seat, here)
        if drive is not None:
            return [(drive, 1.0)]
    may_play = state.actions_left > 0 and any(c in _AIMED for c in state.hands[seat])
    if not may_play and not engine.must_discard(state, seat):
        return [(EndTurn(seat), 1.0)]  # all the engine would list: no play, no discard
    legal = engine.legal_actions(state, Role.seat_of(seat))
    plays = [a for a in legal if isinstance(a, Attack | Defend)]
    ends = [a for a in legal if isinstance(a, EndTurn)]
    share = 1.0 / (len(plays) + 1)
    return [(a, share) for a in plays] + [(a, share / len(ends)) for a in ends]


def _own_defence(state: RallyState, seat: int) -> Defend | None:
    """The defence that lifts one of the car's own statuses, if its hand holds it."""
    hand = state.hands[seat]
    if engine.is_stuck(state, seat) and "jam_clear" in hand:
        return Defend(seat, "jam_clear", town=state.towns[seat])
    if state.engine[seat] and "repair" in hand:
        return Defend(seat, "repair", target=seat)
    if state.rain[seat] and "clear_sky" in hand:
        return Defend(seat, "clear_sky", target=seat)
    return None


def _drive(state: RallyState, seat: int, here: tuple[int, int]) -> Travel | None:
    """The movement that takes the car nearest the goal, with the fewest cards; None if no
    town within reach is nearer than where it stands."""
    towns: dict[int, str] = {}
    best: tuple[tuple[int, int], int, int, tuple[str, ...]] | None = None
    for cards in engine.travel_choices(state, seat):
        km = engine.travel_km(cards)
        if km not in towns:
            towns[km] = engine.proposal(state, seat, km)
        key = (engine.to_goal(state, towns[km]), len(cards), km, cards)
        if best is None or key < best:
            best = key
    if best is None or best[0] >= here:
        return None
    return Travel(seat, best[3], towns[best[2]])


def _pick(options: Weighted, rng: random.Random) -> Action:
    if len(options) == 1:
        return options[0][0]
    x = rng.random()
    for action, weight in options:
        x -= weight
        if x < 0:
            return action
    return options[-1][0]


# --- the figures -------------------------------------------------------------------------------


def result(state: RallyState) -> list[float]:
    """The figures of a race as the engine places it now (an ended race: its final ones):
    each car first (a tie for first shares it), each car's place (a tie takes the better
    place, as the team points do), then each team winning (ties share) and its points."""
    n = state.players
    groups = engine.placings(state)
    first = [0.0] * n
    for seat in groups[0]:
        first[seat] = 1.0 / len(groups[0])
    places = [0.0] * n
    place = 1
    for group in groups:
        for seat in group:
            places[seat] = float(place)
        place += len(group)
    out = first + places
    if state.setup.teams:
        totals = engine.team_totals(state)
        best = max(totals)
        winners = totals.count(best)
        out += [1.0 / winners if total == best else 0.0 for total in totals]
        out += [float(total) for total in totals]
    return out


def play_out(
    state: RallyState, rng: random.Random, last_round: int, max_steps: int = MAX_STEPS
) -> RallyState:
    """The greedy driver to the end of the race (every car in, or ``last_round`` past);
    ``PlayoutTooLong`` past ``max_steps`` steps."""
    for _ in range(max_steps):
        if state.phase == "over":
            return state
        if state.round > last_round:
            return engine.apply(state, EndRace())
        state = engine.apply(state, _pick(choices(state), rng))
    raise PlayoutTooLong("rally", max_steps)


# --- what the table has seen -------------------------------------------------------------------


def seen_discards(history: Sequence[RallyState], state: RallyState) -> list[str] | None:
    """The cards in the discard pile that everyone saw played: those on the turn records
    since the last reshuffle (found in ``history``). None when the history is needed and
    missing."""
    start = 0
    if state.reshuffles:
        if not history or not (history[-1] is state or history[-1] == state):
            return None
        start = next(len(s.turns) for s in history if s.reshuffles == state.reshuffles)
    records = (*state.turns[start:], state.current)
    return [card for record in records for card in record.cards]


def unseen(history: Sequence[RallyState], state: RallyState) -> tuple[list[str], list[str], int]:
    """The cards nobody has seen (sorted keys: in the hands, the pile, or thrown down
    unseen), the cards seen in the discard pile, and how many lie in it unseen. Without what
    it needs to know, every card counts as unseen (less known, never wrong).

    >>> from aids.games.rally.model import RallySetup
    >>> cards, seen, hidden = unseen((), engine.initial_state(RallySetup.default(["A", "B"])))
    >>> len(cards), seen, hidden
    (104, [], 0)
    """
    seen = seen_discards(history, state)
    deck = Counter(engine.full_deck())
    if seen is not None and not Counter(seen) - deck:
        rest = sorted((deck - Counter(seen)).elements())
        hidden = state.discard_size - len(seen)
        if hidden >= 0 and len(rest) == sum(state.hand_sizes) + state.pile_size + hidden:
            return rest, sorted(seen), hidden
    return sorted(deck.elements()), [], state.discard_size


class RallyChances:
    """The rally's ``ChanceModel`` (see the module's docstring)."""

    model: str = "rally.chances.model"
    groups: tuple[str, ...] = ("first", "place", "team", "team_points")
    #: exact enumeration when the orders of the unseen cards are at most this many
    exact_deals = 5_000
    #: and when the positions met along the way are at most this many
    exact_nodes = 20_000
    #: and the longest line of play it follows (deeper: Monte Carlo)
    exact_depth = 300
    #: a playout's cap in engine steps (``PlayoutTooLong`` past it)
    max_steps = MAX_STEPS
    #: playouts on the compiled loop (``fast_jit``, where Numba is installed), else on
    #: ``FastRally``; the same model and the same figures either way, within their error
    compiled = JIT

    def __init__(self, history: Sequence[RallyState] = (), *, cap_rounds: int = CAP_ROUNDS) -> None:
        self.history = tuple(history)
        self.cap_rounds = cap_rounds  # a playout's rounds beyond the position, at most
        self._unseen: tuple[RallyState, tuple[list[str], list[str], int]] | None = None
        self._fast: tuple[RallyState, FastRally, list[int], list[int]] | None = None
        self._packed: tuple[RallyState, Kernel] | None = None

    def unseen(self, state: RallyState) -> tuple[list[str], list[str], int]:
        """``unseen`` for this model's history, kept for the last state asked."""
        if self._unseen is None or self._unseen[0] is not state:
            self._unseen = (state, unseen(self.history, state))
        cards, seen, hidden = self._unseen[1]
        return list(cards), seen, hidden

    def measures(self, state: RallyState) -> tuple[Measure, ...]:
        cars = range(state.players)
        out = [Measure("first", s) for s in cars] + [Measure("place", s, "rank") for s in cars]
        teams = range(len(state.setup.teams))
        out += [Measure("team", i) for i in teams]
        out += [Measure("team_points", i, "expected") for i in teams]
        return tuple(out)

    def title(self, group: str, lang: str) -> str:
        return t(f"rally.chances.{group}", lang)

    def label(self, state: RallyState, measure: Measure, lang: str) -> str:
        if measure.group.startswith("team"):
            return state.setup.teams[measure.index]
        player = state.setup.players[measure.index]
        colour = load().colour(player.colour)
        return f"{colour.symbol} {player.name}" if colour else player.name

    def colour(self, state: RallyState, measure: Measure) -> str | None:
        """A player's bar in their car's colour; a team has none of its own."""
        if measure.group.startswith("team"):
            return None
        found = load().colour(state.setup.players[measure.index].colour)
        return found.hex if found else None

    def decided(self, state: RallyState) -> tuple[float, ...] | None:
        """The figures once nothing is left to chance: the race is over, or at most one car
        is still on the road (it can only come last), so a page shows them at once."""
        if state.phase == "over" or state.players - len(state.arrived) <= 1:
            return tuple(result(state))
        return None

    # --- dealing what nobody has seen ---------------------------------------------------------

    def split(self, state: RallyState, order: Sequence[str]) -> Deal:
        """The unseen cards in this ``order`` as the hands (in seat order, each sorted), the
        cards thrown down unseen (sorted) and the draw pile (top first)."""
        _, _, hidden = self.unseen(state)
        hands, at = [], 0
        for size in state.hand_sizes:
            hands.append(tuple(sorted(order[at : at + size])))
            at += size
        thrown = tuple(sorted(order[at : at + hidden]))
        return tuple(hands), thrown, tuple(order[at + hidden :])

    def deal(self, state: RallyState, deal: Deal, seed: int) -> RallyState:
        """``state`` as a simulation holding this deal, its reshuffles seeded with ``seed``."""
        _, seen, _ = self.unseen(state)
        hands, thrown, pile = deal
        return replace(
            state,
            setup=replace(state.setup, mode="simulation", seed=seed),
            hands=hands,
            discard=tuple(sorted((*seen, *thrown))),
            pile=pile,
            turns=(),  # the records of past turns play no part in the rules
        )

    def sample(self, state: RallyState, rng: random.Random) -> RallyState:
        """One deal of the unseen cards, uniformly at random, with a reshuffle seed."""
        cards, _, _ = self.unseen(state)
        rng.shuffle(cards)
        return self.deal(state, self.split(state, cards), rng.randrange(SEEDS))

    def engine_playout(self, state: RallyState, rng: random.Random) -> RallyState:
        """One game as ``playouts`` plays it, dealt by ``sample`` and driven on the engine
        itself (``choices``, ``engine.apply``): the plain reference of the fast path, which
        ``aids.bench.chances`` times it against."""
        last_round = state.round + self.cap_rounds
        return play_out(self.sample(state, rng), rng, last_round, self.max_steps)

    def playouts(
        self, state: RallyState, n: int, rng: random.Random, deadline: float | None = None
    ) -> list[list[float]] | NDArray[np.float64]:
        """``n`` games, each dealt at random and played by the greedy driver (fewer, at
        least one, once ``deadline`` has passed): on the compiled loop (``fast_jit``: a seed
        per playout drawn from ``rng``, its reshuffles uniform shuffles), or on ``FastRally``,
        where the same ``rng`` gives the same games as ``sample`` and ``play_out`` on the
        engine. The same model either way."""
        if self.compiled:
            kernel, cap = self._kernel(state), self.max_steps
            return compiled_playouts(lambda seeds: kernel.play(seeds, cap), n, rng, deadline)
        template, cards, seen = self.fast(state)
        sizes, hidden = state.hand_sizes, state.discard_size - len(seen)
        rows: list[list[float]] = []
        while len(rows) < n and not (rows and past(deadline)):
            order = list(cards)
            rng.shuffle(order)  # as ``sample``: the deal, then the reshuffles' seed
            hands, at = [], 0
            for size in sizes:
                hands.append(order[at : at + size])
                at += size
            race = template.copy()
            race.deal(hands, seen + order[at : at + hidden], order[at + hidden :],
                      rng.randrange(SEEDS))  # fmt: skip
            rows.append(race.play_out(rng, self.max_steps))
        return rows

    def fast(self, state: RallyState) -> tuple[FastRally, list[int], list[int]]:
        """What every playout from ``state`` starts from, computed once per estimate: the
        race in codes (no hands yet; its map's memos shared by every playout), the unseen
        cards and the seen discards as codes (in the order of ``unseen``)."""
        if self._fast is None or self._fast[0] is not state:
            cards, seen, _ = self.unseen(state)
            template = FastRally.of(state, Roads(state.setup.board, state.setup.goal))
            template.last_round = state.round + self.cap_rounds
            self._fast = (state, template, [CODE[c] for c in cards], [CODE[c] for c in seen])
        return self._fast[1], self._fast[2], self._fast[3]

    def _kernel(self, state: RallyState) -> Kernel:
        """The compiled loop's packing of ``state`` and its deals (kept for the estimate)."""
        if self._packed is None or self._packed[0] is not state:
            template, cards, seen = self.fast(state)
            hidden = state.discard_size - len(seen)
            self._packed = (state, Kernel(template, cards, seen, state.hand_sizes, hidden))
        return self._packed[1]

    def warm(self) -> None:
        """Compile the playout loop (``fast_jit.warm``) before the first estimate needs it."""
        if self.compiled:
            warm()

    # --- exact figures ------------------------------------------------------------------------

    def exact(self, state: RallyState, deadline: float | None = None) -> tuple[float, ...] | None:
        """Exact when at most one car is on the road (every place is fixed), or when every
        order of the unseen cards, each played over every sequence of the model's choices, is
        few enough (no reshuffle met on the way); None otherwise, or once ``deadline`` has
        passed."""
        if state.players - len(state.arrived) <= 1:
            return tuple(result(state))
        cards, _, _ = self.unseen(state)
        if _orders(cards) > self.exact_deals:
            return None
        deals = Counter(self.split(state, order) for order in _permutations(cards))
        count = sum(deals.values())
        memo: dict[tuple[object, ...], list[float]] = {}
        total = [0.0] * len(self.measures(state))
        last_round = state.round + self.cap_rounds
        try:
            for deal, times in deals.items():
                dealt = self.deal(state, deal, 0)
                value = _expected(
                    dealt, memo, last_round, self.exact_nodes, self.exact_depth, deadline
                )
                total = [a + b * times / count for a, b in zip(total, value, strict=True)]
        except _TooBig:
            return None
        return tuple(total)


def _orders(cards: Sequence[str]) -> int:
    """How many distinct orders of these cards there are."""
    count = factorial(len(cards))
    for same in Counter(cards).values():
        count //= factorial(same)
    return count


def _permutations(cards: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """Each distinct order of these cards once (all equally likely under a shuffle)."""
    counts = Counter(cards)

    def extend(prefix: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        if len(prefix) == len(cards):
            yield prefix
            return
        for card in sorted(counts):
            if counts[card]:
                counts[card] -= 1
                yield from extend((*prefix, card))
                counts[card] += 1

    return extend(())


class _TooBig(Exception):
    """Exact enumeration met more than it may: Monte Carlo instead."""


def _key(state: RallyState) -> tuple[object, ...]:
    """What decides the rest of the race (the turn records do not)."""
    return (
        state.round, state.turn, state.phase, state.towns, state.rain, state.engine,
        state.police, state.jams, state.arrived, state.actions_left, state.moved,
        state.current.ferry, bool(state.current.cards), state.hands, state.pile, state.discard,
        state.reshuffles,
    )  # fmt: skip


def _expected(
    state: RallyState,
    memo: dict[tuple[object, ...], list[float]],
    last_round: int,
    limit: int,
    depth: int,
    deadline: float | None = None,
) -> list[float]:
    """The expectation of ``result`` over the model's choices from a dealt ``state`` (each
    position once: ``memo``); a reshuffle (the engine's seeded shuffle) is not enumerated;
    ``_TooBig`` past ``limit`` positions, ``depth`` steps or ``deadline``."""
    if state.phase == "over":
        return result(state)
    if state.round > last_round:
        return result(engine.apply(state, EndRace()))
    key = _key(state)
    known = memo.get(key)
    if known is not None:
        return known
    draw = min(state.machine(state.turn).draw, state.pile_size + state.discard_size)
    if len(memo) >= limit or depth <= 0 or (state.phase == "draw" and state.pile_size < draw):
        raise _TooBig
    if past(deadline):
        raise _TooBig
    total: list[float] = []
    for action, weight in choices(state):
        after = _expected(engine.apply(state, action), memo, last_round, limit, depth - 1, deadline)
        scaled = [weight * v for v in after]
        total = [a + b for a, b in zip(total, scaled, strict=True)] if total else scaled
    memo[key] = total
    return total
