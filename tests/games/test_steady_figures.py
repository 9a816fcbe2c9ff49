"""Steady figures (issue 20): "a figure moves only when the position changed it … the page
does not repaint a bar for a change smaller than its error". ``steady`` holds a sampled
figure at the value shown when the new one is within its error of it; checked as
invariants over arbitrary figures."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from aids.games.chances import Estimate, Measure, steady

FIGURE = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
ERROR = st.floats(min_value=0.0, max_value=0.2, allow_nan=False)


def figures(values: list[float], errors: list[float], *, exact: bool = False) -> Estimate:
    measures = tuple(Measure("horse", i) for i in range(len(values)))
    playouts = 0 if exact else 1000
    return Estimate(measures, tuple(values), tuple(errors), playouts, exact, 0.5, "m")


@given(st.lists(st.tuples(FIGURE, FIGURE, ERROR), min_size=1, max_size=8))
def test_a_held_figure_stays_within_its_error_of_the_new_mean(
    rows: list[tuple[float, float, float]],
) -> None:
    new = figures([n for n, _, _ in rows], [e for _, _, e in rows])
    old = figures([o for _, o, _ in rows], [0.01] * len(rows))
    shown = steady(new, old)
    for value, (mean, before, error) in zip(shown.values, rows, strict=True):
        assert abs(value - mean) <= error + 1e-12
        assert value == (before if abs(mean - before) <= error else mean)
    assert (shown.errors, shown.playouts, shown.measures) == (
        new.errors,
        new.playouts,
        new.measures,
    )


@given(st.lists(st.tuples(FIGURE, FIGURE), min_size=1, max_size=8))
def test_exact_figures_and_a_first_position_are_shown_as_they_are(
    rows: list[tuple[float, float]],
) -> None:
    exact = figures([n for n, _ in rows], [0.0] * len(rows), exact=True)
    old = figures([o for _, o in rows], [0.05] * len(rows))
    assert steady(exact, old) == exact
    sampled = figures([n for n, _ in rows], [0.05] * len(rows))
    assert steady(sampled, None) == sampled
