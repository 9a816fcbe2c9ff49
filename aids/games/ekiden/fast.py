"""The Ekiden's relay for playouts (``FastRelay``): the engine's rules on plain lists of small
ints, many times faster than ``engine.apply`` on frozen dataclasses, and the translation of the
engine's runners, cards and actions to its codes. Only ``aids.games.ekiden.chances`` and the
tests use it; ``tests/games/ekiden/test_fast.py`` checks it against the engine on thousands of
random positions, move for move (the legal actions as a set, and the state after each), and
replays whole playouts through the engine.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from aids.games.chances import PlayoutTooLong
from aids.games.ekiden import engine
from aids.games.ekiden.data import load
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
#: a playout's cap in engine steps: a relay is 10 legs of a card and at most 5 runners
MAX_STEPS = 1_000
SITUATION, RUNNERS, OVER = 0, 1, 2  # the phases
PHASES = {"situation": SITUATION, "runners": RUNNERS, "over": OVER}
GO, STAY, BACK = 0, 1, 2  # a mark: its index in ``MARKS`` (○ — ×)
# an action in a playout: (CARD, card code) | (PICK, roster pick) | (TYPED, runner code)
CARD, PICK, TYPED = 0, 1, 2
FastAction = tuple[int, int]
Draws = tuple[list[int], list[list[int]]]  # the weights summed up, the cards (marks by row)
#: every situation card, its code the marks' indices read as a number in base 3 (rank 1
#: first): the engine's order of ``legal_actions``
CARD_MARKS: tuple[tuple[int, ...], ...] = tuple(
    (code // 81, code // 27 % 3, code // 9 % 3, code // 3 % 3, code % 3) for code in range(243)
)
ALL_CARDS = list(range(len(CARD_MARKS)))  # the options of a card to reveal (never changed)


def card_code(marks: Sequence[Mark]) -> int:
    """A situation card's code.

    >>> card_code(("o", "-", "x", "-", "o")), CARD_MARKS[card_code(("x",) * 5)]
    (48, (2, 2, 2, 2, 2))
    """
    out = 0
    for mark in marks:
        out = out * 3 + MARKS.index(mark)
    return out


class Runners:
    """The runner cards a relay may see, as codes ``0…k-1`` (names dropped: they change
    nothing), with what the rules read of each, per leg: the declared power before the
    Commander's carried bonus and the Front-runner's (``base[leg][code]``), the move on ○,
    — and × (``moves[mark][code]``), and the two skills that depend on more than the leg.
    Built once per estimate from the engine's own ``skill_bonus`` and ``commander_gift``."""

    __slots__ = ("base", "cards", "codes", "commander", "front", "front_bonus", "gifts", "moves")

    def __init__(self, setup: EkidenSetup, runners: Iterable[Runner]) -> None:
        self.cards: list[Runner] = []
        self.codes: dict[Runner, int] = {}
        for runner in runners:
            runner = replace(runner, name="") if runner.name else runner
            if runner not in self.codes:
                self.codes[runner] = len(self.cards)
                self.cards.append(runner)
        start = engine.initial_state(setup)
        at = [replace(start, leg=leg) for leg in range(1, load().legs + 1)]
        #: per leg (index 0 unused): what a Commander played then gives the next runner
        self.gifts = [0] + [engine.commander_gift(probe) for probe in at]
        leader = engine.standings(start)[0]
        self.front_bonus = engine.skill_bonus(start, leader, Runner(2, 0, 0, "front_runner"))
        self.front = [r.skill == "front_runner" for r in self.cards]
        self.commander = [r.skill == "commander" for r in self.cards]
        self.base: list[list[int]] = [[]] + [
            [r.power + (0 if front else engine.skill_bonus(probe, 0, r))
             for r, front in zip(self.cards, self.front, strict=True)]
            for probe in at
        ]  # fmt: skip
        self.moves = (
            [r.up for r in self.cards], [0] * len(self.cards), [-r.down for r in self.cards],
        )  # fmt: skip

    def code(self, runner: Runner) -> int:
        return self.codes[replace(runner, name="") if runner.name else runner]


class FastRelay:
    """One relay in plain lists, for playouts. A team with a roster plays one of its unused
    picks (``unused[team]``, roster indices ascending, as ``engine.legal_picks``); a team
    without one plays a runner from ``pool`` (codes, repeated as often as they are likely):
    the engine takes any runner typed in, and the model draws one from the pool.

    Standings are kept as ``order`` (first to last) with each team's column: a piece's slot
    from the centre line is its place among the pieces of its column in that order (the
    engine's slots: 0, 1, … in the order the pieces arrived, which is leg-rank order).
    """

    __slots__ = (
        "carried", "codes", "col", "draws", "keys", "leg", "legs", "marks", "order", "phase",
        "played", "pool", "rosters", "rows", "runners", "teams", "unused",
    )  # fmt: skip

    def __init__(self, runners: Runners) -> None:
        self.runners = runners
        self.teams = 0
        self.legs = load().legs
        self.leg = 1
        self.phase = SITUATION
        self.col: list[int] = []  # per team: its column (0 = start)
        self.order: list[int] = []  # teams, standing 1 first
        self.carried: list[int] = []  # per team: the Commander's bonus for its next runner
        self.rosters: list[list[int] | None] = []  # per team: runner codes, or None
        self.unused: list[list[int]] = []  # per team: roster picks not yet run
        self.pool: list[int] = []  # what a team without a roster plays (runner codes)
        self.marks: list[int] | None = None  # this leg's card, a mark per rank 1–5 (never changed)
        self.played: list[int] = []  # this leg's teams, in play order
        self.codes: list[int] = []  # their runners
        #: their leg-rank keys, ``play index - 8 * declared power``: sorted, rank 1 first
        self.keys: list[int] = []
        self.rows: list[int] = []  # the card's row read at each leg rank given out
        #: how a card not yet revealed is drawn: the cards it may be (marks by row) and
        #: their weights summed up (whole numbers): the card whose sum first passes a
        #: uniform whole number below the total (unless given: every card reads — — — — —)
        self.draws: Draws = ([1], [[STAY] * ROWS])

    # --- to and from the engine's state ---------------------------------------------------

    @classmethod
    def of(
        cls,
        state: EkidenState,
        runners: Runners,
        pool: Sequence[Runner] = (),
        draws: Draws | None = None,
    ) -> FastRelay:
        """``state`` as a fast relay: its rosters (every runner must have a code in
        ``runners``), with ``pool`` for the teams without one and ``draws`` for the cards."""
        relay = cls(runners)
        relay.teams = n = state.teams
        relay.leg, relay.phase = state.leg, PHASES[state.phase]
        relay.col = [p.column for p in state.places]
        relay.order = list(engine.standings(state))
        relay.carried = list(state.commander)
        relay.rosters = [
            None if roster is None else [runners.code(r) for r in roster]
            for roster in state.rosters
        ]
        relay.unused = [list(engine.legal_picks(state, team)) for team in range(n)]
        relay.pool = [runners.code(r) for r in pool]
        relay.marks = None if state.marks is None else [MARKS.index(m) for m in state.marks]
        relay.played = [e.team for e in state.entries]
        relay.codes = [runners.code(e.runner) for e in state.entries]
        relay.keys = [i - 8 * e.declared for i, e in enumerate(state.entries)]
        relay.rows = [label - 1 for label in engine.rank_labels(n)]
        relay.draws = draws or relay.draws
        return relay

    def copy(self) -> FastRelay:
        """A relay to play on: its own lists of what changes (rosters, pool, draws and the
        runners' tables are never changed, so shared)."""
        other = FastRelay.__new__(FastRelay)
        other.runners, other.teams, other.legs = self.runners, self.teams, self.legs
        other.leg, other.phase, other.marks = self.leg, self.phase, self.marks
        other.col, other.order, other.carried = self.col[:], self.order[:], self.carried[:]
        other.rosters, other.unused = self.rosters, [u[:] for u in self.unused]
        other.pool, other.rows, other.draws = self.pool, self.rows, self.draws
        other.played, other.codes, other.keys = self.played[:], self.codes[:], self.keys[:]
        return other

    def powers(self) -> list[int]:
        """This leg's declared powers, in play order."""
        return [-(key >> 3) for key in self.keys]

    def places(self) -> list[tuple[int, int]]:
        """Each team's (column, slot), as the engine's ``Place``."""
        out = [(0, 0)] * self.teams
        seen: dict[int, int] = {}
        for team in self.order:
            column = self.col[team]
            out[team] = (column, seen.get(column, 0))
            seen[column] = out[team][1] + 1
        return out

    # --- the rules ------------------------------------------------------------------------

    def actions(self) -> list[FastAction]:
        """Every legal action now (as ``engine.legal_actions``, a team without a roster
        offered ``pool``)."""
        seen: list[int] = []

        def look(options: list[int]) -> int:
            seen.extend(options)
            return -1  # apply nothing

        kind = CARD if self.phase == SITUATION else self._run_kind()
        self.run(look, steps=1)
        return [(kind, option) for option in seen]

    def _run_kind(self) -> int:
        team = self.order[self.teams - 1 - len(self.played)]
        return TYPED if self.rosters[team] is None else PICK

    def step(self, action: FastAction) -> None:
        """Apply one legal action (from ``actions``); a leg's last runner resolves it."""
        wanted = action[1]
        self.run(lambda options: options.index(wanted), steps=1)

    def play_out(self, rng: random.Random, max_steps: int = MAX_STEPS) -> list[float]:
        """Cards drawn by ``draws``, runners uniformly among the legal ones, to the end; the
        result. Raises ``PlayoutTooLong`` rather than take more than ``max_steps`` steps."""
        self.run(None, steps=max_steps, pick=rng.random)
        if self.phase != OVER:
            raise PlayoutTooLong("ekiden", max_steps)
        return self.result()

    def run(
        self,
        choose: Callable[[list[int]], int] | None,
        steps: int = -1,
        pick: Callable[[], float] | None = None,
    ) -> None:
        """The rules' loop, the one path ``actions``, ``step`` and ``play_out`` all take.

        At each step the legal actions are listed as codes — a card to reveal as its code
        (``ALL_CARDS``), a roster runner as its pick, a typed-in runner as its code (the pool)
        — and ``choose`` returns the index of one (or -1: stop before applying anything).
        The last runner of a leg resolves it: leg ranks (declared power, ties to the runner
        played first), the moves from rank 1 down, the new standings (column, then the order
        the pieces arrived in it). ``steps`` bounds how many are applied (-1: to the end).
        With no ``choose``, a card is drawn by ``draws`` and a runner uniformly, each with
        one ``pick`` (a float in [0, 1)) — inline: a playout's hot path.
        """
        uniform = pick or random.random
        runners = self.runners
        bases, moves, front, commander, gifts = (
            runners.base, runners.moves, runners.front, runners.commander, runners.gifts,
        )  # fmt: skip
        front_bonus = runners.front_bonus
        col, carried, rosters, unused, pool = (
            self.col, self.carried, self.rosters, self.unused, self.pool,
        )  # fmt: skip
        played, codes, keys, rows, draws = (
            self.played, self.codes, self.keys, self.rows, self.draws,
        )  # fmt: skip
        n, legs, leg, phase, marks, order = (
            self.teams, self.legs, self.leg, self.phase, self.marks, self.order,
        )  # fmt: skip
        base, gift, last = bases[leg], gifts[leg], n - 1
        sums, cards = draws
        total = sums[-1]
        pool_size = len(pool)
        while phase != OVER and steps:
            if phase == SITUATION:
                if choose is None:
                    marks = cards[bisect_right(sums, int(uniform() * total))]
                else:
                    index = choose(ALL_CARDS)
                    if index < 0:
                        break
                    marks = list(CARD_MARKS[index])
                phase = RUNNERS
                steps -= 1
                continue
            k = len(played)  # runners run this leg
            team = order[last - k]  # from the lowest standing up
            roster = rosters[team]
            if roster is None:
                if choose is None:
                    code = pool[int(uniform() * pool_size)]
                else:
                    index = choose(pool)
                    if index < 0:
                        break
                    code = pool[index]
            else:
                free = unused[team]
                if choose is None:
                    index = int(uniform() * len(free))
                else:
                    index = choose(free)
                    if index < 0:
                        break
                code = roster[free.pop(index)]
            steps -= 1
            power = base[code] + carried[team]
            if front[code] and order[0] == team:
                power += front_bonus
            carried[team] = 0
            keys.append(k - 8 * power)
            played.append(team)
            codes.append(code)
            if k < last:
                continue
            # the leg resolves: rank by power (higher first), ties to the one played first
            assert marks is not None  # the runners phase always has its card
            keys.sort()
            arrived = []
            for position, key in enumerate(keys):
                i = key & 7
                team, code = played[i], codes[i]
                col[team] += moves[marks[rows[position]]][code]
                if gift and commander[code]:
                    carried[team] = gift
                arrived.append(team)
            order = sorted(arrived, key=col.__getitem__, reverse=True)  # stable: ties by rank
            played.clear()
            codes.clear()
            keys.clear()
            marks = None
            if leg == legs:
                phase = OVER
            else:
                leg += 1
                phase = SITUATION
                base, gift = bases[leg], gifts[leg]
        self.leg, self.phase, self.marks, self.order = leg, phase, marks, order

    # --- the result -----------------------------------------------------------------------

    def result(self) -> list[float]:
        """Each team winning (0/1), then each team's standing (1 = first)."""
        order, n = self.order, self.teams
        standing = [0.0] * n
        for place, team in enumerate(order, start=1):
            standing[team] = float(place)
        win = [0.0] * n
        win[order[0]] = 1.0
        return win + standing


def to_engine_action(relay: FastRelay, state: EkidenState, action: FastAction) -> Situation | Run:
    """A fast action as the engine's, at ``state`` (the same position as ``relay``)."""
    kind, value = action
    if kind == CARD:
        marks = tuple(MARKS[m] for m in CARD_MARKS[value])
        return Situation(state.leg, marks)
    team = engine.next_runner(state)
    assert team is not None  # a run is only offered in the runners phase
    if kind == PICK:
        return Run(team, state.leg, pick=value)
    return Run(team, state.leg, runner=relay.runners.cards[value])


def fast_action(relay: FastRelay, action: Situation | Run) -> FastAction:
    """An engine action as the fast relay's (a typed-in runner must have a code)."""
    if isinstance(action, Situation):
        return (CARD, card_code(action.marks))
    if action.pick is not None:
        return (PICK, action.pick)
    assert action.runner is not None  # the parser guarantees one of the two
    return (TYPED, relay.runners.code(action.runner))
