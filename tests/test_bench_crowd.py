"""The crowd benchmark end to end, small: a real tracker, two viewers, a few writes."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from aids.bench.crowd import CHROMIUM, run
from aids.bench.crowd_report import latencies, report


def test_latencies_pair_every_write_with_every_viewer() -> None:
    writes = [(1, 10.0), (2, 12.0), (3, 14.0)]
    seen = [{0: 9.0, 1: 10.4, 3: 14.9}, {0: 9.0, 1: 10.2}]  # the first skipped 2; the second
    lat, missed = latencies(writes, seen, timeout_s=5.0)  # never showed 2 or 3
    assert missed == 2
    assert [round(x, 1) for x in lat] == [0.4, 2.9, 0.9, 0.2]


@pytest.mark.e2e
@pytest.mark.parametrize("client", ["browser", "socket"])
def test_two_viewers_see_every_write(client: str) -> None:
    if client == "browser" and not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: the test command installs Debian's chromium")
    result = asyncio.run(
        run(2, 6.0, 2.0, client=client, playouts=500, idle_s=1.0, open_at_once=2, verbose=False)
    )
    assert result.errors == [] and not result.stopped_early, report(result)
    assert result.writes >= 3 and result.missed == 0, report(result)
    assert 0 < result.p50_s <= result.p95_s <= result.max_s < 10, report(result)
    assert result.reruns_per_viewer_s > 0 and not math.isnan(result.loaded["server_cpu"])


@pytest.mark.e2e
def test_two_trackers_on_postgres_see_every_write(pg_url: str) -> None:
    """Two tracker processes on one PostgreSQL database, a viewer on each: the referee's
    writes (a third process) reach both through the database's notices."""
    result = asyncio.run(
        run(2, 6.0, 2.0, client="socket", playouts=500, idle_s=1.0, open_at_once=2,
            verbose=False, trackers=2, database_url=pg_url)
    )  # fmt: skip
    assert result.errors == [] and not result.stopped_early, report(result)
    assert result.store == "postgresql" and result.trackers == 2
    assert result.writes >= 3 and result.missed == 0, report(result)
    assert [t["viewers"] for t in result.per_tracker] == [1, 1]
    for tracker in result.per_tracker:
        assert tracker["missed"] == 0 and 0 < tracker["p50_s"] <= tracker["max_s"] < 10
        assert tracker["server_cpu"] > 0 and tracker["tracebacks"] == 0
    assert "tracker 2 (port" in report(result)
