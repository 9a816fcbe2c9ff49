"""The statistics of the differential tests of live chances (``test_chances_plain.py`` in each
game's folder): a model's figures from ``estimate`` against a plain playout loop over the
engine's own ``legal_actions`` and ``apply``, under the same stated model.

Both sides are means of independent playouts of one distribution (if the fast path is right),
so each figure is compared by a two-sample z statistic with the pooled variance of both
samples (for an exact figure: the plain playouts' spread around it), floored at what one
playout in ``n + 1`` at the other end of the figure's range would give (a rare event seen 0
times in a few playouts is no proof of a zero variance; the range of an expected figure is
the widest its group showed in any position's plain playouts). Two checks, each at a family-wise
false alarm rate of ``ALPHA`` by Bonferroni's correction, as the figures are many:

- every figure of every position within ``z_limit(all comparisons)`` — a position-specific
  bug shows here;
- for each figure (group, index), the sum over positions of the differences within
  ``z_limit(figures)`` of its standard error — a small bias common to many positions (a fast
  path that favours one player by a few per cent) shows here though each position's
  difference is within its error.

The seeds are fixed, so a run is deterministic; the criterion keeps a run with other seeds
from failing more often than about once in ``1 / ALPHA``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

from aids.games.chances import Z95, Estimate, Measure

ALPHA = 1e-3  # the chance that a correct fast path fails one of the two checks


def z_limit(comparisons: int) -> float:
    """The two-sided normal quantile for ``ALPHA`` shared by ``comparisons`` tests."""
    return NormalDist().inv_cdf(1 - ALPHA / (2 * max(1, comparisons)))


@dataclass(frozen=True)
class Row:
    """One figure of one position: the two means, the spread that compares them (the pooled
    variance, or for an exact figure the plain playouts' mean square around it), how many
    playouts back each side (0: exact) and the range the plain playouts saw."""

    label: str
    measure: Measure
    fast: float
    plain: float
    spread: float
    n_fast: int
    n_plain: int
    seen: float


@dataclass
class Comparison:
    """The figures of many positions, fast path against plain loop, checked at the end."""

    seats: int = 0  # the most seats any position has (the range of a rank)
    rows: list[Row] = field(default_factory=list)

    def add(self, label: str, fast: Estimate, plain: Sequence[Sequence[float]], seats: int) -> None:
        """One position: ``fast`` from ``estimate``, ``plain`` the plain loop's rows."""
        n_b = len(plain)
        assert n_b > 1
        self.seats = max(self.seats, seats)
        for at, measure in enumerate(fast.measures):
            a = fast.values[at]
            values = [row[at] for row in plain]
            b = sum(values) / n_b
            if fast.exact:
                n_a = 0
                spread = sum((v - a) ** 2 for v in values) / n_b  # around the exact figure
            else:
                n_a = fast.playouts
                var_a = (fast.errors[at] / Z95) ** 2 * (n_a - 1)  # estimate's own spread
                second = (n_a * (var_a + a * a) + sum(v * v for v in values)) / (n_a + n_b)
                mean = (n_a * a + n_b * b) / (n_a + n_b)
                spread = max(0.0, second - mean * mean)
            seen = max(values) - min(values)
            self.rows.append(Row(label, measure, a, b, spread, n_a, n_b, seen))

    def span(self, measure: Measure) -> float:
        """The range a figure can take: 1 for a probability, the places for a rank, else
        the widest range the plain playouts of any position saw for its group."""
        if measure.kind == "probability":
            return 1.0
        if measure.kind == "rank":
            return float(max(1, self.seats - 1))
        return max(r.seen for r in self.rows if r.measure.group == measure.group)

    def error(self, row: Row) -> float:
        """The standard error of the difference of the two means."""
        n = row.n_fast + row.n_plain
        floor = self.span(row.measure) ** 2 / (4 * (n + 1))
        scale = 1 / row.n_plain + (1 / row.n_fast if row.n_fast else 0.0)
        return math.sqrt(max(row.spread, floor) * scale)

    def check(self) -> None:
        """Both checks (see the module's docstring); the worst cases named on failure."""
        assert self.rows
        limit = z_limit(len(self.rows))
        errors = [self.error(r) for r in self.rows]
        bad = [
            (r.label, r.measure, r.fast, r.plain, e)
            for r, e in zip(self.rows, errors, strict=True)
            if abs(r.fast - r.plain) > limit * e + 1e-9
        ]
        assert not bad, f"figures beyond z={limit:.2f}: {bad[:10]}"
        sums: dict[Measure, list[float]] = {}
        for r, e in zip(self.rows, errors, strict=True):
            total = sums.setdefault(r.measure, [0.0, 0.0])
            total[0] += r.fast - r.plain
            total[1] += e * e
        limit = z_limit(len(sums))
        biased = {
            m: round(d / math.sqrt(v), 2)
            for m, (d, v) in sums.items()
            if v > 0 and abs(d) > limit * math.sqrt(v)
        }
        assert not biased, f"figures biased over all positions beyond z={limit:.2f}: {biased}"

    def positions(self) -> int:
        return len({r.label for r in self.rows})
