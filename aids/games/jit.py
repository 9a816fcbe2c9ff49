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

Numba's cache files are pickles, loaded and run as the tracker, so a cache folder is used
only where no other user can write or swap it (``aids.games.jit_folder``: ours, 0700, no
link, nothing above it writable by others). A place that fails is passed over for the next
(the checkout's ``__pycache__``, then the user's cache folder); where none passes, the loops
are compiled in memory in each process (no disk cache: each worker compiles them again at
its start, tens of seconds, but nothing is read from a folder we cannot trust). Either way
one warning is logged, by the first process (the chances workers it starts inherit
``WARNED`` and stay quiet). Numba's own fallback caches (the module's ``__pycache__``,
where our folder cannot take a file) are never used either (``compiled``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import random
import shutil
import stat
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from aids.games.chances import past
from aids.games.jit_folder import UnsafeFolder, private_folder
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
#: set once a process has warned of a refused cache folder: the workers it starts do not repeat it
WARNED = "AIDS_JIT_CACHE_WARNED"
log = logging.getLogger(__name__)


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
def cache_dir() -> Path | None:
    """The compiled loops' cache for the sources as they are now: under ``NUMBA_CACHE_DIR``
    where that is set, else in ``aids/games/__pycache__``, else in the user's cache folder
    (a read-only checkout); the first of these that ``private_folder`` trusts, or None
    (compiled in memory) where none is. A place refused is named in one warning. The
    folders of these sources' older fingerprints there are removed: their code is not what
    the sources say any more."""
    where = hashlib.sha256("\0".join(map(str, SOURCES)).encode()).hexdigest()[:8]
    name = f"{PREFIX}{where}-{fingerprint(SOURCES)}"
    roots = [Path(os.environ["NUMBA_CACHE_DIR"])] if os.environ.get("NUMBA_CACHE_DIR") else []
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    roots += [SOURCES[0] / "__pycache__", home / "aids"]
    notes: list[str] = []
    for root in roots:
        try:
            folder = private_folder(root, name, notes)
        except UnsafeFolder as refused:
            notes.append(f"{refused.message('en')} Not used.")
            continue
        except OSError:
            continue  # cannot be made there (a read-only checkout): the next place
        _remove_older(folder)
        _warn(notes, f"The loops are cached in {folder}.")
        return folder
    _warn(notes, "The loops are compiled in memory in each process (no disk cache).")
    return None


def _remove_older(folder: Path) -> None:
    """Remove the folders of older fingerprints of the same sources beside ``folder`` (only
    ours, and never through a link)."""
    for old in folder.parent.glob(folder.name.rsplit("-", 1)[0] + "-*"):
        try:
            info = os.lstat(old)
        except OSError:
            continue  # removed meanwhile (another worker starting)
        if old != folder and stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid():
            shutil.rmtree(old, ignore_errors=True)


def _warn(notes: list[str], outcome: str) -> None:
    """One warning for the places refused, once for a process and the processes it starts
    (the chances workers inherit ``WARNED``, and make the same choice)."""
    if notes and not os.environ.get(WARNED):
        os.environ[WARNED] = "1"
        log.warning("The compiled playout loops' cache: %s %s", " ".join(notes), outcome)


def compiled(fn: F) -> F:
    """``fn`` compiled on its first call (``nogil``), cached in ``cache_dir``, or in memory
    alone where that is None; ``fn`` itself without Numba."""
    if not AVAILABLE:  # pragma: no cover - the project installs numba
        return fn
    from numba import config, njit
    from numba.core.caching import NullCache

    folder = cache_dir()
    if folder is None:
        return cast(F, njit(nogil=True)(fn))
    config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]  # read just below
    loop: Any = njit(cache=True, nogil=True)(fn)
    # Where ``folder`` cannot take a file, Numba picks a cache of its own (the module's
    # ``__pycache__``, the user's): unchecked, and blind to the helpers' changes. Not used.
    if not Path(loop._cache.cache_path).is_relative_to(folder):
        loop._cache = NullCache()
    return cast(F, loop)


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
