"""``python -m aids.bench.figures`` (issue 20, "once per table"): its scoring of what the
phones noted — a write's figure time is from its commit to the first phone of its table
showing that position's figures; a position the table left before any figures showed is
"moved past", not missed; the store's claims count the positions computed, by tracker."""

from __future__ import annotations

import pytest

from aids.bench.figures import Result, _score, report


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
