"""Live chances at the tables: computed after a write and never in its way, cached per log
position, from what every player may see, and reproducible from the position's number."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from aids.games.base import VIEWER
from aids.games.chances import PlayoutTooLong, estimate
from aids.games.derby.model import DerbySetup
from aids.tables import TableService
from aids.tables.chances import BUDGET_SECONDS, ChanceService, _workers, compute, job_limit
from aids.tables.worker import JobFailed, JobTooLong, Worker
from tests.tables import jobs

PLAY = {"type": "play", "player": 0, "horse": 0, "card": "red:3"}


class CountingPool(ThreadPoolExecutor):
    """A real thread pool that counts the computations it was given."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.jobs = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs += 1
        return super().submit(fn, *args, **kwargs)


def test_a_position_is_computed_once_then_read_from_the_cache(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    pool = CountingPool()
    chances = ChanceService(service, executor=pool, playouts=500)
    first = chances.wait(pid)
    assert first.estimate is not None and not first.stale and first.seq == 0
    again = chances.latest(pid)
    assert again.estimate is first.estimate and pool.jobs == 1


def test_a_write_never_waits_and_pages_see_the_last_figures_meanwhile(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    """The page asks; the write goes through at once; the next page gets the last position's
    figures marked stale until the newest are ready."""
    pid, key = derby_table
    gate = threading.Event()
    pool = ThreadPoolExecutor(max_workers=1)
    chances = ChanceService(service, executor=pool, playouts=300)
    chances.wait(pid)  # position 0 known
    pool.submit(gate.wait)  # the worker is busy: nothing new can finish
    started = time.perf_counter()
    service.record(pid, key, 0, PLAY)
    assert time.perf_counter() - started < 0.5  # the append does not wait for chances
    meanwhile = chances.latest(pid)
    assert meanwhile.stale and meanwhile.seq == 0 and meanwhile.estimate is not None
    gate.set()
    fresh = chances.wait(pid)
    assert not fresh.stale and fresh.seq == 1


def test_ready_says_when_a_positions_figures_are_in_and_starts_nothing(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    """What a page asks every second to know whether to redraw: no computation is started
    by asking, only by a page drawing the chances (``latest``)."""
    pid, key = derby_table
    gate = threading.Event()
    pool = CountingPool()
    chances = ChanceService(service, executor=pool, playouts=300)
    assert not chances.ready(pid, 0) and pool.jobs == 0
    chances.wait(pid)
    assert chances.ready(pid, 0) and pool.jobs == 1
    pool.submit(gate.wait)  # the worker is busy
    service.record(pid, key, 0, PLAY)
    assert service.seq(pid) == 1
    chances.latest(pid)  # a page drew position 1: its figures are being computed
    assert not chances.ready(pid, 1)
    gate.set()
    chances.wait(pid)
    assert chances.ready(pid, 1) and chances.ready(pid, 0)


def test_the_figures_are_the_viewers_and_reproducible_from_the_position(
    service: TableService,
) -> None:
    """Computed from the viewer's history (a simulation's hands are not in it) with the
    position's number as the seed: anyone can recompute them."""
    setup = DerbySetup.default(["A", "B", "C"], mode="simulation", seed=8)
    info, key = service.create("derby", "Dealt", setup.to_dict())
    pid = info.public_id
    referee = service.snapshot(pid, service.role_for(pid, key))
    hand = referee.state.hands[0]
    card = next(c for c in hand if not c.is_black)
    row = [h.colour for h in setup.horses].index(card.colour)
    played = f"{card.colour}:{card.value}"
    service.record(pid, key, 0, {"type": "play", "player": 0, "horse": row, "card": played})
    chances = ChanceService(service, executor=ThreadPoolExecutor(1), playouts=400)
    got = chances.wait(pid).estimate
    viewer = service.snapshot(pid, VIEWER)
    game = service.game("derby")
    model = game.chances(viewer.history)
    assert model is not None
    want = estimate(model, viewer.state, playouts=400, seed=viewer.seq)
    assert got is not None and got.values == want.values and got.playouts == 400
    assert all(not h for s in viewer.history for h in s.hands)  # no hand was used


@pytest.mark.timeout(120)
def test_the_default_worker_is_a_separate_process(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    """By default the chances are computed in a worker process (the second core), and come
    back to the page as the same figures."""
    pid, _ = derby_table
    chances = ChanceService(service, playouts=300)
    result = chances.wait(pid, timeout=110).estimate
    pool = _workers(job_limit(BUDGET_SECONDS))
    assert all(isinstance(w, Worker) for w in pool.workers)
    assert any(w.pid not in (None, os.getpid()) for w in pool.workers)
    snap = service.snapshot(pid)
    local = compute(service.game("derby"), snap.history, snap.seq, 300, BUDGET_SECONDS)
    assert result is not None and local is not None
    assert result.values == local.values


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


def test_a_position_the_table_has_moved_past_is_never_computed(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    """A busy worker drops a table's queued position once a newer one is asked for: only
    the newest position matters to any page."""
    pid, key = derby_table
    gate = threading.Event()
    pool = RecordingPool()
    chances = ChanceService(service, executor=pool, playouts=200)
    pool.submit(lambda *_: gate.wait(), None, None, -1)  # the worker is busy
    chances.latest(pid)  # position 0 queued
    service.record(pid, key, 0, PLAY)
    chances.latest(pid)  # position 1 queued; 0 is dropped
    gate.set()
    assert chances.wait(pid).seq == 1
    assert pool.ran == [-1, 1]


def test_a_busy_table_never_starves_a_quiet_one(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    """Fairness (issue 18): a table waits in the worker's line with one position at most — a
    newer one drops the older — so a table that moves on while the worker is busy is served
    after the quiet table that asked in the meantime, once, at its newest position."""
    busy, key = derby_table
    info, _ = service.create("derby", "Quiet", DerbySetup.default(["Dai", "Emi"]).to_dict())
    quiet = info.public_id
    gate = threading.Event()
    pool = RecordingPool()
    chances = ChanceService(service, executor=pool, playouts=100)
    pool.submit(lambda *_: gate.wait(), None, None, -1)  # the worker is busy
    chances.latest(busy)  # position 0 of the busy table
    service.record(busy, key, 0, PLAY)
    chances.latest(busy)  # position 1; 0 dropped
    chances.latest(quiet)  # the quiet table's position 0
    service.record(busy, key, 1, {"type": "play", "player": 1, "horse": 1, "card": "blue:3"})
    chances.latest(busy)  # position 2; 1 dropped
    gate.set()
    assert chances.wait(busy).seq == 2 and chances.wait(quiet).seq == 0
    assert pool.ran == [-1, 0, 2]  # the quiet table first, the busy one once


def _too_long(*_: Any) -> None:
    raise PlayoutTooLong("derby", 2_000)


@pytest.mark.timeout(120)
def test_a_job_past_its_time_limit_is_ended_and_the_next_job_runs() -> None:
    """Bounded job time (issue 18): the worker ends a job still running past its limit with
    its process, the job fails with ``JobTooLong`` and the next job runs in a fresh process —
    one table's estimate never stops the chances of every table on the server."""
    worker = Worker(limit=1.0)
    try:
        first = worker.submit(jobs.pid).result(timeout=110)
        stuck = worker.submit(jobs.forever)
        after = worker.submit(jobs.pid)
        with pytest.raises(JobTooLong):
            stuck.result(timeout=110)
        second = after.result(timeout=110)
        assert first != second and os.getpid() not in (first, second)
    finally:
        worker.shutdown()


@pytest.mark.timeout(120)
def test_a_playout_too_long_comes_back_as_a_logged_failure_with_its_traceback() -> None:
    """A playout past its step cap raises in the worker; the failure comes back with the
    worker's traceback naming it (the service logs it and shows no figures) and the worker
    goes on with the next job."""
    worker = Worker(limit=60.0)
    try:
        with pytest.raises(JobFailed, match="PlayoutTooLong: derby: a playout did not end"):
            worker.submit(_too_long).result(timeout=110)
        assert worker.submit(jobs.pid).result(timeout=110) != os.getpid()
    finally:
        worker.shutdown()


def _mark_warm() -> None:
    os.environ["AIDS_TEST_WARMED"] = str(os.getpid())


def _warmed() -> str:
    return os.environ.get("AIDS_TEST_WARMED", "")


def _fail_warm() -> None:
    raise RuntimeError("no compiler here")


@pytest.mark.timeout(120)
def test_a_worker_warms_up_in_its_own_process_before_its_first_job() -> None:
    """A compiled playout loop is compiled (or loaded) at the worker's start-up, which is not
    counted against a job's time limit; a warm-up that fails leaves the worker working."""
    worker = Worker(limit=60.0, warm=_mark_warm)
    broken = Worker(limit=60.0, warm=_fail_warm)
    try:
        pid = worker.submit(jobs.pid).result(timeout=110)
        warmed = worker.submit(_warmed).result(timeout=110)
        assert warmed == str(pid) and pid != os.getpid() and _warmed() != str(pid)
        assert broken.submit(jobs.pid).result(timeout=110) != os.getpid()
    finally:
        worker.shutdown()
        broken.shutdown()


def test_every_games_model_warms_up_without_a_table() -> None:
    """``warm`` runs each game's model's own warm-up (the compiled loops), passing over games
    with no chances or no warm-up; over the real games it runs without a table."""
    from aids.games.chances import warm
    from aids.registry import engines

    calls: list[str] = []

    class Model:
        def warm(self) -> None:
            calls.append("warm")

    class Game:
        def __init__(self, model: object) -> None:
            self.model = model

        def chances(self, history: object) -> object:
            return self.model

    warm([Game(Model()), Game(None), Game(object()), Game(Model())])
    assert calls == ["warm", "warm"]
    warm(engines().values())
