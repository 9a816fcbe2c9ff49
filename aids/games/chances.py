"""Live chances: the probability of each outcome that matters, for the position on the table.

A game's ``ChanceModel`` says what it measures (one ``Measure`` per figure: a horse finishing,
a player winning, a player's expected money) and how to play one game out from what everyone
may see: it samples what nobody at the table can see (unknown hands and draw piles, from the
cards not yet seen; chance as the rulebook's distribution) and the players' future choices
(uniformly random legal choices unless the model names a better one), and returns one value
per measure. ``estimate`` averages many playouts and says how sure it is: the number of
playouts and the half-width of the 95 % interval of each figure. A model may also compute a
position exactly where that is cheap; ``estimate`` then returns the exact figures.

Every estimate ends: a time budget is a deadline that the models' exact enumeration and
playouts check as they go (between playouts, not only between batches), and every playout is
capped in steps (a model's ``max_steps``): one that runs past its cap is a bug, raised as
``PlayoutTooLong`` for the caller to log, never an endless loop.

Pure: no Streamlit, no storage. The table service caches an estimate per log position and
computes it after a write, never in its way (``aids/tables/chances.py``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
EXACT_SHARE = 0.5  # of a budget, what exact enumeration may spend before the playouts
MIN_PLAYOUTS = 400  # before a precision reached lets the playouts stop


class PlayoutTooLong(RuntimeError):
    """A playout ran past its model's step cap: a bug in the model or the engine (a position
    that never ends), never the table's doing. Raised, not looped on, so the caller logs it
    and the worker moves on to the next table."""

    def __init__(self, kind: str, steps: int) -> None:
        super().__init__(f"{kind}: a playout did not end within {steps} steps")
        self.kind, self.steps = kind, steps


def past(deadline: float | None) -> bool:
    """Whether ``deadline`` (a ``time.perf_counter()`` reading; None: none) has passed."""
    return deadline is not None and time.perf_counter() >= deadline


@dataclass(frozen=True, slots=True)
class Measure:
    """One figure: its group (``horse``, ``player``…), whose it is (a row or seat index) and
    how it reads: ``probability`` 0–1; ``expected``, a mean in the game's own unit (points,
    money; more is better); ``rank``, an expected place (1 is first)."""

    group: str
    index: int
    kind: str = "probability"


@dataclass(frozen=True, slots=True)
class Estimate:
    """The figures for one position, in the order of the model's measures.

    ``exact``: computed exactly (``playouts`` is 0 and every error 0). Otherwise ``errors``
    are the half-widths of 95 % intervals (normal approximation) from ``playouts`` games.
    """

    measures: tuple[Measure, ...]
    values: tuple[float, ...]
    errors: tuple[float, ...]
    playouts: int
    exact: bool
    seconds: float
    model: str  # the message key naming the model of the players' choices

    def value(self, group: str, index: int) -> float:
        return self.values[self.measures.index(Measure(group, index, self._kind(group)))]

    def error(self, group: str, index: int) -> float:
        return self.errors[self.measures.index(Measure(group, index, self._kind(group)))]

    def _kind(self, group: str) -> str:
        return next(m.kind for m in self.measures if m.group == group)

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON values (kept in the store for every tracker)."""
        return {
            "measures": [[m.group, m.index, m.kind] for m in self.measures],
            "values": list(self.values),
            "errors": list(self.errors),
            "playouts": self.playouts,
            "exact": self.exact,
            "seconds": self.seconds,
            "model": self.model,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Estimate:
        """The figures ``to_dict`` wrote.

        >>> e = Estimate((Measure("horse", 0),), (0.5,), (0.01,), 100, False, 0.2, "m")
        >>> Estimate.from_dict(e.to_dict()) == e
        True
        """
        return cls(
            tuple(Measure(str(g), int(i), str(k)) for g, i, k in raw["measures"]),
            tuple(float(v) for v in raw["values"]),
            tuple(float(e) for e in raw["errors"]),
            int(raw["playouts"]),
            bool(raw["exact"]),
            float(raw["seconds"]),
            str(raw["model"]),
        )

    @property
    def worst_error(self) -> float:
        """The widest 95 % half-width among the probabilities (what the page states)."""
        return max(
            (e for m, e in zip(self.measures, self.errors, strict=True) if m.kind == "probability"),
            default=0.0,
        )


class ChanceModel(Protocol):
    """What a game provides for live chances (see the module's docstring)."""

    #: the message key of the one line that names the model of the players' choices
    model: str
    #: the groups of figures (``Measure.group``) in the order a page shows them
    groups: tuple[str, ...]

    def measures(self, state: Any) -> tuple[Measure, ...]:
        """What is measured for this position, in a fixed order."""
        ...

    def decided(self, state: Any) -> tuple[float, ...] | None:
        """The figures when nothing is left to chance (the race is over), else None."""
        ...

    def exact(self, state: Any, deadline: float | None = None) -> tuple[float, ...] | None:
        """The figures computed exactly, when that is cheap; None otherwise, and None as soon
        as ``deadline`` (a ``time.perf_counter()`` reading) has passed."""
        ...

    def playouts(
        self, state: Any, n: int, rng: random.Random, deadline: float | None = None
    ) -> Sequence[Sequence[float]] | NDArray[np.float64]:
        """``n`` games played out from ``state`` (a viewer's view): one row of values each
        (a compiled loop returns them as one array); fewer, but at least one, once
        ``deadline`` has passed (checked after each game). A game past the model's step cap
        raises ``PlayoutTooLong``."""
        ...

    def label(self, state: Any, measure: Measure, lang: str) -> str:
        """Whose figure ``measure`` is, in ``lang``: a horse's or a player's name."""
        ...

    def colour(self, state: Any, measure: Measure) -> str | None:
        """The own colour (``#rrggbb``, as the game's seeds give it) of the piece whose
        figure ``measure`` is — its bar is drawn in it; None: it has none (a team)."""
        ...

    def title(self, group: str, lang: str) -> str:
        """What a group of figures is, in ``lang`` (``Wins``, ``Finishes``…)."""
        ...


def warm(games: Iterable[Any]) -> None:
    """Ready each game's playouts (``game.chances(())``'s ``warm``, where a model has one:
    a compiled loop is compiled, or loaded from its disk cache), so that no estimate's
    budget pays for it; a worker process calls this before its first job."""
    for game in games:
        model = game.chances(())
        ready = getattr(model, "warm", None)
        if callable(ready):
            ready()


def estimate(
    model: ChanceModel,
    state: Any,
    *,
    playouts: int = 10_000,
    seed: int = 0,
    budget: float | None = None,
    batch: int = 2_000,
    exact: bool = True,
    precision: float | None = None,
) -> Estimate:
    """The chances for ``state`` (what every player may see): decided, exact, or the mean of
    ``playouts`` random games — fewer (at least one) if ``budget`` seconds run out first: the
    exact enumeration may spend ``EXACT_SHARE`` of it, and the playouts check the deadline
    after each game (in batches sized to take about a tenth of the budget, at most
    ``batch``). So an estimate ends within its budget and one playout. The same seed and the
    same number of playouts give the same figures. ``exact=False``: playouts only, even
    where the figures are known (to compare the two). ``precision``: stop sooner, once
    every probability's 95 % half-width is within it (checked between batches, after at
    least ``MIN_PLAYOUTS``): a late position's figures need far fewer games."""
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts}")
    started = time.perf_counter()
    deadline = None if budget is None else started + budget
    measures = model.measures(state)
    known = model.decided(state) if exact else None
    if known is None and exact:
        known = model.exact(state, None if budget is None else started + budget * EXACT_SHARE)
    if known is not None:
        return _known(model, measures, known, time.perf_counter() - started)
    rng = random.Random(seed)
    sums = np.zeros(len(measures))
    squares = np.zeros(len(measures))
    done, size = 0, 1  # a first game measures the pace
    while done < playouts:
        begun, before = time.perf_counter(), done
        # the first game is played whatever the clock says: a budget spent on the exact
        # count still gives figures (one game's worth, with their error)
        limit = deadline if done else None
        rows = np.asarray(model.playouts(state, min(size, playouts - done), rng, limit), float)
        if rows.size:  # summed as arrays (a compiled loop's 50,000 rows a second stay cheap),
            # row after row as a running sum does: the same figures however batches split
            sums = np.cumsum(np.vstack((sums, rows)), axis=0)[-1]
            squares = np.cumsum(np.vstack((squares, rows * rows)), axis=0)[-1]
            done += rows.shape[0]
        now = time.perf_counter()
        if (deadline is not None and now >= deadline) or done == before:
            break
        enough = precision is not None and done >= MIN_PLAYOUTS
        if enough and _widest(measures, sums, squares, done) <= (precision or 0.0):
            break
        pace = max(now - begun, 1e-6) / (done - before)  # seconds per playout
        size = max(1, min(batch, int((budget or 1.0) / 10 / pace)))
    if not done:
        raise RuntimeError(f"{model.model}: the playouts gave no game")
    means = tuple(float(s) / done for s in sums)
    errors = tuple(
        Z95 * math.sqrt(max(0.0, float(q) / done - m * m) / max(1, done - 1)) if done > 1 else 1.0
        for q, m in zip(squares, means, strict=True)
    )
    spent = time.perf_counter() - started
    return Estimate(measures, means, errors, done, False, spent, model.model)


def _widest(
    measures: Sequence[Measure],
    sums: NDArray[np.float64],
    squares: NDArray[np.float64],
    done: int,
) -> float:
    """The widest 95 % half-width among the probabilities after ``done`` games."""
    widest = 0.0
    for measure, total, square in zip(measures, sums.tolist(), squares.tolist(), strict=True):
        if measure.kind == "probability":
            mean = total / done
            spread = max(0.0, square / done - mean * mean) / max(1, done - 1)
            widest = max(widest, Z95 * math.sqrt(spread))
    return widest


def decided(model: ChanceModel, state: Any) -> Estimate | None:
    """The figures of a position whose outcome is settled (``model.decided``): known at
    once, without playouts or enumeration — a page shows them without queueing."""
    started = time.perf_counter()
    known = model.decided(state)
    if known is None:
        return None
    return _known(model, model.measures(state), known, time.perf_counter() - started)


def _known(
    model: ChanceModel, measures: tuple[Measure, ...], values: Sequence[float], spent: float
) -> Estimate:
    zeros = tuple(0.0 for _ in measures)
    return Estimate(measures, tuple(values), zeros, 0, True, spent, model.model)


def steady(new: Estimate, shown: Estimate | None) -> Estimate:
    """``new`` as a page should show it after ``shown`` (the figures of the table's previous
    position): a sampled figure that moved by no more than its error keeps the value shown,
    so a bar moves only when the position changed it, not with the sampling noise. A figure
    held stays within its error of ``new``'s own mean; exact figures are never held.

    >>> m = (Measure("horse", 0), Measure("horse", 1))
    >>> old = Estimate(m, (0.40, 0.60), (0.01, 0.01), 9000, False, 1.0, "x")
    >>> new = Estimate(m, (0.405, 0.55), (0.01, 0.01), 9000, False, 1.0, "x")
    >>> steady(new, old).values
    (0.4, 0.55)
    """
    if shown is None or new.exact or shown.measures != new.measures:
        return new
    values = tuple(
        old if abs(value - old) <= error else value
        for value, old, error in zip(new.values, shown.values, new.errors, strict=True)
    )
    return replace(new, values=values)
