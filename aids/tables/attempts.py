"""Failed key attempts, limited per table, so a key cannot be guessed by trying many.

A token bucket per table (kept as the time its bucket is next full, GCRA-style: one float per
table): a burst of ``BURST`` wrong keys, then one more every ``REFILL_SECONDS``. While a
table's budget is spent, every attempt with a key is refused *without checking the key*, so
guessing cannot go on, and even the right key waits for the next token. The numbers keep that
wait short (seconds, not minutes): an attacker can hold a referee out only by guessing without
pause, and the lock lifts ``REFILL_SECONDS`` after they stop. A key is 192 random bits, so the
limit is not what keeps it secret; it keeps wrong links from hammering the store and the log.

The budget lives in this process (a second tracker or the ``aids`` command has its own), is
per table (an attack on one table never locks another) and is thread-safe (Streamlit serves
sessions from threads). A reader without a key never reaches it: the viewer stays fast.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from aids.core.errors import Forbidden

BURST = 10  # wrong keys in a row before the lock: typos and an old link on a phone fit in it
REFILL_SECONDS = 3.0  # then one attempt per this many seconds: the longest a right key waits
SWEEP_AT = 256  # tables remembered before the ones whose bucket is full again are dropped


class KeyAttempts:
    """The budget of key attempts of every table this process has seen a wrong key for.

    >>> clock = [0.0]
    >>> attempts = KeyAttempts(burst=2, refill_seconds=5.0, clock=lambda: clock[0])
    >>> attempts.take(1); attempts.take(1)  # two wrong keys: the burst is spent
    >>> try:
    ...     attempts.take(1)
    ... except Forbidden as err:
    ...     print(err.code, err.params)
    table/key_attempts {'seconds': 5}
    >>> attempts.take(2)  # another table has its own budget
    >>> clock[0] = 5.0
    >>> attempts.take(1)  # one token came back
    """

    def __init__(
        self,
        *,
        burst: int = BURST,
        refill_seconds: float = REFILL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.refill_seconds = refill_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._full_at: dict[int, float] = {}  # table id → when its bucket is full again

    def take(self, table: int) -> None:
        """Spend one attempt of ``table``'s budget, before its key is looked at.

        Raises:
            Forbidden: ``table/key_attempts`` (``seconds``: the wait for the next attempt)
                when the budget is spent; nothing is spent then.
        """
        period, window = self.refill_seconds, self.burst * self.refill_seconds
        with self._lock:
            now = self._clock()
            full_at = max(self._full_at.get(table, now), now) + period
            wait = full_at - now - window
            if wait <= 0:
                if table not in self._full_at and len(self._full_at) >= SWEEP_AT:
                    self._sweep(now)
                self._full_at[table] = full_at
                return
        raise Forbidden("table/key_attempts", seconds=max(1, math.ceil(round(wait, 3))))

    def give_back(self, table: int) -> None:
        """Return the attempt a right key took: a live key never spends the budget."""
        with self._lock:
            now = self._clock()
            full_at = self._full_at.get(table)
            if full_at is None:
                return
            if full_at - self.refill_seconds <= now:
                del self._full_at[table]  # full again: nothing to remember
            else:
                self._full_at[table] = full_at - self.refill_seconds

    def _sweep(self, now: float) -> None:
        for table in [t for t, full_at in self._full_at.items() if full_at <= now]:
            del self._full_at[table]
