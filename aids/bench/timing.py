"""Timing a piece of work the way every benchmark here does: the fastest of several runs, the
one least disturbed by the rest of a shared machine's load."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


def best_of(fn: Callable[[], Any], repeat: int) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds (a collection before each).

    >>> best_of(lambda: sum(range(10)), 3) >= 0.0
    True
    """
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best
