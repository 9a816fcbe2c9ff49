"""Live chances at the tables: computed after a write and never in its way, cached per log
position, from what every player may see, and reproducible from the position's number."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

from aids.games.base import VIEWER
from aids.games.chances import estimate
from aids.games.derby.model import DerbySetup
from aids.tables import TableService
from aids.tables.chances import ChanceService, _worker

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
    assert isinstance(_worker(), ProcessPoolExecutor)
    local = ChanceService(service, executor=ThreadPoolExecutor(1), playouts=300).wait(pid)
    assert result is not None and local.estimate is not None
    assert result.values == local.estimate.values


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
