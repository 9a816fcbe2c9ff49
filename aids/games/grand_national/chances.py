"""Grand National's live chances: each horse winning and placing (1st–4th), each stable's money.

Every playout runs the engine itself (``engine.apply``; the choices from ``engine.legal_actions``)
from the position every player may see (the viewer's state) to the engine's own end: four
horses placed, or none left running. The model, named in one line on the page
(``gn.chances.model``):

- Chance is the spinner's: the going, each lane's inside stable and, in cap order, each cap's
  first stable are uniform over the engine's chance actions (the six goings; the colours in
  play, as if a spin on a colour out of play were spun again).
- Each horse, when due, moves a uniformly random 1–8 speed points (never more than it has left:
  the engine's legal moves) straight on in its lane; it is never boxed, blocked or pulled up by
  choice. The engine still pulls up a horse that is lapped or out of speed points, and applies
  running too free and the turn order itself.
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
Measured from the start of a 4-stable race (the tests' field plus a fourth stable: 16 horses,
handicaps 1–6, Good; 2,000 playouts a model, seed 5): uniform over every legal lane ended 15 %
of races with fewer than four placed and pulled up 9.2 horses a race (out of speed points),
and moved horses' chances of placing by up to 22 points; adding a uniformly random pull-up to
each turn ended 53 % of races short. Straight on: 0 % short, 3.0 pulled up a race. Pacing
instead (only speeds that still let the horse reach the finish) moved no horse's chance of
winning or placing by more than 2 points, within the sampling error: the plain uniform speed
stays.

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

from aids.core.i18n import t
from aids.games.base import CHANCE, REFEREE
from aids.games.chances import Measure, PlayoutTooLong, past
from aids.games.grand_national import engine
from aids.games.grand_national.describe import horse_label, stable_label
from aids.games.grand_national.model import Action, BlindBet, GnState, Move, Start

#: a playout's cap: every move burns at least one speed point, so a race ends far sooner
MAX_STEPS = 5_000


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

    def __init__(self, history: Sequence[GnState] = ()) -> None:
        # Nothing hidden matters but the sealed blind bets (left out), so the newest state
        # is all the model reads; the history is kept for the contract.
        self.history = tuple(history)
        self._straight: dict[tuple[int, ...], tuple[Move, ...]] = {}
        self._forwards: dict[tuple[int, ...], tuple[int, ...]] = {}

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
    ) -> list[tuple[float, ...]]:
        """``n`` races to the end (fewer, at least one, once ``deadline`` has passed)."""
        rows: list[tuple[float, ...]] = []
        while len(rows) < n and not (rows and past(deadline)):
            rows.append(result(self.play_out(state, rng)))
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
        return self.straight_moves(state, horse)

    def straight_moves(self, state: GnState, horse: int) -> tuple[Move, ...]:
        """The engine's legal moves of ``horse`` that keep its lane: one per speed, 1–8 and
        no more than it has left. The engine's list is asked once per handicap, speed left,
        lane and lane count (all it depends on), then kept."""
        key = (
            state.handicap[horse], state.speed_left(horse), state.lane[horse],
            state.setup.track.lanes,
        )  # fmt: skip
        moves = self._straight.get((horse, *key))
        if moves is None:
            forwards = self._forwards.get(key)
            if forwards is None:
                forwards = tuple(
                    a.forward
                    for a in engine.legal_actions(state, REFEREE)
                    if isinstance(a, Move) and a.horse == horse and a.lane == state.lane[horse]
                )
                self._forwards[key] = forwards
            moves = tuple(Move(horse, f, state.lane[horse]) for f in forwards)
            self._straight[(horse, *key)] = moves
        return moves

    def play_out(self, state: GnState, rng: random.Random) -> GnState:
        """One game from ``state`` to the engine's end, every step drawn from ``choices``;
        ``PlayoutTooLong`` past ``max_steps`` steps."""
        for _ in range(self.max_steps):
            options = self.choices(state)
            if not options:
                return state
            state = engine.apply(state, options[int(rng.random() * len(options))])
        raise PlayoutTooLong("gn", self.max_steps)

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
