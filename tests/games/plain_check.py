"""The statistics of the differential tests of live chances (``test_chances_plain.py`` in each
game's folder): a model's figures from ``estimate`` against a plain playout loop over the
engine's own ``legal_actions`` and ``apply``, under the same stated model.

Both sides are means of independent playouts of one distribution (if the fast path is right),
so each figure is compared by a two-sample z statistic with the pooled variance of both
samples (for an exact figure: the plain playouts' spread around it), floored at what one
playout in ``n + 1`` at the other end of the figure's range would give (a rare event seen 0
times in a few playouts is no proof of a zero variance). Two checks, each at a family-wise
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


def span(measure: Measure, seats: int, rows: Sequence[Sequence[float]], at: int) -> float:
    """The range a figure can take: 1 for a probability, the places for a rank, else the
    range the plain playouts saw."""
    if measure.kind == "probability":
        return 1.0
    if measure.kind == "rank":
        return float(max(1, seats - 1))
    values = [row[at] for row in rows]
    return max(values) - min(values) if values else 0.0


@dataclass
class Comparison:
    """The figures of many positions, fast path against plain loop, checked at the end."""

    #: (position label, measure, fast value, plain value, standard error of the difference)
    rows: list[tuple[str, Measure, float, float, float]] = field(default_factory=list)

    def add(self, label: str, fast: Estimate, plain: Sequence[Sequence[float]], seats: int) -> None:
        """One position: ``fast`` from ``estimate``, ``plain`` the plain loop's rows."""
        n_b = len(plain)
        assert n_b > 1
        for at, measure in enumerate(fast.measures):
            a = fast.values[at]
            values = [row[at] for row in plain]
            b = sum(values) / n_b
            low = span(measure, seats, plain, at)
            if fast.exact:
                spread = sum((v - a) ** 2 for v in values) / n_b  # around the exact figure
                floor = low**2 / (4 * (n_b + 1))
                se = math.sqrt(max(spread, floor) / n_b)
            else:
                n_a = fast.playouts
                var_a = (fast.errors[at] / Z95) ** 2 * (n_a - 1)  # estimate's own spread
                second = (n_a * (var_a + a * a) + sum(v * v for v in values)) / (n_a + n_b)
                mean = (n_a * a + n_b * b) / (n_a + n_b)
                pooled = max(0.0, second - mean * mean)
                floor = low**2 / (4 * (n_a + n_b + 1))
                se = math.sqrt(max(pooled, floor) * (1 / n_a + 1 / n_b))
            self.rows.append((label, measure, a, b, se))

    def check(self) -> None:
        """Both checks (see the module's docstring); the worst cases named on failure."""
        assert self.rows
        limit = z_limit(len(self.rows))
        bad = [r for r in self.rows if abs(r[2] - r[3]) > limit * r[4] + 1e-9]
        assert not bad, f"figures beyond z={limit:.2f}: {bad[:10]}"
        sums: dict[Measure, list[float]] = {}
        for _, measure, a, b, se in self.rows:
            total = sums.setdefault(measure, [0.0, 0.0])
            total[0] += a - b
            total[1] += se * se
        limit = z_limit(len(sums))
        biased = {
            m: round(d / math.sqrt(v), 2)
            for m, (d, v) in sums.items()
            if v > 0 and abs(d) > limit * math.sqrt(v)
        }
        assert not biased, f"figures biased over all positions beyond z={limit:.2f}: {biased}"

    def positions(self) -> int:
        return len({r[0] for r in self.rows})
