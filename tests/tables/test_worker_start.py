"""A chances worker that dies as it starts: its job fails as ``JobFailed``, a clean failure.

The worker process says it is ready before it is given a job; one that ends before it says so
(its warm-up killed, the interpreter unable to start) used to surface as the pipe's
``EOFError``, logged by the chances service as a traceback from the server's own threads.
These tests start real worker processes that die at start-up.
"""

from __future__ import annotations

import logging
import os

import pytest

from aids.tables import TableService
from aids.tables.chances import ChanceService
from aids.tables.worker import JobFailed, Worker


def _die() -> None:
    os._exit(3)  # as a process killed during its warm-up: no word, no traceback


def _quit() -> None:
    raise SystemExit(4)  # not an Exception: the warm-up's own guard lets it through


def _pid() -> int:
    return os.getpid()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("warm", [_die, _quit], ids=["killed", "exits"])
def test_a_worker_that_dies_as_it_starts_fails_its_jobs_with_job_failed(warm: object) -> None:
    """Worker start-up (issue 26): a process that ends before it says it is ready fails the
    job as ``JobFailed`` naming its exit code, not with the pipe's ``EOFError``; the next
    job tries a fresh process (and fails the same way) rather than hanging."""
    worker = Worker(limit=60.0, warm=warm)  # type: ignore[arg-type]
    try:
        for _ in range(2):
            with pytest.raises(JobFailed, match=r"ended as it started \(exit code [34]\)"):
                worker.submit(_pid).result(timeout=110)
    finally:
        worker.shutdown()


@pytest.mark.timeout(120)
def test_chances_from_a_worker_dying_at_start_are_none_with_one_line_logged(
    service: TableService,
    derby_table: tuple[str, str],
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    """What the server's log shows (issue 26): the position gets no figures and the log one
    error line saying the worker ended as it started, with no traceback of the server's
    threads and no ``EOFError``."""
    pid, _ = derby_table
    worker = Worker(limit=60.0, warm=_die)
    try:
        with caplog.at_level(logging.WARNING):
            chances = ChanceService(service, executor=worker, playouts=200)
            assert chances.wait(pid, timeout=110).estimate is None
    finally:
        worker.shutdown()
    failed = [r for r in caplog.records if r.name == "aids.tables.chances"]
    assert len(failed) == 1 and "ended as it started" in failed[0].getMessage()
    assert failed[0].exc_info is None
    logged = caplog.text + capfd.readouterr().err
    assert "EOFError" not in logged and "Traceback" not in logged
