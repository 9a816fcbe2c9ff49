"""Wrong keys, limited per client: a flood of wrong links costs whoever sends it, nobody else.

Keys are 192 random bits, so guessing one is hopeless and the limit does not keep any key
secret; it only keeps a flood of wrong links from costing the store a query each. So the limit
is per *client* (the address a page was opened from; the ``aids`` command is one client), not
per table, and it is consulted only after a key has been looked at:

- the right key is always taken, however many wrong keys anyone (the same client included)
  sent: a referee is never locked out by a stranger, nor by a phone on the same Wi-Fi;
- a key the table once had (rotated or revoked) is answered "this link was replaced" and
  spends nothing: the referee's own old tabs and the players' old links cost nothing;
- only a key the table never had spends one of the client's attempts: a burst of ``BURST``,
  then one more every ``REFILL_SECONDS``. A client past its budget is told how long to wait,
  and its keys are checked against the keys this process last read (at most once a second
  per table from the store): the flooder's requests stop reaching the store.

A token bucket per client, kept as the time its bucket is next full (GCRA: one float per
client). Thread-safe (Streamlit serves sessions from threads); lives in this process.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from aids.core.errors import Forbidden

BURST = 10  # wrong keys in a row before a client waits: typos and an old bookmark fit in it
REFILL_SECONDS = 3.0  # then one wrong key per this many seconds
SWEEP_AT = 4096  # clients remembered before the ones whose bucket is full again are dropped
LOCAL = "local"  # the client of the ``aids`` command and of pages opened on this machine


class KeyAttempts:
    """The budget of wrong keys of every client that sent one.

    >>> clock = [0.0]
    >>> attempts = KeyAttempts(burst=2, refill_seconds=5.0, clock=lambda: clock[0])
    >>> attempts.take("10.0.0.9"); attempts.take("10.0.0.9")  # two wrong keys: burst spent
    >>> attempts.wait("10.0.0.9")
    5.0
    >>> try:
    ...     attempts.take("10.0.0.9")
    ... except Forbidden as err:
    ...     print(err.code, err.params)
    table/key_attempts {'seconds': 5}
    >>> attempts.take("10.0.0.7")  # another client has its own budget
    >>> clock[0] = 5.0
    >>> attempts.take("10.0.0.9")  # one token came back
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
        self._full_at: dict[str, float] = {}  # client → when its bucket is full again

    def now(self) -> float:
        """This limiter's clock (monotonic seconds; a test's fake clock)."""
        return self._clock()

    def wait(self, client: str) -> float:
        """Seconds before ``client`` may send another wrong key (0: it may now)."""
        with self._lock:
            return self._wait(client, self._clock())

    def over(self, client: str) -> bool:
        """Whether ``client`` has spent its budget (its keys are then checked from memory)."""
        return self.wait(client) > 0

    def take(self, client: str) -> None:
        """Spend one of ``client``'s wrong keys.

        Raises:
            Forbidden: ``table/key_attempts`` (``seconds``: the wait for the next attempt)
                when the budget is spent; nothing is spent then.
        """
        with self._lock:
            now = self._clock()
            wait = self._wait(client, now)
            if wait <= 0:
                if client not in self._full_at and len(self._full_at) >= SWEEP_AT:
                    self._sweep(now)
                self._full_at[client] = max(self._full_at.get(client, now), now)
                self._full_at[client] += self.refill_seconds
                return
        raise Forbidden("table/key_attempts", seconds=max(1, math.ceil(round(wait, 3))))

    def _wait(self, client: str, now: float) -> float:
        full_at = max(self._full_at.get(client, now), now) + self.refill_seconds
        return max(0.0, full_at - now - self.burst * self.refill_seconds)

    def _sweep(self, now: float) -> None:
        for client in [c for c, full_at in self._full_at.items() if full_at <= now]:
            del self._full_at[client]
