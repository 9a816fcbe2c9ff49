"""The Ekiden's live chances: each team's chance of winning the relay and its expected final
standing, from what every player may see.

What the viewer cannot see, and how it is drawn (the rulebook prints neither the runner cards'
values nor the situation cards' marks, so both are estimated from this table's own play):

- **Runners.** Rosters are hidden until the relay ends (``Ekiden.view``) and may not be
  entered at all. Each runner a team has not yet played is drawn, independently and with
  replacement, from the runner cards played so far at this table by any team (the *pool*);
  before the first runner is played, from the engine's list of typed-in runners
  (``engine.legal_actions``: every power 2–6 with every skill or none, up 2, down 1). The
  model never reads a roster, even one it is handed: only the runners already run count.
- **Situation cards.** The ten are shuffled, so the cards revealed so far are a random part of
  them. An unrevealed card's mark at each leg rank given out is drawn from the marks revealed
  at that rank so far plus one of each mark (Laplace's rule of succession: uniform ○ — × before
  any card is revealed), each rank independently. Ranks not given out are never read.
- **Choices.** Each team plays a runner from its (sampled) hand uniformly at random among the
  engine's legal picks — the default model; no better one has been measured.

Playouts run on ``FastRelay`` (``aids.games.ekiden.fast``): the engine's rules on plain lists
of small ints, checked against the engine move for move; the pool, the card draws and the
runners' tables are built once per estimate (``fast_relay``), not per playout. Since a hand's
runners are independent draws and the pick among them is uniform, each runner played is
itself one draw from the pool: the playouts draw it so (no roster is dealt), and ``exact``
enumerates every future situation card (its marks at the ranks given out) and every runner
from the pool, weighted, when that is at most ``exact_leaves`` leaves (the last leg, or the
last two when few different runners were seen).
The tests compare the Monte Carlo figures with it.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from aids.core.i18n import t
from aids.games.chances import Measure, past
from aids.games.ekiden import engine
from aids.games.ekiden.data import load
from aids.games.ekiden.describe import team_label
from aids.games.ekiden.fast import MAX_STEPS, FastRelay, Runners
from aids.games.ekiden.model import (
    MARKS,
    EkidenSetup,
    EkidenState,
    Mark,
    Run,
    Runner,
    Situation,
)

ROWS = 5  # a situation card's marks: one per leg rank 1–5
Odds = tuple[tuple[int, tuple[float, ...]], ...]  # (leg rank given out, P(○), P(—), P(×))


def played_runners(state: EkidenState, team: int | None = None) -> list[Runner]:
    """The runners already run (finished legs, then this leg's), of one team or of all;
    names dropped (they change nothing)."""
    entries = [e for leg in state.history for e in leg] + list(state.entries)
    return [replace(e.runner, name="") for e in entries if team is None or e.team == team]


def runner_pool(state: EkidenState) -> list[Runner]:
    """What a runner not yet played is drawn from: every runner run at this table so far, or
    before the first, the engine's typed-in runners.

    >>> from aids.games.ekiden.model import EkidenSetup
    >>> len(runner_pool(engine.initial_state(EkidenSetup.default(["A", "B", "C"]))))
    40
    """
    return played_runners(state) or list(_typed_in(state.setup))


@cache
def _typed_in(setup: EkidenSetup) -> tuple[Runner, ...]:
    """The engine's list of runners a team without a roster may type in (any leg's)."""
    first = engine.apply(engine.initial_state(setup), Situation(1, ("-",) * 5))
    return tuple(a.runner for a in engine.legal_actions(first) if isinstance(a, Run) and a.runner)


def mark_counts(state: EkidenState) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each leg rank given out, how often ○, — and × were revealed there, plus one each
    (Laplace's rule of succession: the weights of a card not yet revealed)."""
    labels = engine.rank_labels(state.teams)
    seen: Counter[tuple[int, Mark]] = Counter()
    for leg in state.history:
        seen.update((e.rank, e.mark) for e in leg if e.mark is not None)
    if state.marks is not None:  # this leg's card, revealed
        seen.update((label, state.marks[label - 1]) for label in labels)
    return tuple((label, tuple(1 + seen[label, m] for m in MARKS)) for label in labels)


def mark_odds(state: EkidenState) -> Odds:
    """For each leg rank given out, the chance of ○, — and × on a card not yet revealed: the
    marks revealed at that rank so far, plus one of each.

    >>> from aids.games.ekiden.model import EkidenSetup
    >>> mark_odds(engine.initial_state(EkidenSetup.default(["A", "B", "C"])))[0]
    (1, (0.3333333333333333, 0.3333333333333333, 0.3333333333333333))
    """
    return tuple(
        (label, tuple(c / sum(counts) for c in counts)) for label, counts in mark_counts(state)
    )


def fast_relay(state: EkidenState) -> FastRelay:
    """``state`` (rosters as given: the model hands it none) as a ``FastRelay`` drawing as the
    model does: a runner from the pool (every runner run so far, each as often as it ran),
    a card's mark at each rank given out from a table holding each mark as often as its
    weight in ``mark_counts`` — one uniform index each."""
    pool = runner_pool(state)
    entries = [e.runner for leg in state.history for e in leg] + [e.runner for e in state.entries]
    rostered = [r for roster in state.rosters if roster is not None for r in roster]
    runners = Runners(state.setup, [*pool, *entries, *rostered])
    draws = [
        (label - 1, [m for m, count in enumerate(counts) for _ in range(count)])
        for label, counts in mark_counts(state)
    ]
    return FastRelay.of(state, runners, pool, draws)


def result(state: EkidenState) -> list[float]:
    """Each team winning (0/1), then each team's standing (1 = first), for a finished relay."""
    order = engine.standings(state)
    return [1.0 if order[0] == team else 0.0 for team in range(state.teams)] + [
        float(order.index(team) + 1) for team in range(state.teams)
    ]


class EkidenChances:
    """The Ekiden's ``ChanceModel`` (see the module's docstring)."""

    model: str = "ekiden.chances.model"
    groups: tuple[str, ...] = ("win", "standing")

    def __init__(self, exact_leaves: int = 20_000, max_steps: int = MAX_STEPS) -> None:
        #: exact enumeration when the weighted leaves (every future situation card at the
        #: ranks given out × every runner of the pool) are at most this many; 0: never
        self.exact_leaves = exact_leaves
        #: a playout's cap in engine steps (``PlayoutTooLong`` past it)
        self.max_steps = max_steps
        self._prepared: tuple[EkidenState, FastRelay] | None = None

    def measures(self, state: EkidenState) -> tuple[Measure, ...]:
        teams = range(state.teams)
        return (
            *(Measure("win", team) for team in teams),
            *(Measure("standing", team, "rank") for team in teams),
        )

    def title(self, group: str, lang: str) -> str:
        return t(f"ekiden.chances.{group}", lang)

    def label(self, state: EkidenState, measure: Measure, lang: str) -> str:
        return team_label(state, measure.index)

    def decided(self, state: EkidenState) -> tuple[float, ...] | None:
        return tuple(result(state)) if engine.is_over(state) else None

    # --- Monte Carlo ------------------------------------------------------------------------

    def playouts(
        self, state: EkidenState, n: int, rng: random.Random, deadline: float | None = None
    ) -> list[list[float]]:
        """``n`` relays run to the end on ``FastRelay`` (fewer, at least one, once
        ``deadline`` has passed): every runner still to run one draw from the pool, every
        card still to come drawn at the ranks given out (see the module's docstring)."""
        template = self._relay(state)
        rows: list[list[float]] = []
        while len(rows) < n and not (rows and past(deadline)):
            rows.append(template.copy().play_out(rng, self.max_steps))
        return rows

    def _relay(self, state: EkidenState) -> FastRelay:
        """``state`` as a fast relay with the model's draws: built once per estimate (the
        estimate asks for its playouts in batches, all of the same state)."""
        if self._prepared is not None and self._prepared[0] is state:
            return self._prepared[1]
        relay = fast_relay(_public(state))
        self._prepared = (state, relay)
        return relay

    # --- exact enumeration ------------------------------------------------------------------

    def leaves(self, state: EkidenState) -> int:
        """How many weighted leaves ``exact`` would visit."""
        legs = load().legs
        cards = legs - state.leg + (state.phase == "situation")
        runs = state.teams * (legs - state.leg + 1) - len(state.entries)
        distinct = len(set(runner_pool(state)))
        labels = len(engine.rank_labels(state.teams))
        return math.prod([len(MARKS)] * (labels * cards) + [distinct] * runs)

    def exact(self, state: EkidenState, deadline: float | None = None) -> tuple[float, ...] | None:
        """Every future situation card and every runner drawn, each with its chance: only
        when that is at most ``exact_leaves`` leaves, and given up (None) at ``deadline``."""
        if engine.is_over(state) or self.leaves(state) > self.exact_leaves:
            return None
        base = _public(state)
        pool = Counter(runner_pool(base))
        runners = [(runner, count / pool.total()) for runner, count in pool.items()]
        try:
            value = _expected(base, runners, _cards(mark_odds(base)), deadline)
        except _TooLate:
            return None
        return tuple(round(v, 12) for v in value)  # a certain win is 1.0, not 1.0000000000000007


def _public(state: EkidenState) -> EkidenState:
    """``state`` with no roster at all: what the model may use, whoever's state it is given."""
    return replace(state, rosters=tuple(None for _ in range(state.teams)))


def _cards(odds: Odds) -> list[tuple[tuple[Mark, ...], float]]:
    """Every card as the ranks given out read it (other ranks "—"), with its chance."""
    out = []
    for combo in itertools.product(range(len(MARKS)), repeat=len(odds)):
        marks: list[Mark] = ["-"] * ROWS
        chance = 1.0
        for (label, p), i in zip(odds, combo, strict=True):
            marks[label - 1] = MARKS[i]
            chance *= p[i]
        out.append((tuple(marks), chance))
    return out


class _TooLate(Exception):
    """Exact enumeration ran past its deadline: Monte Carlo instead."""


def _expected(
    state: EkidenState,
    runners: Sequence[tuple[Runner, float]],
    cards: Sequence[tuple[tuple[Mark, ...], float]],
    deadline: float | None = None,
) -> list[float]:
    """The expectation of ``result`` over every card and runner still to come (``_TooLate``
    once ``deadline`` has passed)."""
    if engine.is_over(state):
        return result(state)
    if past(deadline):
        raise _TooLate
    if state.phase == "situation":
        branches: list[tuple[Situation | Run, float]] = [
            (Situation(state.leg, marks), p) for marks, p in cards
        ]
    else:
        team = engine.next_runner(state)
        assert team is not None  # the runners phase always has a team to play
        branches = [(Run(team, state.leg, runner=r), p) for r, p in runners]
    total = [0.0] * (2 * state.teams)
    for action, chance in branches:
        value = _expected(engine.apply(state, action), runners, cards, deadline)
        for i, v in enumerate(value):
            total[i] += chance * v
    return total
