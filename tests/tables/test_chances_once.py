"""Live chances once per table, on every core (issue 20): two trackers on one store compute
each (table, log position) once — the first to need it claims it, the other reads its figures
from the store — on SQLite and on PostgreSQL; a claim left by a stopped tracker is taken
over; the server's workers take jobs side by side, so a long job does not hold up the next."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import aids.store as stores
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.base import Store
from aids.tables import TableService, keys
from aids.tables.chances import ChanceService
from aids.tables.worker import WorkerPool

PLAY = {"type": "play", "player": 0, "horse": 0, "card": "red:3"}


class RecordingPool(ThreadPoolExecutor):
    """A real one-thread pool that notes the log position of each computation it runs."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.ran: list[int] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        def run() -> Any:
            self.ran.append(args[2])  # compute(game, history, seq, …)
            return fn(*args, **kwargs)

        return super().submit(run)


@pytest.fixture(params=["sqlite", "postgresql"])
def tracker(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], TableService]]:
    """Opens one more tracker's table service on this test's store (each its own store
    object, as a second server process would have); each store is closed after the test
    (a PostgreSQL store's connection pool stops with it, not whenever it is collected)."""
    if request.param == "sqlite":
        where = str(tmp_path / "aids.sqlite3")
    else:
        where = request.getfixturevalue("pg_url")
    opened: list[Store] = []

    def open_tracker() -> TableService:
        opened.append(stores.open_store(where))
        return TableService(opened[-1], engines())

    yield open_tracker
    for store in opened:
        store.close()


def new_table(service: TableService) -> tuple[str, str]:
    info, key = service.create("derby", "Once", DerbySetup.default(["Aki", "Ben"]).to_dict())
    return info.public_id, key


def test_two_trackers_compute_each_position_once(tracker: Callable[[], TableService]) -> None:
    """Issue 20: "compute each (table, log position) once, store the figures through the
    store interface, and let every tracker read them". Tracker A's page asks first and
    computes; tracker B's page asks for the same position, computes nothing and shows the
    same figures; after a write, the position is again computed once, by whoever asked
    first (here B)."""
    a, b = tracker(), tracker()
    pid, key = new_table(a)
    pool_a, pool_b = RecordingPool(), RecordingPool()
    chances_a = ChanceService(a, executor=pool_a, playouts=300)
    chances_b = ChanceService(b, executor=pool_b, playouts=300)
    first = chances_a.wait(pid, timeout=30)
    seen = chances_b.wait(pid, timeout=30)
    assert first.estimate is not None and seen.estimate == first.estimate
    assert (pool_a.ran, pool_b.ran) == ([0], [])
    a.record(pid, key, 0, PLAY)
    for _ in range(100):  # B's process learns of the write (PostgreSQL: by its notice)
        if b.seq(pid) == 1:
            break
        time.sleep(0.05)
    later_b = chances_b.wait(pid, timeout=30)
    later_a = chances_a.wait(pid, timeout=30)
    assert later_b.seq == later_a.seq == 1 and later_a.estimate == later_b.estimate
    assert (pool_a.ran, pool_b.ran) == ([0], [1])


def test_a_claim_left_by_a_stopped_tracker_is_taken_over(
    tracker: Callable[[], TableService],
) -> None:
    """A tracker that claimed a position and stopped before finishing does not leave the
    table without figures: once the claim is older than the job limit, the next tracker to
    ask computes it."""
    service = tracker()
    pid, _ = new_table(service)
    table_id = service.table_id(pid)
    gone = "2026-01-01T00:00:00.000+00:00"
    assert service.store.claim_figures(table_id, 0, "stopped", gone, retake_before=gone)
    pool = RecordingPool()
    result = ChanceService(service, executor=pool, playouts=200).wait(pid, timeout=30)
    assert result.estimate is not None and pool.ran == [0]
    this, _ = service.store.figures(table_id, 0)
    assert this is not None and this.done and this.claimed_by != "stopped"


def test_a_tracker_waits_for_another_trackers_recent_claim_instead_of_computing(
    tracker: Callable[[], TableService],
) -> None:
    """A fresh claim by another tracker is left to it: this tracker's pages show "being
    worked out" and compute nothing."""
    service = tracker()
    pid, _ = new_table(service)
    table_id = service.table_id(pid)
    at = keys.now()  # a claim made just now by a tracker still running
    assert service.store.claim_figures(table_id, 0, "busy", at, retake_before=at)
    pool = RecordingPool()
    chances = ChanceService(service, executor=pool, playouts=200)
    shown = chances.latest(pid)
    assert shown.stale and shown.estimate is None
    assert not chances.ready(pid, 0)
    assert pool.ran == []


def slow(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.timeout(180)
def test_the_workers_run_jobs_side_by_side() -> None:
    """Issue 20, "a worker pool sized to the cores left free": with two worker processes a
    quick job does not wait for a long one before it."""
    pool = WorkerPool(2, limit=60)
    try:
        pool.submit(slow, 0.0).result(timeout=150)  # both processes started (spawn is slow)
        pool.submit(slow, 0.0).result(timeout=150)
        long = pool.submit(slow, 20.0)
        assert pool.submit(slow, 0.0).result(timeout=60) == 0.0
        assert not long.done(), "the quick job waited for the long one"
        assert long.result(timeout=60) == 20.0
    finally:
        pool.shutdown()


def test_a_settled_race_shows_its_figures_at_once_without_queueing(
    tracker: Callable[[], TableService],
) -> None:
    """Issue 20: "where a game's figures are known exactly (...), the page shows them at
    once, without waiting for playouts". A race played to its end gets its decided figures
    with its first page (not stale, exact), and no worker job is queued for it."""
    from tests.e2e.frame_scenes import finished

    service = tracker()
    pid, _ = finished(service, "derby")
    pool = RecordingPool()
    shown = ChanceService(service, executor=pool, playouts=200).latest(pid)
    assert not shown.stale and shown.estimate is not None and shown.estimate.exact
    assert pool.ran == []
