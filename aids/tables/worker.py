"""Worker processes that run jobs one at a time each, each job within a time limit.

The live chances of every table on a server are computed here (``aids/tables/chances.py``),
so one job that never ends would stop them all: a job still running ``limit`` seconds after
it began is ended with its process (a fresh one is started for the next job) and its future
fails with ``JobTooLong``. A ``concurrent.futures.ProcessPoolExecutor`` cannot do that: a
running job there can be neither cancelled nor stopped.

The process is started with ``spawn`` (a clean interpreter: forking a threaded server is
unsafe) on the first job, and says it is ready before a job is handed over, so its start-up
is not counted against a job; a pool may give it a ``warm`` function to run first (compiling
the playout loops), which is start-up too. A job's error comes back as ``JobFailed`` with the
child's traceback (any exception, picklable or not); so does a process that ends before it
says it is ready (killed while it warms up, an interpreter that cannot start): ``JobFailed``
with its exit code, and the next job tries a fresh process.
"""

from __future__ import annotations

import logging
import os
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Executor, Future
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from queue import SimpleQueue
from typing import Any

log = logging.getLogger(__name__)
START_SECONDS = 120.0  # a fresh process's start-up, at most (imports on a busy machine)
READY = "ready"


class JobTooLong(TimeoutError):
    """A job ran past the worker's time limit and was ended with its process."""


class JobFailed(RuntimeError):
    """A job raised in the worker; the message is the worker's traceback."""


Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class Worker(Executor):
    """An executor of one process that ends any job running past ``limit`` seconds."""

    def __init__(
        self,
        limit: float,
        jobs: SimpleQueue[Job | None] | None = None,
        warm: Callable[[], None] | None = None,
    ) -> None:
        self.limit = limit
        self.warm = warm  # run in each new process before it says it is ready
        # a pool's workers share one queue: each takes the next job when it is free
        self._jobs: SimpleQueue[Job | None] = jobs if jobs is not None else SimpleQueue()
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._thread = threading.Thread(target=self._serve, name="aids-worker", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._jobs.put((future, fn, args, kwargs))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._jobs.put(None)
        if wait:
            self._thread.join()

    @property
    def pid(self) -> int | None:
        """The worker process's id while it runs (tests, benchmarks)."""
        return self._process.pid if self._process is not None else None

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            future, fn, args, kwargs = job
            if not future.set_running_or_notify_cancel():
                continue  # cancelled while it waited
            try:
                future.set_result(self._run(fn, args, kwargs))
            except BaseException as error:  # the future carries it to whoever waits
                future.set_exception(error)
        self._stop()

    def _run(self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        conn = self._child()
        try:
            conn.send((fn, args, kwargs))
            done = conn.poll(self.limit)
            ok, value = conn.recv() if done else (False, None)
        except (EOFError, OSError) as lost:
            self._stop()
            raise JobFailed(f"the worker process ended during the job: {lost!r}") from None
        if not done:
            self._stop()
            log.error("a job ran past %.1f s and was ended with its process", self.limit)
            raise JobTooLong(f"{getattr(fn, '__name__', fn)} ran past {self.limit:.1f} s")
        if not ok:
            raise JobFailed(value)
        return value

    def _child(self) -> Connection:
        if self._conn is not None and self._process is not None and self._process.is_alive():
            return self._conn
        self._stop()
        ours, theirs = get_context("spawn").Pipe()
        process = get_context("spawn").Process(
            target=_child_loop, args=(theirs, self.warm), name="aids-worker", daemon=True
        )
        process.start()
        theirs.close()
        try:
            ready = ours.poll(START_SECONDS) and ours.recv() == READY
        except (EOFError, OSError):  # it ended before it said it was ready
            ready = False
        if not ready:
            process.join(1.0)  # one that ended by itself: its exit code
            code = process.exitcode
            process.kill()
            process.join()
            ours.close()
            if code is None:
                raise JobFailed(f"the worker process did not start in {START_SECONDS:.0f} s")
            raise JobFailed(f"the worker process ended as it started (exit code {code})")
        self._process, self._conn = process, ours
        return ours

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join()
        if self._conn is not None:
            self._conn.close()
        self._process, self._conn = None, None


def _child_loop(conn: Connection, warm: Callable[[], None] | None = None) -> None:
    """The worker process: ``warm`` first (a failure is logged: the jobs still run, only
    slower), then run each job it is sent and send back (ok, result or traceback)."""
    if warm is not None:
        try:
            warm()
        except Exception:
            log.exception("the worker's warm-up failed")
    conn.send(READY)
    while True:
        try:
            fn, args, kwargs = conn.recv()
        except EOFError:
            return
        except Exception:  # a job that cannot be unpickled here
            conn.send((False, traceback.format_exc()))
            continue
        try:
            result = fn(*args, **kwargs)
        except BaseException:
            conn.send((False, traceback.format_exc()))
            continue
        try:
            conn.send((True, result))
        except Exception:  # a result that cannot be pickled
            conn.send((False, traceback.format_exc()))


class WorkerPool(Executor):
    """``size`` workers (each its own process, each ending a job past ``limit`` seconds)
    taking jobs from one queue in the order they came: a job waits only for those before it,
    never for a long one on another worker."""

    def __init__(self, size: int, limit: float, warm: Callable[[], None] | None = None) -> None:
        self._jobs: SimpleQueue[Job | None] = SimpleQueue()
        self.workers = [Worker(limit, self._jobs, warm) for _ in range(max(1, size))]

    @property
    def limit(self) -> float:
        return self.workers[0].limit

    @limit.setter
    def limit(self, value: float) -> None:
        for worker in self.workers:
            worker.limit = value

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._jobs.put((future, fn, args, kwargs))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        for _ in self.workers:
            self._jobs.put(None)  # one stop for each worker
        if wait:
            for worker in self.workers:
                worker._thread.join()


def free_cores() -> int:
    """How many worker processes the chances get: ``AIDS_CHANCE_WORKERS`` if set, else the
    cores this process may use less one for the server (at least one)."""
    given = os.environ.get("AIDS_CHANCE_WORKERS", "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    return max(1, len(os.sched_getaffinity(0)) - 1)
