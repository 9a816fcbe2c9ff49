"""Issue 28 §2 "colours that match": every race chart's line and every chance bar is drawn in
its piece's own colour (the car's, team's, stable's, counter's or horse's, as the seeds give
it: a red car's line is that red, not the palette's vermillion that reads as the orange car;
purple and pink stay apart), with a dash and marker shape of its own for colour-blind
readers; on the table page (the Vega-Lite spec), the live view (its SVG and bars) and paper.
The seeds' colours are read here from ``seeds/*.toml``, not through the code under test."""

from __future__ import annotations

import colorsys
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest

from aids.games.base import VIEWER
from aids.games.chances import Estimate
from aids.games.grand_national import engine
from aids.games.series import Line, Series, series_for
from aids.live.render import render
from aids.live.svg import chart_svg
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.tables.chances import Chances
from aids.ui.charts import chart_spec
from aids.ui.context import TableContext
from aids.ui.insights import _bars
from tests.e2e.frame_scenes import KINDS, finished

SEEDS = Path(__file__).parents[2] / "seeds"
#: where each game's setup lists its seats, and the seed list their colours come from
PIECES = {
    "derby": ("players", "derby", "counter_colours"),
    "ekiden": ("teams", "ekiden", "colours"),
    "rally": ("players", "rally", "colours"),
    "gn": ("stables", "gn", "colours"),
}
HEX = re.compile(r"#[0-9A-Fa-f]{6}")


def seed_hex(seed: str, table: str, key: str) -> str:
    """A colour key's ``#RRGGBB`` as the seed file gives it."""
    raw = tomllib.loads((SEEDS / f"{seed}.toml").read_text(encoding="utf-8"))
    return next(c["hex"] for c in raw[table] if c["key"] == key).upper()


def contrast(hex_colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 1.05 / (0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b) + 0.05)


def hue(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(r, g, b)[0] * 360


@pytest.fixture(scope="module")
def service() -> TableService:
    return TableService(SqliteStore(Path(tempfile.mkdtemp()) / "c.sqlite3"), engines())


@pytest.fixture(scope="module")
def tables(service: TableService) -> dict[str, str]:
    """One finished table of each game (its public id)."""
    return {kind: finished(service, kind)[0] for kind in KINDS}


def own_colours(service: TableService, pid: str) -> list[str]:
    """Each seat's piece's own colour, from the table's setup and the seeds."""
    snap = service.snapshot(pid, VIEWER)
    seats, seed, table = PIECES[snap.info.kind]
    setup = service.game(snap.info.kind).setup_to_dict(snap.state.setup)
    return [seed_hex(seed, table, s["colour"]) for s in setup[seats]]


def series_of(service: TableService, pid: str) -> Series:
    snap = service.snapshot(pid, VIEWER)
    series = series_for(service.game(snap.info.kind), snap.history)
    assert series is not None and series.x
    return series


def layer_channel(spec: dict[str, Any], name: str) -> dict[str, Any]:
    return next(
        dict(layer["encoding"][name])
        for layer in spec["layer"]
        if layer["encoding"].get(name, {}).get("legend") is not None
    )


# --- lines -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_each_line_is_its_pieces_own_colour_in_the_series_and_the_pages_chart(
    service: TableService, tables: dict[str, str], kind: str
) -> None:
    """A seat's line and markers are its piece's colour as the seeds give it (a red counter's
    #E53935, a red car's #D32F2F — not Okabe–Ito's #D55E00), each with a dash and a marker
    shape no other line has."""
    pid = tables[kind]
    want = own_colours(service, pid)
    series = series_of(service, pid)
    assert [(line.colour or "").upper() for line in series.lines] == want
    spec = chart_spec(series, "en").to_dict()
    assert layer_channel(spec, "color")["scale"]["range"] == want
    for name in ("shape", "strokeDash"):
        looks = [str(v) for v in layer_channel(spec, name)["scale"]["range"]]
        assert len(set(looks)) == len(looks), (name, looks)


@pytest.mark.parametrize("kind", KINDS)
def test_each_line_is_its_pieces_own_colour_in_the_live_views_svg(
    service: TableService, tables: dict[str, str], kind: str
) -> None:
    """The live view's chart: each seat's legend sample and line are in its piece's colour
    (a pale one, the Grand National's white stable, cased in a darker ink of its hue), the
    dash patterns and marker shapes all different."""
    pid = tables[kind]
    snap = service.snapshot(pid, VIEWER)
    want = own_colours(service, pid)
    svg = render(snap, service.game(kind), "en").sections["chart"]  # type: ignore[arg-type]
    items = re.findall(r"<li>(.*?)</li>", svg)
    assert len(items) == len(snap.seats)
    dashes, shapes = [], []
    for item, name, colour in zip(items, snap.seats, want, strict=True):
        assert item.endswith(name)
        strokes = re.findall(r'stroke="(#[0-9A-Fa-f]{6})" stroke-width="2.5"', item)
        assert [s.upper() for s in strokes] == [colour], (kind, name, item)
        dashes.append(re.search(r'stroke-dasharray="([^"]*)"', item))
        shapes.append(re.sub(r"[\d.]+", "", item.split("</svg>")[0].split("/>", 1)[-1]))
        if contrast(colour) < 2:  # pale: a casing of its own hue, dark enough to read
            rim = re.search(r'stroke="(#[0-9A-Fa-f]{6})" stroke-width="4.5"', item)
            assert rim and contrast(rim[1]) >= 3, item
    assert len({d[1] if d else "" for d in dashes}) == len(items)
    assert len(set(shapes)) == len(items), shapes
    plot = svg.split("</svg>")[0]
    drawn = {c.upper() for c in re.findall(r'<polyline[^>]*stroke="(#[0-9A-Fa-f]{6})"', plot)}
    assert set(want) <= drawn
    assert not drawn - set(want) - {c for c in drawn if contrast(c) >= 3 and c not in want}


# --- equal lines ----------------------------------------------------------------------------

SAME = (100, 100, 100, 180)
RED, BLUE, GREEN, YELLOW = "#D32F2F", "#1565C0", "#2E7D32", "#F9A825"  # the seeds' stables
TIED = Series(
    "gn.charts.title", "gn.charts.x", "gn.charts.y", "gn.charts.legend", (0, 1, 2, 3),
    (Line("Aki", SAME, colour=RED), Line("Ben", (90, 90, 90, 60), colour=BLUE),
     Line("Chie", SAME, colour=GREEN), Line("Dai", SAME, colour=YELLOW)),
    step=True, money=True,
)  # fmt: skip


def test_equal_lines_all_show_on_the_page() -> None:
    """Issue 28 §2 "hides an equal line": three stables with the same money all game — each
    line is drawn wider than every equal one over it (a pale one's casing included), in a
    dash of its own, so all show; the values are not moved."""
    spec = chart_spec(TIED, "en").to_dict()
    width: dict[str, float] = {}
    for layer in spec["layer"]:
        only = layer.get("transform", [{}])[0].get("filter", {}).get("oneOf")
        if layer["mark"]["type"] == "line" and only and len(only) == 1:
            width[only[0]] = max(width.get(only[0], 0), layer["mark"]["strokeWidth"])
    assert width["Aki"] > width["Chie"] > width["Dai"], width
    dash = dict(zip(*(layer_channel(spec, "strokeDash")["scale"][k] for k in ("domain", "range")),
                    strict=True))  # fmt: skip
    assert len({str(dash[n]) for n in ("Aki", "Chie", "Dai")}) == 3
    rows = spec["datasets"][spec["data"]["name"]]
    assert {r["y"] for r in rows if r["name"] in ("Aki", "Chie", "Dai")} == set(SAME)


def test_equal_lines_all_show_in_the_live_view() -> None:
    """The live view's SVG: each under line wider than every equal one over it (the yellow
    one's casing included), other dashes, and the last markers drawn side by side at the
    same height (their value unchanged)."""
    svg = chart_svg(TIED, "en").split("</svg>")[0]
    lines = re.findall(r'<polyline points="([^"]+)" stroke="(#\w+)" stroke-width="([\d.]+)"'
                       r'( stroke-dasharray="[^"]*")?', svg)  # fmt: skip
    owner = {RED: "Aki", BLUE: "Ben", GREEN: "Chie", YELLOW: "Dai"}
    outer: dict[str, float] = {}
    points, dashes = {}, {}
    for pts, colour, wide, dash in lines:
        who = owner.get(colour.upper(), "Dai")  # the yellow line's casing: a darker yellow
        outer[who] = max(outer.get(who, 0), float(wide))
        if colour.upper() in owner:
            points[who], dashes[who] = pts, dash
    assert points["Aki"] == points["Chie"] == points["Dai"]  # the same points: not moved
    assert outer["Aki"] > outer["Chie"] > outer["Dai"], outer
    assert len({dashes[n] for n in ("Aki", "Chie", "Dai")}) == 3
    marks = re.findall(r'<g fill="(#\w+)" stroke="#\w+">(.*?)</g>', svg)
    ends = {fill.upper(): tuple(re.findall(r"-?\d+", body)) for fill, body in marks}
    assert len({ends[RED], ends[GREEN], ends[YELLOW]}) == 3


# --- the Grand National's money by round -----------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_gn_money_is_plotted_by_round(
    service: TableService, tables: dict[str, str], lang: str
) -> None:
    """Issue 28 §2 "plotted by action count … plot it by round": the x points are the rounds
    0 (before the race) to the round the race ended in, one each; the money before the last
    round is the money the race started with (money moves at the settlement), and the last
    point holds the settled money. The axis says so."""
    pid = tables["gn"]
    snap = service.snapshot(pid, VIEWER)
    series = series_of(service, pid)
    last = snap.history[-1].round
    assert series.x == tuple(range(last + 1))
    start = next(s for s in reversed(snap.history) if s.round == 0)  # the race about to run
    for seat, line in enumerate(series.lines):
        assert line.values[:last] == (engine.cash(start, seat),) * last
        assert line.values[-1] == engine.cash(snap.history[-1], seat)
    assert any(line.values[-1] != line.values[0] for line in series.lines)  # settled
    spec = chart_spec(series, lang).to_dict()
    rows = spec["datasets"][spec["data"]["name"]]
    assert sorted({r["x"] for r in rows}) == list(range(last + 1))
    title = spec["layer"][0]["encoding"]["x"]["title"]
    assert ("Round" in title) if lang == "en" else ("ラウンド" in title), title


# --- chance bars -----------------------------------------------------------------------------


def expected_bar(kind: str, state: Any, group: str, index: int) -> str | None:
    """The colour a figure's bar must be: its piece's own (None: no piece colour)."""
    setup = state.setup
    if kind == "derby":
        if group == "horse":
            return seed_hex("derby", "horse_colours", setup.horses[index].colour)
        return seed_hex("derby", "counter_colours", setup.players[index].colour)
    if kind == "ekiden":
        return seed_hex("ekiden", "colours", setup.teams[index].colour)
    if kind == "gn":
        seat = index if group == "money" else index // 4  # four horses a stable
        return seed_hex("gn", "colours", setup.stables[seat].colour)
    if group.startswith("team"):
        return None
    return seed_hex("rally", "colours", setup.players[index].colour)


def bar_colours(html: str) -> list[tuple[str, str]]:
    """(row name, bar background) of every bar, in order."""
    return re.findall(
        r'<th scope="row">([^<]*)</th><td class="bar"><(?:i|span) style="[^"]*background:'
        r"(#[0-9A-Fa-f]{6})",
        html,
    )


@pytest.mark.parametrize("kind", KINDS)
def test_each_chance_bar_is_its_pieces_own_colour(
    service: TableService, tables: dict[str, str], kind: str
) -> None:
    """Every chance bar, on the table page and on the live view, is in its piece's colour:
    a horse's in its own (the Derby's) or its stable's (the Grand National's), a player's in
    their counters' or car's, a team's in its pieces'. A team of cars has no colour of its
    own: its bar takes an ink that is no car's."""
    pid = tables[kind]
    snap = service.snapshot(pid, VIEWER)
    game = service.game(kind)
    model = game.chances(snap.history)
    assert model is not None
    state = snap.state
    measures = model.measures(state)
    n = len(measures)
    est = Estimate(measures, tuple((i + 1) / (n + 1) for i in range(n)), (0.0,) * n, 0, True,
                   0.0, model.model)  # fmt: skip
    want: dict[str, str | None] = {}
    for m in measures:
        label = model.label(state, m, "en")
        want.setdefault(f"{m.group}:{label}", expected_bar(kind, state, m.group, m.index))
    ctx = TableContext(snap, None, game, "en")
    page = _bars(ctx, est)
    figures = Chances(est, False, snap.seq)
    live = render(snap, game, "en", figures).sections["chances"]  # type: ignore[arg-type]
    pieces = {c for c in want.values() if c}
    shown = [g for g in model.groups if any(m.group == g for m in measures)]
    for html in (page, live):
        groups = re.split(r"<caption>|<h3>", html)[1:]
        assert len(groups) == len(shown)
        seen = 0
        for part, group in zip(groups, shown, strict=True):
            for name, colour in bar_colours(part):
                expected = want[f"{group}:{name}"]
                if expected is None:
                    assert colour.upper() not in pieces, (kind, group, name, colour)
                else:
                    assert colour.upper() == expected, (kind, group, name, colour)
                seen += 1
        assert seen == n, (seen, n)
