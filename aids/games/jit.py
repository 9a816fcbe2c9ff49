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
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

F = TypeVar("F", bound=Callable[..., Any])

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
