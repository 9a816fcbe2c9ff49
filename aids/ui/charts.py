"""The race chart on the table page: Altair (Vega-Lite, which Streamlit ships).

The series comes from the game's own ``history`` module beside its engine
(``aids/games/<folder>/history.py``, found from the engine's package, as the registry finds
a game's folder), built from ``snapshot.history`` — the states this reader may see, each
already through ``view``. Lines look as on paper (``aids.print.charts.looks``): the seat's
piece's own colour (a red car's line is the car's red; a pale one cased in a darker ink of its
hue), a marker shape and a dash pattern each, so the chart reads without colour; equal values
stay visible (a line another runs over is drawn wider, ``print.charts.widths``, and markers
are set a little apart). Names no game.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

import altair as alt

# Loaded whole before any session draws a chart: Altair only looks for them among the loaded
# modules, and a second session could find one half-imported by the first.
import numpy  # noqa: F401
import pandas  # noqa: F401
import streamlit as st

from aids.core.i18n import t
from aids.games.series import series_for
from aids.print.charts import ChartSeries, looks, widths
from aids.ui.context import TableContext

PLOT_HEIGHT = 230  # pixels of the lines' own area on a phone (Streamlit fits the whole chart,
FRAME_HEIGHT = 110  # title, axis and legend title included, in the height it is given)
LEGEND_ROW = 24  # pixels per row of two names in the legend
DODGE = 0.012  # of the x axis's span, between two lines' markers (a few pixels on a phone)
SOLID = [1, 0]  # Vega-Lite's solid dash
LINE_WIDTH, TIE_WIDTH, CASING = 2.2, 3.0, 2.0  # pixels: a line, one under another, a casing
DENSE = 24  # points per line beyond which markers are drawn smaller


def _rows(series: ChartSeries, span: float) -> list[dict[str, Any]]:
    """One row per seat and point: the true x and value (for the tooltip) and the x where
    it is drawn (``xd``, set aside a little per line)."""
    count = len(series.lines)
    rows: list[dict[str, Any]] = []
    for i, line in enumerate(series.lines):
        shift = (i - (count - 1) / 2) * DODGE * span
        extra = line.extra or (None,) * len(series.x)
        for x, value, more in zip(series.x, line.values, extra, strict=True):
            if value is not None:  # a line is broken where it has no value
                row = {"x": x, "xd": x + shift, "y": value, "name": line.name}
                rows.append(row | ({"extra": more} if more is not None else {}))
    return rows


def chart_spec(series: ChartSeries, lang: str) -> alt.LayerChart:
    """The chart of ``series`` with every label in ``lang``: one line per seat in its
    piece's own colour (``print.charts.looks``), with markers of its own shape and a dash of
    its own (one legend over them, its samples rimmed as the markers are), a pale line
    (yellow, white) cased in a darker ink of its hue and its markers rimmed in it, and a
    tooltip. Layers: each seat's line in seat order (a pale one's casing under it), wider by
    a step for each later line that shares a value with it, so equal lines both show; then
    the markers (every layer gives the one legend, or none shows)."""
    names = [line.name for line in series.lines]
    styles = looks(series)
    xs = list(series.x) or [0]
    lo, hi = series.x_domain or (min(xs), max(xs))
    span = max(1, hi - lo)
    pad = span * (0.04 + DODGE * len(names) / 2)
    y_title, x_title, who = t(series.y_key, lang), t(series.x_key, lang), t(series.legend_key, lang)
    y_format = "$,d" if series.money else "d"
    height = PLOT_HEIGHT + FRAME_HEIGHT + LEGEND_ROW * math.ceil(len(names) / 2)
    ticks: dict[str, Any] = {"tickMinStep": 1}
    if series.x_domain:
        ticks = {"values": list(range(lo, hi + 1))}
    y_scale: dict[str, Any] = {"zero": not series.money, "nice": True}
    y_axis: dict[str, Any] = {"format": y_format, "tickMinStep": 1}
    if series.y_domain:
        y_lo, y_hi = series.y_domain
        y_scale = {"domain": [y_lo - 0.3, y_hi + 0.3], "nice": False, "zero": False}
        y_axis = {"format": "d", "values": list(range(y_lo, y_hi + 1))}
    tooltip = [
        alt.Tooltip("name:N", title=who),
        alt.Tooltip("x:Q", title=x_title, format="d"),
        alt.Tooltip("y:Q", title=y_title, format=y_format),
    ]
    if series.extra_key is not None:
        tooltip.append(alt.Tooltip("extra:Q", title=t(series.extra_key, lang), format="d"))
    legend = alt.Legend(
        title=who,
        orient="bottom",
        direction="horizontal",
        columns=2,
        labelLimit=130,
        symbolSize=110,
        symbolStrokeWidth=0.8,
    )

    def by_seat(values: list[Any]) -> alt.Scale:
        return alt.Scale(domain=names, range=values)

    interpolate: Literal["step-after", "linear"] = "step-after" if series.step else "linear"
    dashes = by_seat([list(d) or SOLID for _, _, d in styles])
    x_scale = alt.Scale(domain=[lo - pad, hi + pad], nice=False, zero=False)
    base = alt.Chart(alt.InlineData(values=_rows(series, span))).encode(
        x=alt.X("xd:Q", title=x_title, scale=x_scale, axis=alt.Axis(format="d", **ticks)),
        y=alt.Y(
            "y:Q",
            title=y_title,
            scale=alt.Scale(reverse=series.y_reversed, **y_scale),
            axis=alt.Axis(**y_axis),
        ),
        order=alt.Order("x:Q"),
        tooltip=tooltip,
    )
    by_name = {name: ink for name, (ink, _, _) in zip(names, styles, strict=True)}
    pale = [name for name in names if by_name[name].edge]
    plain = [name for name in names if name not in pale]

    def only(seats: list[str]) -> Any:
        return base.transform_filter(alt.FieldOneOfPredicate(field="name", oneOf=seats))

    # One legend over every layer (a channel without it in one layer hid it in all): the
    # markers' colour and shape, the lines' stroke (a pale line's is its darker casing, so
    # its sample is rimmed) and dash.
    fill = alt.Color("name:N", scale=by_seat([ink.fill for ink, _, _ in styles]), legend=legend)
    edge = by_seat([ink.edge or ink.fill for ink, _, _ in styles])
    stroke = alt.Stroke("name:N", scale=edge, legend=legend)
    dash = alt.StrokeDash("name:N", scale=dashes, legend=legend)
    shape = alt.Shape("name:N", scale=by_seat([m for _, m, _ in styles]), legend=legend)
    size = 70 if len(xs) <= DENSE else 30
    layers: list[Any] = []
    wide = widths(series, LINE_WIDTH, TIE_WIDTH, CASING)
    for name, (ink, _, pattern), width in zip(names, styles, wide, strict=True):
        # the line (a pale one's casing, wider, its stroke the legend's rim), then inside it
        line = only([name]).mark_line(
            strokeWidth=width + (CASING if ink.edge else 0), interpolate=interpolate
        )
        layers.append(line.encode(stroke=stroke, strokeDash=dash))
        if ink.edge:
            inner = only([name]).mark_line(
                strokeWidth=width, color=ink.fill, strokeDash=list(pattern) or SOLID,
                interpolate=interpolate,
            )  # fmt: skip
            layers.append(inner)
    rims: dict[str, list[str]] = {"white": plain}  # markers by rim: a pale one's its edge
    for name in pale:
        rims.setdefault(by_name[name].edge or "white", []).append(name)
    for rim, seats in rims.items():  # markers, rimmed
        if seats:
            point = only(seats).mark_point(
                size=size, filled=True, stroke=rim, strokeWidth=0.8, opacity=1
            )
            layers.append(point.encode(color=fill, shape=shape))
    chart: alt.LayerChart = (
        alt.layer(*layers)
        .properties(title=t(series.title_key, lang), height=height)
        .configure_legend(labelFontSize=12, titleFontSize=12)
    )
    return chart


def render_chart(ctx: TableContext) -> None:
    """The game's race chart for this reader, as wide as its column (a phone's screen); a
    one-line caption while there is nothing to chart yet. A game without a chart: nothing.

    The chart is built once per table, log position, reader's role and language and kept
    (``_SPECS``): a viewer's page is redrawn every second, and building and validating an
    Altair chart was most of a redraw's cost (``docs/crowd.md``)."""
    snapshot = ctx.snapshot
    key = (snapshot.info.public_id, snapshot.seq, str(snapshot.role), ctx.lang)
    with _LOCK:
        known = _SPECS.get(key)
    if known is None:
        series = series_for(ctx.game, snapshot.history)
        known = _Chart.of(series, ctx.lang)
        with _LOCK:
            _SPECS[key] = known
            while len(_SPECS) > KEEP:
                _SPECS.popitem(last=False)
    if known.spec is None:
        if known.empty:
            st.caption(t("charts.empty", ctx.lang))
        return
    st.vega_lite_chart(spec=known.spec, width="stretch", key="race_chart", alt=known.title)


@dataclass(frozen=True, slots=True)
class _Chart:
    """A chart as drawn: its Vega-Lite spec (None: no chart), its title, or nothing yet."""

    spec: dict[str, Any] | None
    title: str = ""
    empty: bool = False

    @classmethod
    def of(cls, series: ChartSeries | None, lang: str) -> _Chart:
        if series is None:
            return cls(None)
        if not series.x:
            return cls(None, empty=True)
        return cls(chart_spec(series, lang).to_dict(), t(series.title_key, lang))


KEEP = 256  # charts kept: a few per table (the newest position is what pages ask for)
_SPECS: OrderedDict[tuple[str, int, str, str], _Chart] = OrderedDict()
_LOCK = threading.Lock()
