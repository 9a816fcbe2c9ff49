"""Compiled playout loops (Numba): the one switch every game's ``fast_jit`` module uses.

A game's chances run their playouts on a loop written for a compiler (NumPy arrays, no sets
or dicts), checked playout for playout against the game's ``FastRace`` fed the same uniform
numbers. ``compiled`` compiles such a function to machine code on its first call, cached on
disk beside its module (``__pycache__``), so a later process loads it in well under a second.
Where Numba is not installed (``AVAILABLE`` is False), the function stays plain Python and the
chances use ``FastRace`` instead.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from aids.games.chances import past

F = TypeVar("F", bound=Callable[..., Any])
#: playouts per compiled call: the deadline is looked at between calls (a few milliseconds)
CHUNK = 64

#: whether the loops are compiled (Numba is a dependency; without it, plain Python)
AVAILABLE = importlib.util.find_spec("numba") is not None


def compiled(fn: F) -> F:
    """``fn`` compiled on its first call (``nogil``, cached on disk), or ``fn`` itself without
    Numba."""
    if not AVAILABLE:  # pragma: no cover - the project installs numba
        return fn
    from numba import njit

    return cast(F, njit(cache=True, nogil=True)(fn))


@compiled
def uniform(draws: NDArray[np.float64], at: int) -> float:
    """A compiled playout's ``at``-th uniform number: from ``draws`` while it lasts (the tests
    feed a loop and its reference the same numbers), else the compiled generator's."""
    if at < draws.shape[0]:
        return float(draws[at])
    return float(np.random.random())


@compiled
def seed(value: int) -> None:
    """Seed the compiled generator (0 ≤ value < 2³²: one playout's own seed)."""
    np.random.seed(value)


def playouts(
    play: Callable[[NDArray[np.int64]], NDArray[np.float64]],
    n: int,
    rng: random.Random,
    deadline: float | None = None,
) -> NDArray[np.float64]:
    """``n`` playouts on a compiled loop as a model's ``playouts`` gives them: ``play`` runs
    one per seed and returns their rows; each playout gets its own seed from ``rng`` (so it
    depends on that seed alone, however the calls split them), ``CHUNK`` to a call, fewer
    (at least one call) once ``deadline`` has passed."""
    chunks, done = [], 0
    while done < n and not (done and past(deadline)):
        seeds = [rng.getrandbits(32) for _ in range(min(n - done, CHUNK))]
        chunks.append(play(np.array(seeds, dtype=np.int64)))
        done += len(chunks[-1])
    return np.vstack(chunks)
