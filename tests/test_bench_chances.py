"""``python -m aids.bench.chances`` (issue 20's measure): for every game's typical table it
plays one random game, takes the start, middle and late positions as a viewer sees them,
and reports the playouts a time budget gives and the widest half-width of each kind of figure
as a share of its target. Run here with a tiny budget: the report's shape and its arithmetic,
not the machine's speed."""

from __future__ import annotations

import pytest

from aids.bench.chances import PHASES, TARGET_PROBABILITY, bench_table, typical_tables, widest
from aids.games.chances import Estimate, Measure
from aids.registry import engines


@pytest.mark.parametrize("kind", ["derby", "ekiden", "rally", "gn"])
def test_every_typical_table_reports_each_phase(kind: str) -> None:
    games = engines()
    table = next(t for t in typical_tables(games) if t.kind == kind)
    rows = bench_table(games[kind], table, 0.05, seed=3)
    assert [r["phase"] for r in rows] == list(PHASES)
    steps = [r["step"] for r in rows]
    assert steps == sorted(steps) and steps[-1] > 0, "the positions do not move on"
    for row in rows:
        assert row["playouts"] >= 1 and "probability" in row["of_target"]


def test_a_half_width_is_reported_as_its_share_of_the_target() -> None:
    measures = (Measure("car", 0), Measure("car", 1, "rank"), Measure("seat", 0, "expected"))
    result = Estimate(measures, (0.5, 2.0, 1e5), (0.02, 0.05, 500.0), 900, False, 1.0, "m")
    shares = widest(result, money=250_000)
    assert shares == pytest.approx(
        {"probability": 0.02 / TARGET_PROBABILITY, "rank": 1.0, "expected": 0.2}
    )
    assert "expected" not in widest(result, money=0)  # points: no target of their own


@pytest.mark.parametrize(("kind", "baseline"), [("derby", "uniform"), ("rally", "model"),
                                                ("gn", "model")])  # fmt: skip
def test_the_plain_loop_plays_the_same_model_as_the_figures(kind: str, baseline: str) -> None:
    """Issue 20: playouts per second against a plain loop over the engine under the same
    model: uniform play where the model's players are uniform, else the model's own
    reference playout on the engine (the rally's greedy driver, the Grand National's
    riders), which always finishes a game."""
    games = engines()
    table = next(t for t in typical_tables(games) if t.kind == kind)
    rows = bench_table(games[kind], table, 0.05, seed=3)
    assert {r["baseline"] for r in rows} == {baseline}
    if baseline == "model":
        assert all(r["plain_per_second"] and r["ratio"] for r in rows)
