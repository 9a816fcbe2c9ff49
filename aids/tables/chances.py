"""Live chances for the tables: computed after a write, never in its way, cached per log
position.

A page asks ``ChanceService.latest(public_id)``; it answers at once with the estimate for the
table's newest position if it has one, else with the last one it has (marked stale) and
starts the computation in a worker. Writes never wait for it: the append has long returned
when a page next asks. The figures come from what every player may see (the viewer's history
of states), so no page learns anything hidden from them, and everyone sees the same figure.
The worker is a separate process by default, so a computation uses the second core and not
the server's (Python threads share one).

One table can never hold up the others for long: an estimate ends within its budget (the
playouts and the exact enumeration check it as they go, and every playout is capped in
steps), and the worker ends any job still running ``job_limit(budget)`` seconds after it
began, with its process (``aids/tables/worker.py``; the failure is logged and the position
shows no figures). The queue is fair: a table waits in it with one position at most — a
newer one drops the older if it has not begun — so each table waiting is served before a busy
table's next position.

Each estimate is seeded with its log position: anyone can recompute a figure with
``aids.games.chances.estimate(model, state, seed=seq)``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any

from aids.games.base import VIEWER, AnyGame
from aids.games.chances import Estimate, estimate
from aids.tables.service import TableService
from aids.tables.worker import Worker

log = logging.getLogger(__name__)
PLAYOUTS = 10_000  # about ±1 % at 95 % for a probability near one half
BUDGET_SECONDS = 3.0  # a busy machine stops sooner, with a wider stated error
KEEP = 512  # positions kept (a few per table: the newest is what pages ask for)


def job_limit(budget: float) -> float:
    """How long the worker lets one estimate run before it ends it: its budget, the
    playout in hand and the figures' arithmetic take far less than this."""
    return 2 * budget + 10.0


@dataclass(frozen=True, slots=True)
class Chances:
    """What a page shows: the estimate (None until the first is ready), whether it is for an
    earlier position than the table's newest (``stale``: a new one is being computed), and
    the position it is for."""

    estimate: Estimate | None
    stale: bool
    seq: int


def compute(
    game: AnyGame, history: Sequence[Any], seq: int, playouts: int, budget: float
) -> Estimate | None:
    """One table's chances (run in the worker): the game's model over the viewer's history."""
    model = game.chances(history)
    if model is None:
        return None
    return estimate(model, history[-1], playouts=playouts, seed=seq, budget=budget)


class ChanceService:
    """The chances of every table of a ``TableService``, computed one at a time by a worker."""

    def __init__(
        self,
        tables: TableService,
        *,
        executor: Executor | None = None,
        playouts: int = PLAYOUTS,
        budget: float = BUDGET_SECONDS,
    ) -> None:
        self.tables = tables
        self.playouts, self.budget = playouts, budget
        self._executor = executor
        self._lock = threading.RLock()  # a finished future's callback may run in submit()
        self._stored = threading.Condition(self._lock)  # told when a position's figures are in
        self._done: OrderedDict[tuple[str, int], Estimate | None] = OrderedDict()
        self._running: dict[tuple[str, int], Future[Estimate | None]] = {}
        self._last: dict[str, tuple[int, Estimate | None]] = {}

    def _pool(self) -> Executor:
        return self._executor or _worker(job_limit(self.budget))

    def supported(self, kind: str) -> bool:
        return self.tables.game(kind).chances(()) is not None

    def latest(self, public_id: str) -> Chances:
        """The chances for the table's newest position, or the last ones known while they are
        computed."""
        snapshot = self.tables.snapshot(public_id, VIEWER)
        key = (public_id, snapshot.seq)
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return Chances(self._done[key], False, snapshot.seq)
            if key not in self._running:
                for (table, seq), older in list(self._running.items()):
                    if table == public_id and seq < snapshot.seq:
                        older.cancel()  # if not begun: no page wants that position now
                game = self.tables.game(snapshot.info.kind)  # pickled by reference to its class
                future = self._pool().submit(
                    compute, game, snapshot.history, snapshot.seq, self.playouts, self.budget
                )
                self._running[key] = future
                future.add_done_callback(self._finished(key))
            seq, last = self._last.get(public_id, (-1, None))
        return Chances(last, True, seq)

    def _finished(self, key: tuple[str, int]) -> Callable[[Future[Estimate | None]], None]:
        def store(future: Future[Estimate | None]) -> None:
            if future.cancelled():
                with self._lock:
                    self._running.pop(key, None)
                return
            try:
                result = future.result()
            except Exception:  # a failed estimate shows as none: it never breaks a page
                log.exception("chances for %s at %s failed", *key)
                result = None
            with self._lock:
                self._running.pop(key, None)
                self._done[key] = result
                while len(self._done) > KEEP:
                    self._done.popitem(last=False)
                seq, _ = self._last.get(key[0], (-1, None))
                if key[1] >= seq:
                    self._last[key[0]] = (key[1], result)
                self._stored.notify_all()

        return store

    def ready(self, public_id: str, seq: int) -> bool:
        """Whether the figures of the table at ``seq`` are computed (or failed): a cheap
        question for a page waiting to redraw, which starts nothing."""
        with self._lock:
            return (public_id, seq) in self._done

    def wait(self, public_id: str, timeout: float = 60.0) -> Chances:
        """The newest position's chances, waiting for them (the CLI, tests)."""
        first = self.latest(public_id)
        if not first.stale:
            return first
        key = (public_id, self.tables.snapshot(public_id).seq)
        until = time.monotonic() + timeout
        with self._stored:  # until its figures are stored (a failed estimate as none)
            while key not in self._done and (left := until - time.monotonic()) > 0:
                self._stored.wait(left)
        return self.latest(public_id)


_shared: list[Worker] = []
_shared_lock = threading.Lock()


def _worker(limit: float) -> Worker:
    """The one worker process of this server (every table's chances queue for it): started
    with ``spawn``, a clean interpreter, as forking a threaded server is unsafe; it ends a job
    that runs past ``limit`` seconds (the longest any service of this process asks for)."""
    with _shared_lock:
        if not _shared:
            _shared.append(Worker(limit))
        _shared[0].limit = max(_shared[0].limit, limit)
        return _shared[0]
