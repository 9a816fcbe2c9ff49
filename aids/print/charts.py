"""A race chart as vectors (ReportLab graphics) for the post-game report, and the look of a
chart's lines shared with the page (``aids/ui/charts.py``).

Every line differs from the others in three ways — its colour, a marker shape and a dash
pattern — so a chart printed in black and white, or read by a colour-blind player, loses
nothing. The colour is the seat's piece's own (a red car's line is the car's red:
``palette.line_inks`` from ``Line.colour``), a pale one (yellow, white) cased in a darker ink
of its hue; the shape and dash are the colour-blind reader's cue. Lines with equal values
stay visible: a line that a later one runs over is drawn wider (``widths``), so it shows on
both sides of the thinner one on top, and markers of lines that meet are set a little apart
(dodged) so none hides another. Text is in the embedded Japanese font and fitted to its room
(shrink, then ellipsis). Names no game: it draws any value shaped like ``ChartSeries`` (each
game's ``history.series``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Polygon, PolyLine, Rect, String
from reportlab.lib import colors

from aids.core.i18n import t
from aids.games.palette import Ink, line_inks
from aids.print.fonts import ASCENT, fit, measure, register

#: Marker shapes by Vega's names (the page uses them as they are; ``_marker`` draws them here).
SHAPES = ("circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "triangle-right")
#: Dash patterns (on, off, …) in points/pixels; () is a solid line.
DASHES: tuple[tuple[int, ...], ...] = (
    (),
    (7, 3),
    (2, 2),
    (8, 3, 2, 3),
    (12, 4),
    (4, 2, 1, 2, 1, 2),
    (1, 4),
)
MARKER = 3.2  # a marker's radius in points
INSET = 7.0  # points between the frame and the highest and lowest tick
DODGE = 4.5  # points between two lines' markers on paper, so equal values stay apart
INK = colors.black
GRID = colors.HexColor("#d9d9d9")
TITLE_SIZE, LABEL_SIZE, TICK_SIZE = 11.0, 8.5, 7.5


class ChartLine(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def values(self) -> tuple[int | None, ...]: ...
    @property
    def extra(self) -> tuple[int | None, ...]: ...
    @property
    def colour(self) -> str | None: ...


class ChartSeries(Protocol):
    """What a chart needs of a series (``aids.games.series.Series`` has this shape)."""

    @property
    def title_key(self) -> str: ...
    @property
    def x_key(self) -> str: ...
    @property
    def y_key(self) -> str: ...
    @property
    def legend_key(self) -> str: ...
    @property
    def extra_key(self) -> str | None: ...
    @property
    def x(self) -> tuple[int, ...]: ...
    @property
    def lines(self) -> Sequence[ChartLine]: ...
    @property
    def x_domain(self) -> tuple[int, int] | None: ...
    @property
    def y_domain(self) -> tuple[int, int] | None: ...
    @property
    def y_reversed(self) -> bool: ...
    @property
    def step(self) -> bool: ...
    @property
    def money(self) -> bool: ...


Look = tuple[Ink, str, tuple[int, ...]]  # a line's ink, marker shape and dash pattern


def looks(series: ChartSeries) -> list[Look]:
    """Each line's ink (its piece's own colour: ``palette.line_inks``), marker shape and dash
    pattern, in seat order: the shape and dash by the line's place, so no two lines share
    either however their colours fall.

    >>> from aids.games.series import Line, Series
    >>> s = Series("t", "x", "y", "who", (1,), (Line("A", (1,), colour="#d32f2f"),
    ...                                         Line("B", (2,))))
    >>> [(ink.fill, shape, dash) for ink, shape, dash in looks(s)]
    [('#D32F2F', 'circle', ()), ('#56B4E9', 'square', (7, 3))]
    """
    inks = line_inks([line.colour for line in series.lines])
    return [(ink, SHAPES[i % len(SHAPES)], DASHES[i % len(DASHES)]) for i, ink in enumerate(inks)]


def widths(series: ChartSeries, base: float, step: float, casing: float) -> list[float]:
    """Each line's width, so equal lines all show: a line is drawn ``step`` wider than the
    widest (casing included) of the later lines drawn over it that share a value with it,
    so it shows on both sides of them; ``base`` otherwise. A pale line's casing adds
    ``casing`` around its width.

    >>> from aids.games.series import Line, Series
    >>> same = (5, 5, 9)
    >>> lines = (Line("A", same), Line("B", (1, 5, 2)), Line("C", same, colour="#f5f5f5"))
    >>> widths(Series("t", "x", "y", "who", (0, 1, 2), lines), 2, 2, 1)
    [7, 5, 2]
    """
    lines = series.lines
    pale = [ink.edge is not None for ink, _, _ in looks(series)]
    inner: list[float] = [base] * len(lines)
    outer: list[float] = [base] * len(lines)
    for i in reversed(range(len(lines))):
        over = [
            outer[j]
            for j in range(i + 1, len(lines))
            if any(a is not None and a == b
                   for a, b in zip(lines[i].values, lines[j].values, strict=True))
        ]  # fmt: skip
        inner[i] = max([base, *(w + step for w in over)])
        outer[i] = inner[i] + (casing if pale[i] else 0)
    return inner


def dodge(index: int, count: int, room: float) -> float:
    """How far the ``index``-th of ``count`` lines is set aside, ``room`` being one step's
    share: equal values then sit side by side, the lines run parallel, none hides another.

    >>> [dodge(i, 3, 4.5) for i in range(3)]
    [-4.5, 0.0, 4.5]
    """
    return (index - (count - 1) / 2) * room


def value_text(value: int, money: bool) -> str:
    """``$250,000`` for money, ``12`` otherwise."""
    return f"${value:,}" if money else str(value)


def nice_ticks(low: float, high: float, most: int = 6) -> list[int]:
    """Whole-number ticks from a multiple of a 1-2-5 step at or below ``low`` to one at or
    above ``high``, at most about ``most`` of them.

    >>> nice_ticks(0, 12), nice_ticks(60_000, 105_000)
    ([0, 5, 10, 15], [60000, 70000, 80000, 90000, 100000, 110000])
    """
    if high <= low:
        high = low + 1
    raw = max(1.0, (high - low) / max(1, most - 1))
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    step = max(1, int(step))
    start = math.floor(low / step) * step
    return list(range(int(start), int(math.ceil(high / step) * step) + 1, int(step)))


def x_ticks(series: ChartSeries) -> list[int]:
    """Every fence/leg of a fixed axis, every point of a short one, else round numbers."""
    if series.x_domain:
        lo, hi = series.x_domain
        return list(range(lo, hi + 1))
    xs = list(series.x)
    if len(xs) <= 12 and xs == list(range(xs[0], xs[0] + len(xs))):
        return xs
    return [v for v in nice_ticks(xs[0], xs[-1], 8) if xs[0] <= v <= xs[-1]] or xs


def y_ticks(series: ChartSeries) -> list[int]:
    if series.y_domain:
        lo, hi = series.y_domain
        return list(range(lo, hi + 1))
    values = [v for line in series.lines for v in line.values if v is not None] or [0]
    low = min(values) if series.money else min(0, *values)
    return nice_ticks(low, max(values))


def _fitted(text: str, size: float, width: float) -> tuple[str, float]:
    """One line of ``text`` in ``width``: shrunk a little, else cut with an ellipsis."""
    f = fit(text, size, max(width, 1.0), size * 1.2, min_size=size * 0.8, max_lines=1)
    return (f.lines[0] if f.lines else ""), f.size


def _text(x: float, y: float, text: str, size: float, anchor: str = "start") -> String:
    return String(x, y, text, fontName=register(), fontSize=size, fillColor=INK, textAnchor=anchor)


def _marker(
    shape: str, x: float, y: float, r: float, colour: colors.Color, edge: str | None = None
) -> Circle | Polygon:
    """A filled marker with a white rim, so crossing lines never hide its shape (a pale
    one's rim dark, so it shows on white paper)."""
    rim = colors.HexColor(edge) if edge else colors.white
    style = {"fillColor": colour, "strokeColor": rim, "strokeWidth": 0.6}
    if shape == "circle":
        return Circle(x, y, r * 0.95, **style)
    corners = {
        "square": [(-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)],
        "triangle-up": [(-1.05, -0.8), (1.05, -0.8), (0, 1.1)],
        "triangle-down": [(-1.05, 0.8), (1.05, 0.8), (0, -1.1)],
        "triangle-right": [(-0.8, -1.05), (-0.8, 1.05), (1.1, 0)],
        "diamond": [(0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0)],
        "cross": [(-0.35, -1.1), (0.35, -1.1), (0.35, -0.35), (1.1, -0.35), (1.1, 0.35),
                  (0.35, 0.35), (0.35, 1.1), (-0.35, 1.1), (-0.35, 0.35), (-1.1, 0.35),
                  (-1.1, -0.35), (-0.35, -0.35)],
    }[shape]  # fmt: skip
    points = [v for cx, cy in corners for v in (x + cx * r, y + cy * r)]
    return Polygon(points, **style)


def _sample(x: float, y: float, look: Look) -> Group:
    """A legend's sample of a line: a stretch of its dashed line with its marker."""
    ink, shape, dash = look
    colour = colors.HexColor(ink.fill)
    g = Group()
    for stroke, width in _strokes(ink):
        g.add(Line(x, y, x + 26, y, strokeColor=stroke, strokeWidth=width,
                   strokeDashArray=list(dash) or None))  # fmt: skip
    g.add(_marker(shape, x + 13, y, MARKER, colour, ink.edge))
    return g


LINE_WIDTH, TIE_WIDTH, CASING = 1.6, 1.4, 1.2  # points: a line, a line under one, a casing


def _strokes(ink: Ink, width: float = LINE_WIDTH) -> list[tuple[colors.Color, float]]:
    """A line's strokes, bottom first: its darker casing when pale, then its colour."""
    casing = [(colors.HexColor(ink.edge), width + CASING)] if ink.edge else []
    return [*casing, (colors.HexColor(ink.fill), width)]


def legend_label(series: ChartSeries, index: int, lang: str) -> str:
    """A line's name, with its second measure's latest value when the series has one."""
    line = series.lines[index]
    latest = next((v for v in reversed(line.extra) if v is not None), None)
    if series.extra_key is None or latest is None:
        return line.name
    return t("charts.legend_extra", lang, name=line.name, what=t(series.extra_key, lang),
             value=latest)  # fmt: skip


def _legend(series: ChartSeries, lang: str, width: float) -> tuple[Group, float]:
    """The legend in as many columns as fit ``width``; returns it and its height."""
    labels = [legend_label(series, i, lang) for i in range(len(series.lines))]
    styles = looks(series)
    head = t(series.legend_key, lang)
    room = 34.0  # the sample and a gap
    widest = max([measure(s, LABEL_SIZE) for s in labels] or [0.0])
    head_w = measure(head, LABEL_SIZE) + 8
    usable = max(width - head_w, width / 2)
    fits = int(usable // (room + widest + 10))
    columns = max(1, min(len(labels), max(fits, 2)))  # two columns at least: a short legend
    col_w = usable / columns
    rows = math.ceil(len(labels) / columns) if labels else 0
    row_h = LABEL_SIZE * 1.9
    g = Group()
    top = rows * row_h
    g.add(_text(0, top - row_h + LABEL_SIZE * 0.3, head, LABEL_SIZE))
    for i, label in enumerate(labels):
        r, c = divmod(i, columns)
        x = width - usable + c * col_w
        y = top - (r + 1) * row_h + LABEL_SIZE * 0.3
        g.add(_sample(x, y + LABEL_SIZE * 0.32, styles[i]))
        text, size = _fitted(label, LABEL_SIZE, col_w - room - 4)
        g.add(_text(x + room, y, text, size))
    return g, top


def drawing(series: ChartSeries, lang: str, width: float, height: float) -> Drawing:
    """The chart, ``width`` × ``height`` points: title, axes with ticks and labels, a grid,
    one dashed line with markers per seat, and the legend below."""
    d = Drawing(width, height)
    title, title_size = _fitted(t(series.title_key, lang), TITLE_SIZE, width)
    d.add(_text(0, height - title_size * ASCENT, title, title_size))
    legend, legend_h = _legend(series, lang, width)
    d.add(legend)
    if not series.x:
        note, size = _fitted(t("charts.empty", lang), LABEL_SIZE, width)
        d.add(_text(width / 2, height / 2, note, size, "middle"))
        return d
    yt, xt = y_ticks(series), x_ticks(series)
    y_labels = [value_text(v, series.money) for v in yt]
    left = LABEL_SIZE * 1.6 + max(measure(s, TICK_SIZE) for s in y_labels) + 6
    frame_bottom = legend_h + 8 + LABEL_SIZE * 1.4 + TICK_SIZE * 1.6
    frame_top = height - title_size * 1.6 - 6
    bottom, top = frame_bottom + INSET, frame_top - INSET  # markers clear of the frame
    right = width - 10
    x_lo, x_hi = series.x_domain or (min(series.x), max(series.x))
    x_lo, x_hi = min(x_lo, *xt), max(x_hi, *xt)
    span = max(1, x_hi - x_lo)
    plot_w = right - left
    # the markers' spread stays within a third of the gap between two neighbouring points
    gap = min((b - a for a, b in zip(series.x, series.x[1:], strict=False)), default=span)
    gap_pt = plot_w * gap / span
    step_pt = min(DODGE, gap_pt / 3 / max(1, len(series.lines)))
    size = max(1.8, min(MARKER, gap_pt / 4))  # dense points get smaller markers
    pad = span * (0.04 + step_pt * len(series.lines) / plot_w)
    y_lo, y_hi = min(yt), max(yt)

    def px(v: float) -> float:
        return left + (v - (x_lo - pad)) / (span + 2 * pad) * (right - left)

    def py(v: float) -> float:
        share = (v - y_lo) / max(1e-9, y_hi - y_lo)
        return (
            top - share * (top - bottom) if series.y_reversed else bottom + share * (top - bottom)
        )

    for v, label in zip(yt, y_labels, strict=True):
        d.add(Line(left, py(v), right, py(v), strokeColor=GRID, strokeWidth=0.5))
        d.add(_text(left - 4, py(v) - TICK_SIZE * 0.35, label, TICK_SIZE, "end"))
    for v in xt:
        d.add(Line(px(v), frame_bottom, px(v), frame_bottom - 3, strokeColor=INK,
                   strokeWidth=0.6))  # fmt: skip
        d.add(_text(px(v), frame_bottom - 3 - TICK_SIZE * 1.1, str(v), TICK_SIZE, "middle"))
    d.add(Rect(left, frame_bottom, right - left, frame_top - frame_bottom, fillColor=None,
               strokeColor=INK, strokeWidth=0.8))  # fmt: skip
    x_label, x_size = _fitted(t(series.x_key, lang), LABEL_SIZE, right - left)
    d.add(_text((left + right) / 2, legend_h + 8, x_label, x_size, "middle"))
    y_label, y_size = _fitted(t(series.y_key, lang), LABEL_SIZE, top - bottom)
    turned = Group(_text(0, 0, y_label, y_size, "middle"))
    turned.transform = (0, 1, -1, 0, LABEL_SIZE * 0.9, (top + bottom) / 2)
    d.add(turned)
    wide = widths(series, LINE_WIDTH, TIE_WIDTH, CASING)
    for i, (line, look) in enumerate(zip(series.lines, looks(series), strict=True)):
        shift = dodge(i, len(series.lines), step_pt) * (span + 2 * pad) / plot_w
        _draw_line(d, series, look, line, px, py, shift, size, wide[i])
    return d


def _draw_line(
    d: Drawing,
    series: ChartSeries,
    look: Look,
    line: ChartLine,
    px: Callable[[float], float],
    py: Callable[[float], float],
    shift: float,
    size: float,
    width: float = LINE_WIDTH,
) -> None:
    """One seat's line (broken where it has no value), ``width`` points wide (wider under a
    line that shares its values), then its markers on top."""
    ink, shape, dash = look
    colour = colors.HexColor(ink.fill)
    runs: list[list[tuple[float, float]]] = [[]]
    for x, v in zip(series.x, line.values, strict=True):
        if v is None:
            runs.append([])
            continue
        here = (px(x + shift), py(v))
        if series.step and runs[-1]:  # money holds until it changes: a staircase
            runs[-1].append((here[0], runs[-1][-1][1]))
        runs[-1].append(here)
    for run in runs:
        if len(run) > 1:
            for stroke, wide in _strokes(ink, width):
                d.add(PolyLine([c for p in run for c in p], strokeColor=stroke, strokeWidth=wide,
                               strokeDashArray=list(dash) or None, strokeLineJoin=1))  # fmt: skip
    for x, v in zip(series.x, line.values, strict=True):
        if v is not None:
            d.add(_marker(shape, px(x + shift), py(v), size, colour, ink.edge))
