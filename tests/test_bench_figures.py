"""``python -m aids.bench.figures`` (issue 20, "once per table"): its scoring of what the
phones noted — a write's figure time is from its commit to the first phone of its table
showing that position's figures; a position the table left before any figures showed is
"moved past", not missed; the store's claims count the positions computed, by tracker. And
how soon a phone asks again while its figures are computed, on a real tracker."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from aids.bench.figures import Result, _score, report
from aids.bench.procs import free_port, start_server, stop
from aids.bench.referee import Referee
from aids.bench.viewers import SocketViewer
from aids.ui.frame import REFRESH_SECONDS, SOON_SECONDS


def test_a_write_is_timed_to_the_first_phone_of_its_table_showing_its_figures() -> None:
    writes = [(0, 1, 100.0), (1, 1, 101.0), (0, 2, 102.0), (0, 3, 104.0)]
    probes = [
        (0, {"figures": {"1": 100_900.0, "3": 105_500.0}}),
        (0, {"figures": {"1": 100_400.0}}),  # the other phone of table 0 was quicker
        (1, {"figures": {"1": 102_000.0}}),
    ]
    claims = {"a": ["t1", "t2", "t1"], "b": ["t2"]}
    result = Result(2, 2, 2, 10.0, 2.0)
    _score(result, writes, probes, claims)
    assert (result.writes, result.shown, result.moved_past) == (4, 3, 1)
    assert result.p50_s == pytest.approx(1.0) and result.max_s == pytest.approx(1.5)
    assert result.computed == 4 and result.by_tracker == {"t1": 2, "t2": 2}
    assert result.errors == []
    assert "p95 1.50 s (target <= 2 s: met)" in report(result)


def test_the_newest_position_never_shown_is_an_error() -> None:
    result = Result(1, 1, 1, 10.0, 2.0)
    _score(result, [(0, 1, 100.0)], [(0, {"figures": {}})], {})
    assert result.errors == ["table 0: the figures of position 1 never showed"]


@pytest.mark.e2e
def test_a_phone_asks_every_quarter_second_only_while_its_figures_are_computed(
    tmp_path: Path,
) -> None:
    """Issue 20 (write to figures on a phone): a phone's page whose position has no figures
    yet asks the tracker every ``SOON_SECONDS`` (0.25 s), so they show as soon as they are in,
    then goes back to its usual tick (``REFRESH_SECONDS``, 1 s) — at the first position and
    again after a write. A real tracker, its websocket driven as the browser drives it."""
    db = tmp_path / "soon.sqlite3"
    referee = Referee(db, "derby", 0)
    port = free_port()
    server = start_server(db, port, tmp_path / "tracker.log", playouts=2_000)

    async def watch() -> dict[str, Any]:
        viewer = SocketViewer(0)
        await viewer.open(f"http://127.0.0.1:{port}", f"table={referee.public_id}&lang=en", 90)
        try:
            await shown(viewer, "0")
            seq = await asyncio.to_thread(referee.write)
            await shown(viewer, str(seq))
            return await viewer.probe()
        finally:
            await viewer.close()

    try:
        record = asyncio.run(watch())
    finally:
        stop(server)
        referee.close()
    asked = record["ticks"]
    ticks = [every for i, every in enumerate(asked) if i == 0 or every != asked[i - 1]]
    assert ticks == [SOON_SECONDS, REFRESH_SECONDS, SOON_SECONDS, REFRESH_SECONDS], record["ticks"]


async def shown(viewer: SocketViewer, seq: str, timeout_s: float = 60.0) -> None:
    """Until the phone shows the figures of position ``seq``, and the page its usual tick."""
    until = asyncio.get_running_loop().time() + timeout_s
    while asyncio.get_running_loop().time() < until:
        record = await viewer.probe()
        if seq in record["figures"] and record["ticks"][-1] == REFRESH_SECONDS:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the figures of {seq} never showed: {await viewer.probe()}")
