"""Grand National's live chances: each horse winning and placing (1st–4th), each stable's money.

Every playout runs the engine's rules from the position every player may see (the viewer's
state) to the engine's own end: four horses placed, or none left running — on a compiled loop
(``aids.games.grand_national.fast_jit``, Numba) checked playout for playout against
``FastRace`` (``aids.games.grand_national.fast``: the rules on plain lists of small ints,
checked against ``engine.apply`` move for move), which runs them where Numba is missing.
The model, named in one line on the page (``gn.chances.model``):

- Chance is the spinner's: the going, each lane's inside stable and, in cap order, each cap's
  first stable are uniform over the engine's chance actions (the six goings; the colours in
  play, as if a spin on a colour out of play were spun again).
- Each horse, when due, moves straight on in its lane as a rider paces it (issue 20): its even
  pace — the fastest speed whose turns to the finish, at handicap + speed lengths a turn, its
  speed points left would pay for — or one point faster or slower, uniformly at random,
  leaving out any speed after which it could not finish even at one point a turn; a horse
  that cannot finish whatever it runs moves a uniformly random 1–8 (``fast_state.speeds``). It is
  re-planned every turn, so a handicap cut for running too free slows it from then on. It is
  never boxed, blocked or pulled up by choice; the engine still pulls up a horse that is
  lapped or out of speed points, and applies running too free and the turn order itself.
- No further cards: their texts and the decks are not in the rulebook (the referee enters each
  effect), so none can be drawn at random; effects already entered stay. Before the start
  the rest is played out too: the blind bets still to write count as none (unknown, left out
  like the sealed ones), the going and the lanes are spun, and the race starts with the
  handicaps, odds and bets as they stand (no adjustment or bet is guessed).
- Money is the engine's ledger after its settlement: cash, prize money and the bets taken at
  the posted odds. A sealed blind bet is not on the ledger until settlement and is left out
  (the viewer's state holds no stake to use); once the race is settled the figures are the
  ledger's, blind bets included.

Why not uniformly random among every legal choice: the engine has no squares (a ruling), so a
sideways move only spends lengths, and a pulled-up horse earns nothing: both are dominated.
Measured earlier from the start of a 4-stable race (16 horses, handicaps 1–6, Good; 2,000
playouts a model): uniform over every legal lane ended 15 % of races with fewer than four
placed and pulled up 9.2 horses a race (out of speed points); adding a uniformly random
pull-up to each turn ended 53 % of races short; straight on, 0 % short.

Why a rider's pace, not a uniform 1–8 (measured 2026-12-01 from the start of the tests'
field plus a fourth stable, handicaps 6 4 1 3 / 5 3 2 1 / 6 4 2 5 / 5 2 3 1, Good, 2,000
playouts each, seed 5): a uniform speed ignores what is left — a +6 horse, which can run 8
every turn and still finish, dawdles, and a +3, which must average 5, spends its points
early and runs out. Uniform: 3.9 horses pulled up a race, the race over in 10.9 rounds.
Rider: 8.3 pulled up (the +1 and +2 horses pace themselves to finish at 2–3 lengths a turn
and are lapped), 8.9 rounds; both always end with four placed. The rider moved chances by up
to 11 points to win (Corbiere, +5: 11 % → 22 %) and 32 points to place (Numbersixvalverde,
+5: 51 % → 84 %; Aldaniti, +4: 13 % → 1 %): the handicap now decides, as a table would expect.

Exact where cheap: in the race near its end, every sequence of spins and speeds is enumerated
under the same model (each position once, depth first, the least speed and the first spin
first), given up as soon as a line lasts more than ``exact_steps`` steps or the enumeration
takes more than ``exact_nodes`` engine steps. Far from the end, the first line gives up within
``exact_steps`` steps; near it, a tree too big costs at most ``exact_nodes`` steps (a fraction
of a second) before the playouts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from aids.core.i18n import t
from aids.games.base import CHANCE
from aids.games.chances import Measure, PlayoutTooLong, past
from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import horse_label, stable_label
from aids.games.grand_national.fast import MAX_STEPS, FastRace
from aids.games.grand_national.fast_jit import AVAILABLE as JIT
from aids.games.grand_national.fast_jit import Kernel
from aids.games.grand_national.fast_jit import warm as warm_loop
from aids.games.grand_national.fast_state import race_of, speeds
from aids.games.grand_national.model import Action, BlindBet, GnState, Move, Start
from aids.games.jit import playouts as compiled_playouts


class GnChances:
    """Grand National's ``ChanceModel`` (see the module's docstring)."""

    model: str = "gn.chances.model"
    groups: tuple[str, ...] = ("win", "placed", "money")
    #: exact enumeration only when every sequence of choices ends the race within this many
    #: steps (moves and spins)
    exact_steps = 12
    #: and when it takes at most this many engine steps in all
    exact_nodes = 2_000
    #: a playout's cap in engine steps (``PlayoutTooLong`` past it)
    max_steps = MAX_STEPS
    #: the speeds a horse picks among (``fast_state.speeds``): ``rider`` or ``uniform``
    pacing = "rider"
    #: playouts on the compiled loop (``fast_jit``, where Numba is installed), else on
    #: ``FastRace``; the same model and the same figures either way, within their error
    compiled = JIT

    def __init__(self, history: Sequence[GnState] = ()) -> None:
        # Nothing hidden matters but the sealed blind bets (left out), so the newest state
        # is all the model reads; the history is kept for the contract.
        self.history = tuple(history)
        self._base: tuple[GnState, FastRace, Kernel | None] | None = None

    # --- what is measured -----------------------------------------------------------------

    def measures(self, state: GnState) -> tuple[Measure, ...]:
        horses = range(state.horses)
        return (
            *(Measure("win", h) for h in horses),
            *(Measure("placed", h) for h in horses),
            *(Measure("money", s, "expected") for s in range(state.seats)),
        )

    def title(self, group: str, lang: str) -> str:
        return t(f"gn.chances.{group}", lang)

    def label(self, state: GnState, measure: Measure, lang: str) -> str:
        if measure.group == "money":
            return stable_label(state, measure.index)
        return horse_label(state, measure.index)

    def colour(self, state: GnState, measure: Measure) -> str | None:
        """A stable's bar in its colour, a horse's in its stable's (as its label shows)."""
        seat = measure.index if measure.group == "money" else state.owner(measure.index)
        found = load().colour(state.setup.stables[seat].colour)
        return found.hex if found else None

    def warm(self) -> None:
        """Compile the playout loop (``fast_jit.warm``) before the first estimate needs it."""
        if self.compiled:
            warm_loop()

    # --- the figures --------------------------------------------------------------------------

    def decided(self, state: GnState) -> tuple[float, ...] | None:
        return result(state) if state.phase == "over" else None

    def exact(self, state: GnState, deadline: float | None = None) -> tuple[float, ...] | None:
        """Every sequence of spins and speeds, each position once, in the race; None if a line
        lasts more than ``exact_steps`` steps, the whole more than ``exact_nodes`` steps, or
        ``deadline`` passes."""
        if state.phase != "race":
            return None
        try:
            return tuple(self._expected(state, {}, [self.exact_nodes], self.exact_steps, deadline))
        except _TooBig:
            return None

    def playouts(
        self, state: GnState, n: int, rng: random.Random, deadline: float | None = None
    ) -> list[tuple[float, ...]] | NDArray[np.float64]:
        """``n`` races to the end (fewer, at least one, once ``deadline`` has passed)."""
        if self._base is None or self._base[0] is not state:
            race = race_of(state, self.pacing)
            self._base = (state, race, Kernel(race) if self.compiled else None)
        _, base, kernel = self._base
        if kernel is not None:
            cap = self.max_steps
            return compiled_playouts(lambda s: kernel.play(s, max_steps=cap)[0], n, rng, deadline)
        rows: list[tuple[float, ...]] = []
        while len(rows) < n and not (rows and past(deadline)):
            rows.append(tuple(base.copy().play_out(rng, self.max_steps)))
        return rows

    # --- the model ----------------------------------------------------------------------------

    def choices(self, state: GnState) -> Sequence[Action]:
        """The next step's options, each equally likely (empty once the race is over)."""
        if state.phase == "over":
            return ()
        if state.phase == "blind_bets":  # a blind bet still to write: unknown, left out
            seat = next(s for s, b in enumerate(state.blind) if b is None)
            return (BlindBet(seat, None, None, 0),)
        if state.phase in ("going", "lanes") or engine.needs_spin(state):
            return engine.legal_actions(state, CHANCE)
        if state.phase == "market":
            return (Start(),)
        horse = engine.next_horse(state)
        if horse is None:
            return ()
        return self.moves(state, horse)

    def moves(self, state: GnState, horse: int) -> tuple[Move, ...]:
        """The moves ``horse`` picks among: straight on in its lane at each speed
        ``fast_state.speeds`` gives for its handicap, lengths to the finish and points left."""
        lengths = state.setup.track.finish - state.distance[horse]
        options = speeds(self.pacing, state.handicap[horse], lengths, state.speed_left(horse))
        forward, lane = state.handicap[horse], state.lane[horse]
        return tuple(Move(horse, forward + s, lane) for s in options)

    def play_out(self, state: GnState, rng: random.Random) -> GnState:
        """One game from ``state`` to the engine's end on the engine itself, every step drawn
        from ``choices`` (the reference the fast path is checked against, and the tests');
        ``PlayoutTooLong`` past ``max_steps`` steps."""
        for _ in range(self.max_steps):
            options = self.choices(state)
            if not options:
                return state
            state = engine.apply(state, options[int(rng.random() * len(options))])
        raise PlayoutTooLong("gn", self.max_steps)

    def engine_playout(self, state: GnState, rng: random.Random) -> GnState:
        """``play_out``: the plain reference of the fast path, which ``aids.bench.chances``
        times it against."""
        return self.play_out(state, rng)

    def _expected(
        self,
        state: GnState,
        memo: dict[tuple[object, ...], list[float]],
        budget: list[int],
        steps: int,
        deadline: float | None = None,
    ) -> list[float]:
        """The mean of ``result`` over every sequence of equally likely choices; raises
        ``_TooBig`` if one lasts more than ``steps`` steps, ``budget[0]`` steps run out or
        ``deadline`` passes."""
        options = self.choices(state)
        if not options:
            return list(result(state))
        key = _key(state)
        known = memo.get(key)
        if known is not None:
            return known
        budget[0] -= len(options)
        if budget[0] < 0 or steps <= 0 or past(deadline):
            raise _TooBig
        total: list[float] = []
        for action in options:
            value = self._expected(engine.apply(state, action), memo, budget, steps - 1, deadline)
            total = [a + b for a, b in zip(total, value, strict=True)] if total else list(value)
        memo[key] = mean = [v / len(options) for v in total]
        return mean


def result(state: GnState) -> tuple[float, ...]:
    """One game's figures: each horse 1st (0/1), each horse placed 1st–4th (0/1), each
    stable's money on the ledger."""
    win = [0.0] * state.horses
    placed = [0.0] * state.horses
    for place, horse in enumerate(state.placed):
        placed[horse] = 1.0
        if place == 0:
            win[horse] = 1.0
    money = [float(engine.cash(state, seat)) for seat in range(state.seats)]
    return (*win, *placed, *money)


def _key(state: GnState) -> tuple[object, ...]:
    """What changes during a race (the setup, odds and bets do not until the settlement)."""
    return (
        state.phase, state.handicap, state.used, state.penalty, state.distance, state.lane,
        state.status, state.placed, state.round, state.cap, state.group, state.moved,
        state.too_free_done, state.lose_turn, state.card_moved,
    )  # fmt: skip


class _TooBig(Exception):
    """Exact enumeration met more steps than it may: Monte Carlo instead."""
