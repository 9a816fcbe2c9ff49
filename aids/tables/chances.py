"""Live chances for the tables: computed after a write, never in its way, once per table
position for every tracker on the store.

A page asks ``ChanceService.latest(public_id)``; it answers at once with the estimate for the
table's newest position if it has one, else with the last one it has (marked stale) and
starts the computation in a worker. Writes never wait for it: the append has long returned
when a page next asks. The figures come from what every player may see (the viewer's history
of states), so no page learns anything hidden from them, and everyone sees the same figure.

Once per table: the figures are kept in the store (``Store.claim_figures``/``put_figures``),
so two trackers on one database compute each position once. The first tracker to need a
position claims it and computes it; the others read the figures from the store when they are
in (a page waiting asks every ``POLL_SECONDS`` at most, for all the pages of its tracker
together). A claim left unfinished past ``job_limit`` (its tracker stopped) is taken over.
A read-only store computes for its own tracker alone.

Every core: the workers are separate processes (Python threads share one core), one per core
left free beside the server (``worker.free_cores``), taking jobs in the order they came. One
table can never hold up the others for long: an estimate ends within its budget (the
playouts and the exact enumeration check it as they go, and every playout is capped in
steps), and a worker ends any job still running ``job_limit(budget)`` seconds after it began,
with its process (``aids/tables/worker.py``; the failure is logged and the position shows no
figures). The queue is fair: a table waits in it with one position at most — a newer one
drops the older if it has not begun — so each table waiting is served before a busy table's
next position.

Each estimate is seeded with its log position: anyone can recompute a figure with
``aids.games.chances.estimate(model, state, seed=seq)``.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from aids.core.errors import AidsError
from aids.games.base import VIEWER, AnyGame
from aids.games.chances import Estimate, decided, estimate, steady, warm
from aids.tables import keys
from aids.tables.service import TableService
from aids.tables.worker import JobFailed, JobTooLong, WorkerPool, free_cores

log = logging.getLogger(__name__)
PLAYOUTS = 10_000  # about ±1 % at 95 % for a probability near one half
BUDGET_SECONDS = 3.0  # a busy machine stops sooner, with a wider stated error
PRECISION = 0.01  # ±1 point at 95 %: playouts stop once every probability is this close
KEEP = 512  # positions kept in memory (a few per table: the newest is what pages ask for)
KEEP_STORED = 16  # positions kept in the store per table
POLL_SECONDS = 0.5  # how often figures another tracker computes are looked for


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
    return estimate(
        model, history[-1], playouts=playouts, seed=seq, budget=budget, precision=PRECISION
    )


class ChanceService:
    """The chances of every table of a ``TableService``, each position computed once for
    every tracker on the store, by a pool of worker processes."""

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
        self.name = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._executor = executor
        self._lock = threading.RLock()  # a finished future's callback may run in submit()
        self._stored = threading.Condition(self._lock)  # told when a position's figures are in
        self._done: OrderedDict[tuple[str, int], Estimate | None] = OrderedDict()
        self._running: dict[tuple[str, int], Future[Estimate | None]] = {}
        self._elsewhere: dict[tuple[str, int], float] = {}  # another tracker computes: asked at
        self._last: dict[str, tuple[int, Estimate | None]] = {}

    def _pool(self) -> Executor:
        games = tuple(self.tables.games.values())
        return self._executor or _workers(job_limit(self.budget), partial(warm, games))

    def supported(self, kind: str) -> bool:
        return self.tables.game(kind).chances(()) is not None

    def latest(self, public_id: str) -> Chances:
        """The chances for the table's newest position, or the last ones known while they are
        computed (here, or by another tracker on the same store)."""
        snapshot = self.tables.snapshot(public_id, VIEWER)
        key = (public_id, snapshot.seq)
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return Chances(self._done[key], False, snapshot.seq)
            busy = key in self._running or key in self._elsewhere
        if not busy and not self._look_up(key):
            self._start(key, snapshot)
        with self._lock:
            if key in self._done:
                return Chances(self._done[key], False, snapshot.seq)
            seq, last = self._last.get(public_id, (-1, None))
        return Chances(last, True, seq)

    def _look_up(self, key: tuple[str, int]) -> bool:
        """Read the store's figures of ``key`` (and the newest done before it); whether they
        are done. A position another tracker has claimed is remembered as computed there."""
        table_id = self.tables.table_id(key[0])
        this, done = self.tables.store.figures(table_id, key[1])
        if done is not None:
            self._keep((key[0], done.seq), _parse(done.payload))
        if this is not None and this.done:
            return True
        if this is not None and this.claimed_at >= _ago(job_limit(self.budget)):
            with self._lock:
                self._elsewhere[key] = time.monotonic()
        return False

    def _start(self, key: tuple[str, int], snapshot: Any) -> None:
        """Claim the position in the store and compute it, unless another tracker did."""
        store, table_id = self.tables.store, self.tables.table_id(key[0])
        at = keys.now()
        claimed = store.claim_figures(
            table_id, key[1], self.name, at, retake_before=_ago(job_limit(self.budget))
        )
        read_only = getattr(store, "read_only", False)  # computes for itself alone
        with self._lock:
            if not claimed and not read_only:
                self._elsewhere[key] = time.monotonic()
                return
            if key in self._running or key in self._done:
                return
            for (table, seq), older in list(self._running.items()):
                if table == key[0] and seq < key[1]:
                    older.cancel()  # if not begun: no page wants that position now
            game = self.tables.game(snapshot.info.kind)  # pickled by reference to its class
            model = game.chances(snapshot.history)
            known = None if model is None else decided(model, snapshot.history[-1])
            future: Future[Estimate | None] = Future()
            if known is not None:  # a settled race's figures: at once, never queued
                future.set_result(known)
            else:
                future = self._pool().submit(
                    compute, game, snapshot.history, snapshot.seq, self.playouts, self.budget
                )
            self._running[key] = future
        future.add_done_callback(self._finished(key, table_id, store_it=claimed))

    def _finished(
        self, key: tuple[str, int], table_id: int, *, store_it: bool
    ) -> Callable[[Future[Estimate | None]], None]:
        def store(future: Future[Estimate | None]) -> None:
            if future.cancelled():
                with self._lock:
                    self._running.pop(key, None)
                return  # its claim runs out and any tracker may take it again
            try:
                result = future.result()
            except (JobFailed, JobTooLong) as failed:  # the worker's words (and traceback) tell
                log.error("chances for %s at %s failed: %s", *key, failed)  # no server stack
                result = None
            except Exception:  # a failed estimate shows as none: it never breaks a page
                log.exception("chances for %s at %s failed", *key)
                result = None
            with self._lock:
                seq, shown = self._last.get(key[0], (-1, None))
            if result is not None and seq < key[1]:
                result = steady(result, shown)  # the noise of sampling does not move a bar
            if store_it:
                payload = None if result is None else json.dumps(result.to_dict())
                try:
                    self.tables.store.put_figures(table_id, key[1], payload, keep=KEEP_STORED)
                except AidsError:
                    log.exception("chances for %s at %s not stored", *key)
            with self._lock:
                self._running.pop(key, None)
            self._keep(key, result)

        return store

    def _keep(self, key: tuple[str, int], result: Estimate | None) -> None:
        with self._lock:
            self._elsewhere.pop(key, None)
            self._done[key] = result
            self._done.move_to_end(key)
            while len(self._done) > KEEP:
                self._done.popitem(last=False)
            seq, _ = self._last.get(key[0], (-1, None))
            if key[1] >= seq:
                self._last[key[0]] = (key[1], result)
            self._stored.notify_all()

    def ready(self, public_id: str, seq: int) -> bool:
        """Whether the figures of the table at ``seq`` are computed (or failed): a cheap
        question for a page waiting to redraw, which starts nothing. Figures another tracker
        computes are looked for in the store at most every ``POLL_SECONDS`` (for all the
        pages of this tracker together)."""
        key = (public_id, seq)
        with self._lock:
            if key in self._done:
                return True
            asked = self._elsewhere.get(key)
            if asked is None or time.monotonic() - asked < POLL_SECONDS:
                return False
            self._elsewhere[key] = time.monotonic()
        if self._look_up(key):
            return True
        with self._lock:  # the claim ran out: the next page to draw takes it over
            if time.monotonic() - self._elsewhere.get(key, 0.0) > job_limit(self.budget):
                self._elsewhere.pop(key, None)
        return False

    def wait(self, public_id: str, timeout: float = 60.0) -> Chances:
        """The newest position's chances, waiting for them (the CLI, tests)."""
        first = self.latest(public_id)
        if not first.stale:
            return first
        key = (public_id, self.tables.snapshot(public_id).seq)
        until = time.monotonic() + timeout
        while not self.ready(*key) and (left := until - time.monotonic()) > 0:
            with self._stored:  # until its figures are in (a failed estimate as none)
                self._stored.wait(min(left, POLL_SECONDS))
        return self.latest(public_id)


def _parse(payload: str | None) -> Estimate | None:
    return None if payload is None else Estimate.from_dict(json.loads(payload))


def _ago(seconds: float) -> str:
    """The store's time (``keys.now``'s format) ``seconds`` ago."""
    return keys.stamp(datetime.now(UTC) - timedelta(seconds=seconds))


_shared: list[WorkerPool] = []
_shared_lock = threading.Lock()


def _workers(limit: float, warm: Callable[[], None] | None = None) -> WorkerPool:
    """The worker processes of this server (every table's chances queue for them, in
    order), one per core left free (``free_cores``): started with ``spawn``, a clean
    interpreter, as forking a threaded server is unsafe; each ends a job that runs past
    ``limit`` seconds (the longest any service of this process asks for); each new process
    runs ``warm`` (the first service's) before its first job."""
    with _shared_lock:
        if not _shared:
            _shared.append(WorkerPool(free_cores(), limit, warm))
        _shared[0].limit = max(_shared[0].limit, limit)
        return _shared[0]
