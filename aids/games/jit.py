"""Compiled playout loops (Numba): the one switch every game's ``fast_jit`` module uses.

A game's chances run their playouts on a loop written for a compiler (NumPy arrays, no sets
or dicts), checked playout for playout against the game's ``FastRace`` fed the same uniform
numbers. ``compiled`` compiles such a function to machine code on its first call, cached on
disk, so a later process loads it in well under a second. Where Numba is not installed
(``AVAILABLE`` is False), the function stays plain Python and the chances use ``FastRace``.

Numba's own cache checks only the file of the function it caches: not the functions it calls
from other modules, nor the constants it took from them (the cards' km, read from
``seeds/``). After an update a loop would go on running its helpers' old code beside the new
reference, and give wrong figures without a word. So the cache lives in a folder named by a
fingerprint of everything the loops are compiled from (``SOURCES``: the modules of
``aids.games`` and the games' data), and any change there compiles them afresh (``cache_dir``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import random
import shutil
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from aids.games.chances import past
from aids.paths import SEEDS

F = TypeVar("F", bound=Callable[..., Any])
#: playouts per compiled call: the deadline is looked at between calls (a few milliseconds)
CHUNK = 64

#: whether the loops are compiled (Numba is a dependency; without it, plain Python)
AVAILABLE = importlib.util.find_spec("numba") is not None


#: what the compiled loops are made from: their modules, the modules they take functions
#: and constants from, and the games' data
SOURCES: tuple[Path, ...] = (Path(__file__).resolve().parent, SEEDS)
#: the cache's folders are named ``jit-<where>-<fingerprint>``: ``where`` the sources' place
#: (checkouts sharing a cache folder keep their own), the fingerprint what they hold
PREFIX = "jit-"


def fingerprint(sources: Sequence[Path]) -> str:
    """A hash of every file under ``sources`` (its path and its bytes; caches left out)."""
    digest = hashlib.sha256()
    for root in sources:
        files = (p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for path in sorted(files):
            digest.update(f"{path.relative_to(root)}\0{path.stat().st_size}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


@cache
def cache_dir() -> Path:
    """The compiled loops' cache for the sources as they are now, in ``aids/games/__pycache__``
    (or under ``NUMBA_CACHE_DIR`` where that is set, or the user's cache folder where the
    checkout is read-only). The folders of these sources' older fingerprints are removed:
    their code is not what the sources say any more."""
    where = hashlib.sha256("\0".join(map(str, SOURCES)).encode()).hexdigest()[:8]
    name = f"{PREFIX}{where}-{fingerprint(SOURCES)}"
    roots = [Path(os.environ["NUMBA_CACHE_DIR"])] if os.environ.get("NUMBA_CACHE_DIR") else []
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    roots += [SOURCES[0] / "__pycache__", home / "aids"]
    for root in roots:
        try:
            (root / name).mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(root / name, os.W_OK):
            for old in root.glob(f"{PREFIX}{where}-*"):
                if old.name != name:
                    shutil.rmtree(old, ignore_errors=True)
            return root / name
    return roots[-1] / name  # nowhere writable: Numba keeps the loops in memory alone


def compiled(fn: F) -> F:
    """``fn`` compiled on its first call (``nogil``, cached in ``cache_dir``), or ``fn``
    itself without Numba."""
    if not AVAILABLE:  # pragma: no cover - the project installs numba
        return fn
    from numba import config, njit

    config.CACHE_DIR = str(cache_dir())  # type: ignore[attr-defined]  # read just below
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
