"""The race chart as a small inline SVG for the live view: no script, no library, a few hundred
bytes a line. Each line is drawn as on the table page and on paper (``aids.print.charts.looks``:
the piece's own colour, its own dash and marker shape, so it reads without colour), its last
point marked and named in the legend under the plot. Equal lines both show: a line a later
one runs over is drawn wider (``widths``), and last points that meet are set side by side.

>>> from aids.games.series import Line, Series
>>> s = Series("chart.title", "chart.x", "chart.y", "chart.who",
...            (1, 2, 3), (Line("Aki", (0, 3, 5), colour="#d32f2f"), Line("Ben", (0, 1, None))))
>>> svg = chart_svg(s, "en")
>>> svg.count("<polyline"), svg.count('role="img"')
(2, 1)
"""

from __future__ import annotations

from aids.core.i18n import t
from aids.print.charts import ChartSeries, looks, nice_ticks, value_text, widths
from aids.ui.common import html_text

WIDTH, HEIGHT = 360, 170  # the plot's own box, in the SVG's units (it scales to the screen)
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 8, 22  # LEFT: at least; wider for long tick labels
LINE_WIDTH, TIE_WIDTH, CASING = 2.5, 3.0, 2.0  # a line, one under another, a casing
APART = 8  # units between last points that meet
MARKS = {
    "circle": '<circle cx="{x}" cy="{y}" r="3.5"/>',
    "square": '<rect x="{x0}" y="{y0}" width="7" height="7"/>',
    "triangle-up": '<path d="M{x} {y0}l4 7h-8z"/>',
    "triangle-down": '<path d="M{x0} {y0}h8l-4 7z"/>',
    "triangle-right": '<path d="M{x0} {y0}l7 4l-7 4z"/>',
    "diamond": '<path d="M{x} {y0}l4 4l-4 4l-4-4z"/>',
    "cross": '<path d="M{x0} {y}h8M{x} {y0}v8" stroke-width="2.5"/>',
}


def chart_svg(series: ChartSeries, lang: str) -> str:
    """The chart of ``series`` (at least one x point) with its labels in ``lang``."""
    xs = series.x
    values = [v for line in series.lines for v in line.values if v is not None]
    x_low, x_high = series.x_domain or (min(xs), max(xs))
    y_low, y_high = series.y_domain or (min(values, default=0), max(values, default=1))
    if y_high == y_low:
        y_high = y_low + 1
    if x_high == x_low:
        x_high = x_low + 1
    ticks = nice_ticks(y_low, y_high, 4)
    # room for the longest tick label ($300,000) at about 6.5 units a character
    left = max(LEFT, 6 + round(6.5 * max(len(value_text(v, series.money)) for v in ticks)))
    plot_w, plot_h = WIDTH - left - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: int) -> float:
        return left + plot_w * (x - x_low) / (x_high - x_low)

    def py(y: int) -> float:
        share = (y - y_low) / (y_high - y_low)
        return TOP + plot_h * (share if series.y_reversed else 1 - share)

    grid = "".join(
        f'<path d="M{left} {py(v):.0f}H{WIDTH - RIGHT}"/>'
        f'<text x="{left - 4}" y="{py(v) + 4:.0f}" text-anchor="end">'
        f"{html_text(value_text(v, series.money))}</text>"
        for v in ticks
        if y_low <= v <= y_high
    )
    parts, legend, marks = [], [], []
    drawn = [
        [(px(x), py(v)) for x, v in zip(xs, line.values, strict=False) if v is not None]
        for line in series.lines
    ]
    ends = [points[-1] if points else None for points in drawn]
    for i, (line, (ink, shape, dash), wide, points) in enumerate(
        zip(series.lines, looks(series), widths(series, LINE_WIDTH, TIE_WIDTH, CASING), drawn,
            strict=True)
    ):  # fmt: skip
        if not points:
            continue
        dashes = f' stroke-dasharray="{",".join(map(str, dash))}"' if dash else ""
        casing = ""
        path = " ".join(f"{x:.0f},{y:.0f}" for x, y in _stairs(points, series.step))
        if ink.edge:
            casing = (
                f'<polyline points="{path}" stroke="{ink.edge}" stroke-width="{wide + CASING:g}"/>'
            )
        parts.append(
            f'{casing}<polyline points="{path}" stroke="{ink.fill}" stroke-width="{wide:g}"'
            f"{dashes}/>"
        )
        meet = [j for j, end in enumerate(ends) if end == points[-1]]  # last points that meet
        x_end, y_end = points[-1]
        back = (len(meet) - 1 - meet.index(i)) * APART  # the last at its point, others before
        marks.append(_mark(shape, x_end - back, y_end, ink.fill, ink.edge))
        rim = f'<path d="M1 6H20" stroke="{ink.edge}" stroke-width="4.5"/>' if ink.edge else ""
        legend.append(
            f'<li><svg width="30" height="12" aria-hidden="true">{rim}<path d="M1 6H20" '
            f'stroke="{ink.fill}" stroke-width="2.5"{dashes}/>'
            f"{_mark(shape, 24, 6, ink.fill, ink.edge)}</svg>{html_text(line.name)}</li>"
        )
    title = html_text(t(series.title_key, lang))
    axis = html_text(f"{t(series.x_key, lang)} → · {t(series.y_key, lang)}")
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{title}">'
        f'<g class="grid">{grid}</g><g fill="none" stroke-linejoin="round">{"".join(parts)}</g>'
        f"{''.join(marks)}"
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end">{axis}</text></svg>'
        f'<ul class="legend">{"".join(legend)}</ul>'
    )


def _stairs(points: list[tuple[float, float]], step: bool) -> list[tuple[float, float]]:
    """The points as drawn: a value that holds until the next point (money) as a staircase.

    >>> _stairs([(0, 5), (10, 2)], True)
    [(0, 5), (10, 5), (10, 2)]
    """
    if not step:
        return points
    out = points[:1]
    for x, y in points[1:]:
        out += [(x, out[-1][1]), (x, y)]
    return out


def _mark(shape: str, x: float, y: float, fill: str, edge: str | None) -> str:
    drawn = MARKS.get(shape, MARKS["circle"]).format(
        x=f"{x:.0f}", y=f"{y:.0f}", x0=f"{x - 4:.0f}", y0=f"{y - 4:.0f}"
    )
    stroke = edge or fill
    return f'<g fill="{fill}" stroke="{stroke}">{drawn}</g>'
