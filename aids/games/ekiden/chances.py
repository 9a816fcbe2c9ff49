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
weighs every future situation card (its marks at the ranks given out) and every kind of runner
of the pool (runners alike in all the rules read of them from this leg on count as one) when
that is at most ``exact_leaves`` leaves. The last leg is summed, not enumerated: once the
declared powers are known the leg ranks are, and each piece's final column is then
independent of the others', so the last leg is exact from its start when its runners'
declared powers take few values (7 on a flat leg 10 at a 5-team table: 7⁵ = 16,807 profiles),
and earlier legs are when few runners are left to run before it.
The tests compare the exact figures with an enumeration over the engine, and the Monte Carlo
figures with both.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

from aids.core.i18n import t
from aids.games.chances import Measure, past
from aids.games.ekiden import engine
from aids.games.ekiden.data import load
from aids.games.ekiden.describe import team_label
from aids.games.ekiden.fast import (
    BACK,
    GO,
    MAX_STEPS,
    OVER,
    ROWS,
    SITUATION,
    STAY,
    FastRelay,
    Runners,
)
from aids.games.ekiden.model import (
    MARKS,
    EkidenSetup,
    EkidenState,
    Mark,
    Run,
    Runner,
    Situation,
)

Odds = tuple[tuple[int, tuple[float, ...]], ...]  # (leg rank given out, P(○), P(—), P(×))


def played_runners(state: EkidenState) -> list[Runner]:
    """The runners already run (finished legs, then this leg's), names dropped (they change
    nothing)."""
    entries = [e for leg in state.history for e in leg] + list(state.entries)
    return [replace(e.runner, name="") for e in entries]


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
    a card among every card as the ranks given out read it (other ranks —), weighted by the
    product of its marks' weights in ``mark_counts`` — one uniform number each."""
    pool = runner_pool(state)
    entries = [e.runner for leg in state.history for e in leg] + [e.runner for e in state.entries]
    rostered = [r for roster in state.rosters if roster is not None for r in roster]
    runners = Runners(state.setup, [*pool, *entries, *rostered])
    cards = card_weights(state)
    sums = list(itertools.accumulate(weight for _, weight in cards))
    return FastRelay.of(state, runners, pool, (sums, [marks for marks, _ in cards]))


def card_weights(state: EkidenState) -> list[tuple[list[int], int]]:
    """Every card as the ranks given out read it (marks by row, other ranks —), with its
    weight: the product of its marks' weights in ``mark_counts``."""
    counts = mark_counts(state)
    out = []
    for combo in itertools.product(range(len(MARKS)), repeat=len(counts)):
        marks, weight = [STAY] * ROWS, 1
        for (label, count), m in zip(counts, combo, strict=True):
            marks[label - 1] = m
            weight *= count[m]
        out.append((marks, weight))
    return out


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
        #: exact figures when the weighted leaves (``leaves``: the cards and kinds of
        #: runners before the last leg × the last leg's declared powers) are at most this
        #: many; 0: never
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

    def colour(self, state: EkidenState, measure: Measure) -> str | None:
        """A team's bar in its pieces' colour."""
        found = load().colour(state.setup.teams[measure.index].colour)
        return found.hex if found else None

    def decided(self, state: EkidenState) -> tuple[float, ...] | None:
        """The figures when nothing is left to chance: the relay over, or every place fixed
        already — each piece more columns ahead of the next than the legs left could close,
        each leg at most the farthest step forward of a runner the model may draw (the
        pool) for the one behind and the farthest step back for the one ahead."""
        if not engine.is_over(state):
            pool = runner_pool(state)
            reach = (load().legs - state.leg + 1) * (
                max(r.up for r in pool) + max(r.down for r in pool)
            )
            columns = [state.places[team].column for team in engine.standings(state)]
            if any(ahead - behind <= reach for ahead, behind in itertools.pairwise(columns)):
                return None
        return tuple(result(state))

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
        """How many weighted leaves ``exact`` would visit: every card to come before the
        last leg at the ranks given out, times every kind of runner (``runner_kinds``) for
        every runner to run before it, times the declared powers of the last leg's runners
        (what the last leg enumerates: its card and its runners' moves are summed, not
        enumerated; see ``_Enumeration.last_leg``)."""
        legs = load().legs
        if state.phase == "over":
            return 1
        relay = self._relay(state)
        kinds = runner_kinds(relay)
        last = state.teams - (len(state.entries) if state.leg == legs else 0)
        runs = state.teams * (legs - state.leg + 1) - len(state.entries) - last
        cards = max(0, legs - state.leg - 1) + (state.phase == "situation" and state.leg < legs)
        labels = len(engine.rank_labels(state.teams))
        tables = relay.runners
        powers = {tables.base[legs][code] for code, _ in kinds} | {
            tables.base[legs][code] + tables.front_bonus for code, _ in kinds if tables.front[code]
        }
        return math.prod(
            [len(MARKS)] * (labels * cards) + [len(kinds)] * runs + [len(powers)] * last
        )

    def exact(self, state: EkidenState, deadline: float | None = None) -> tuple[float, ...] | None:
        """Every future situation card and every kind of runner drawn, each with its chance,
        on ``FastRelay`` (the last leg summed: ``_Enumeration.last_leg``): only when that is at most
        ``exact_leaves`` leaves, and given up (None) at ``deadline``."""
        if engine.is_over(state) or self.leaves(state) > self.exact_leaves:
            return None
        relay = self._relay(state).copy()
        kinds = runner_kinds(relay)
        relay.pool = [code for code, _ in kinds]  # a run's option i: kind i
        odds = mark_odds(_public(state))
        cards = card_weights(_public(state))
        total = sum(weight for _, weight in cards)
        enumerate_ = _Enumeration(
            list(enumerate(chance for _, chance in kinds)),
            [(int("".join(map(str, m)), 3), w / total) for m, w in cards],  # (code, chance)
            kinds,
            [p for _, p in odds],
            deadline,
        )
        try:
            value = enumerate_.expected(relay)
        except _TooLate:
            return None
        return tuple(round(v, 12) for v in value)  # a certain win is 1.0, not 1.0000000000000007


def runner_kinds(relay: FastRelay) -> list[tuple[int, float]]:
    """The pool's runners that differ in what the rules read of them from this leg to the
    last (declared power each leg, the Front-runner's and the Commander's skills, up and
    down), one code for each kind with its chance: runners alike there give alike relays."""
    tables = relay.runners
    legs = range(relay.leg, relay.legs + 1)
    gives = any(tables.gifts[leg] for leg in legs)
    weights: dict[tuple[object, ...], list[int]] = {}
    for code in relay.pool:
        key = (
            tuple(tables.base[leg][code] for leg in legs), tables.front[code],
            gives and tables.commander[code], tables.moves[GO][code], tables.moves[BACK][code],
        )  # fmt: skip
        weights.setdefault(key, [code, 0])[1] += 1
    return [(code, count / len(relay.pool)) for code, count in weights.values()]


def _public(state: EkidenState) -> EkidenState:
    """``state`` with no roster at all: what the model may use, whoever's state it is given."""
    return replace(state, rosters=tuple(None for _ in range(state.teams)))


class _TooLate(Exception):
    """Exact enumeration ran past its deadline: Monte Carlo instead."""


class _Enumeration:
    """The expectation of ``result`` over every card and runner still to come: options
    ``(index, chance)`` of a card (its code) and of a run (its kind, ``runners``), each
    position visited on ``FastRelay`` up to the last leg, which ``last_leg`` sums; each
    start of the last leg once (``memo``). ``_TooLate`` once ``deadline`` has passed."""

    def __init__(
        self,
        runners: Sequence[tuple[int, float]],
        cards: Sequence[tuple[int, float]],
        kinds: Sequence[tuple[int, float]],
        odds: Sequence[tuple[float, ...]],
        deadline: float | None,
    ) -> None:
        self.runners, self.cards, self.kinds, self.odds = runners, cards, kinds, odds
        self.deadline = deadline
        self.memo: dict[tuple[object, ...], list[float]] = {}

    def expected(self, relay: FastRelay) -> list[float]:
        if relay.phase == OVER:
            return relay.result()
        if past(self.deadline):
            raise _TooLate
        if relay.leg == relay.legs:
            key = (tuple(relay.col), tuple(relay.order), tuple(relay.carried), relay.phase)
            known = self.memo.get(key)
            if known is None:
                known = self.memo[key] = self.last_leg(relay)
            return known
        total = [0.0] * (2 * relay.teams)
        for index, chance in self.cards if relay.phase == SITUATION else self.runners:
            after = relay.copy()
            after.run(_chosen(index), steps=1)
            for i, v in enumerate(self.expected(after)):
                total[i] += chance * v
        return total

    def last_leg(self, relay: FastRelay) -> list[float]:
        """The last leg summed rather than enumerated: once every runner's declared power
        is known, so are the leg ranks, and then each piece's final column is independent of
        the others' (its own runner's up and down, the mark at its own rank); so the chance
        that one piece ends behind another, or that all do, is a sum over its columns. Only
        the declared powers of the runners still to run are enumerated (each team's group of
        kinds alike in power, with their moves), and alike groups are summed once."""
        n, tables, order, leg = relay.teams, relay.runners, relay.order, relay.leg
        base, go, back = tables.base[leg], tables.moves[GO], tables.moves[BACK]
        if relay.marks is None:
            odds = list(self.odds)
        else:  # revealed: one mark at each rank given out
            odds = [tuple(float(m == relay.marks[row]) for m in range(3)) for row in relay.rows]
        played = list(relay.played)
        teams = played + [order[n - 1 - i] for i in range(len(played), n)]  # play order
        choices: list[list[tuple[int, float, tuple[tuple[float, int, int], ...]]]] = [
            [(power, 1.0, ((1.0, go[code], back[code]),))]
            for code, power in zip(relay.codes, relay.powers(), strict=True)
        ]
        for team in teams[len(played) :]:
            groups: dict[int, dict[tuple[int, int], float]] = {}
            for code, chance in self.kinds:
                power = base[code] + relay.carried[team]
                if tables.front[code] and order[0] == team:
                    power += tables.front_bonus
                moves = groups.setdefault(power, {})
                moves[go[code], back[code]] = moves.get((go[code], back[code]), 0.0) + chance
            choices.append([(power, *_given(m)) for power, m in groups.items()])
        total = [0.0] * (2 * n)
        seen: dict[tuple[object, ...], list[float]] = {}
        for count, combo in enumerate(itertools.product(*choices)):
            if count & 255 == 255 and past(self.deadline):
                raise _TooLate
            weight = math.prod(w for _, w, _ in combo)
            ranked = tuple(sorted(range(n), key=lambda i: (-combo[i][0], i)))
            key = (ranked, tuple(combo[i][2] for i in ranked))
            value = seen.get(key)
            if value is None:
                value = seen[key] = _final(relay.col, teams, ranked, combo, odds)
            for i, v in enumerate(value):
                total[i] += weight * v
        return total


def _given(moves: dict[tuple[int, int], float]) -> tuple[float, tuple[tuple[float, int, int], ...]]:
    """A group's chance and its moves' chances within it: (chance, up, down as a move)."""
    total = sum(moves.values())
    return total, tuple((chance / total, up, down) for (up, down), chance in moves.items())


def _final(
    col: Sequence[int],
    teams: Sequence[int],
    ranked: Sequence[int],
    combo: Sequence[tuple[int, float, tuple[tuple[float, int, int], ...]]],
    odds: Sequence[tuple[float, ...]],
) -> list[float]:
    """Each team winning and its expected standing, given the leg ranks (``ranked``: play
    indices, rank 1 first) and each runner's moves: a piece is behind another if its column
    is lower, or the same and it arrived later (a lower leg rank)."""
    n = len(teams)
    columns: list[dict[int, float]] = []
    for position, i in enumerate(ranked):
        start, (go, stay, back) = col[teams[i]], odds[position]
        where: dict[int, float] = {}
        for chance, up, down in combo[i][2]:
            ends = (
                (start + up, go * chance),
                (start, stay * chance),
                (start + down, back * chance),
            )
            for column, p in ends:
                if p:
                    where[column] = where.get(column, 0.0) + p
        columns.append(where)
    out = [0.0] * (2 * n)
    for position, where in enumerate(columns):
        team = teams[ranked[position]]
        win, ahead = 0.0, 0.0
        for column, p in where.items():
            alone = p
            for other, there in enumerate(columns):
                if other != position:
                    later = other > position  # the same column: arrived later, behind
                    behind = sum(
                        q for c, q in there.items() if c < column or (c == column and later)
                    )
                    alone *= behind
                    ahead += p * (1.0 - behind)
            win += alone
        out[team], out[n + team] = win, 1.0 + ahead
    return out


def _chosen(index: int) -> Callable[[list[int]], int]:
    """A ``FastRelay.run`` choice: always option ``index``."""
    return lambda _options: index
