"""The PostgreSQL benchmark, small and real: its integrity check, and writers that race."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from aids.bench.pg_record import PgBare, bench_record
from aids.bench.pg_writers import bench_writers, check_logs
from aids.store.base import EventRow


def _log(*writes: tuple[int, int, int]) -> list[EventRow]:
    """Events (seq, writer, n) with the writers' payloads."""
    return [EventRow(seq, "action", {"w": w, "n": n}, "t") for seq, w, n in writes]


def test_check_logs_passes_a_whole_log() -> None:
    logs = {1: _log((1, 0, 0), (2, 1, 0), (3, 0, 1)), 2: _log((1, 2, 0))}
    acked = [(1, 1, 0, 0), (1, 2, 1, 0), (1, 3, 0, 1), (2, 1, 2, 0)]
    assert check_logs(logs, acked) == []


@pytest.mark.parametrize(
    ("log", "acked", "found"),
    [
        # a gap: seq 2 missing, and the write acknowledged there lost
        (
            _log((1, 0, 0), (3, 0, 2)),
            [(1, 1, 0, 0), (1, 2, 0, 1), (1, 3, 0, 2)],
            ["not 1..2: gaps [2]", "acknowledged seq 2 (writer 0, append 1) is not in the log"],
        ),
        # a duplicated seq
        (
            _log((1, 0, 0), (1, 1, 0), (2, 0, 1)),
            [(1, 1, 0, 0), (1, 2, 0, 1)],
            ["repeated [1]", "seq 1 (writer 1, append 0) is in the log, never acknowledged"],
        ),
        # one write in the log twice
        (
            _log((1, 0, 0), (2, 0, 0)),
            [(1, 1, 0, 0)],
            [
                "writer 0's append 0 is in the log 2×",
                "seq 2 (writer 0, append 0) is in the log, never acknowledged",
            ],
        ),
        # an acknowledged seq holding another writer's row (a lost, overwritten write)
        (
            _log((1, 0, 0), (2, 1, 0)),
            [(1, 1, 0, 0), (1, 2, 0, 1)],
            ["acknowledged seq 2 (writer 0, append 1) holds another write (1, 0)"],
        ),
        # one seq acknowledged to two writers
        (
            _log((1, 0, 0)),
            [(1, 1, 0, 0), (1, 1, 1, 0)],
            ["seq 1 was acknowledged 2×"],
        ),
    ],
)
def test_check_logs_finds_what_is_wrong(
    log: list[EventRow], acked: list[tuple[int, int, int, int]], found: list[str]
) -> None:
    problems = check_logs({1: log}, acked)
    for text in found:
        assert any(text in p for p in problems), (text, problems)


@pytest.mark.parametrize("one_table", [False, True])
def test_writers_lose_and_repeat_nothing(pg_url: str, one_table: bool) -> None:
    result = bench_writers(pg_url, workers=2, appends=15, one_table=one_table)
    assert result.errors == [] and result.problems == [], result
    assert result.acked == result.rows == 30
    assert result.tables == (1 if one_table else 2)
    assert result.per_s > 0 and result.ack_p50_ms <= result.ack_p99_ms
    if not one_table:
        assert result.conflicts == 0  # nobody else writes a writer's own table


def test_writers_on_sqlite(tmp_path: Path) -> None:
    result = bench_writers(str(tmp_path / "w.sqlite3"), workers=2, appends=10, one_table=True)
    assert result.store == "sqlite"
    assert result.errors == [] and result.problems == [] and result.rows == 20, result


def test_record_latency_figures(pg_url: str) -> None:
    figures = bench_record(pg_url, PgBare(pg_url), races=1)
    assert figures["writes"] > 20
    for name in ("record", "append", "bare"):
        assert 0 < figures[f"{name}_p50_ms"] <= figures[f"{name}_p99_ms"]
    assert not math.isnan(figures["record_p50_ratio"])
