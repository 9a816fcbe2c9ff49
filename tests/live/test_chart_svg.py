"""The live view's chart (``aids.live.svg``) with money on its y axis."""

from __future__ import annotations

import re

from aids.games.series import Line, Series
from aids.live.svg import chart_svg

CHAR = 6.0  # the least width of a character of an 11 px label, in the SVG's units


def test_money_tick_labels_fit_left_of_the_plot() -> None:
    """Issue 28 §2 (the money chart read on a phone): every y tick label, ``$300,000`` the
    longest, is drawn whole inside the picture (its right end, less its width, is not left
    of the SVG's edge); it was cut to ``00,000``."""
    series = Series("gn.charts.title", "gn.charts.x", "gn.charts.y", "gn.charts.legend",
                    (0, 1, 2), (Line("Aki", (70_000, 70_000, 310_000), colour="#d32f2f"),),
                    step=True, money=True)  # fmt: skip
    svg = chart_svg(series, "en")
    labels = re.findall(r'<text x="(\d+)" y="\d+" text-anchor="end">(\$[\d,]+)</text>', svg)
    assert any(text == "$300,000" for _, text in labels), labels
    for x, text in labels:
        assert int(x) - CHAR * len(text) >= 0, (x, text)
