"""The race chart on the page (``aids/ui/charts.py``): the Altair spec of each game's series,
and the chart drawn by Streamlit (AppTest) for a real table of each game on a real SQLite file.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from aids.core.i18n import t
from aids.games.base import REFEREE, VIEWER
from aids.games.series import series_for
from aids.registry import BUILT_IN, engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.ui.charts import chart_spec
from tests.games.test_conformance import open_table, play

KINDS = [entry.kind for entry in BUILT_IN]
LANGS = ["ja", "en"]


def finished(service: TableService, kind: str, seed: int = 1, seats: int = 3) -> str:
    """A table of ``kind`` played at random to its end through the service: its id."""
    table = open_table(service, kind, seats)
    play(table, random.Random(seed), undo_rate=0.0)
    return table.pid


def spec_of(service: TableService, pid: str, lang: str) -> dict[str, Any]:
    snap = service.snapshot(pid, VIEWER)
    series = series_for(service.game(snap.info.kind), snap.history)
    assert series is not None and series.x
    return chart_spec(series, lang).to_dict()


def rows_of(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The chart's data rows (Altair moves inline values into ``datasets``)."""
    data = spec["data"]
    return list(data["values"] if "values" in data else spec["datasets"][data["name"]])


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[TableService, dict[str, str]]:
    """One finished table per game, on one real SQLite file."""
    service = TableService(SqliteStore(tmp_path_factory.mktemp("charts") / "c.sqlite3"), engines())
    return service, {kind: finished(service, kind, seats=4) for kind in KINDS}


# --- the spec --------------------------------------------------------------------------------


def channel(spec: dict[str, Any], name: str) -> dict[str, Any]:
    """The encoding of ``name`` in the first layer that draws it with a legend (the chart
    is layered: casings of pale lines, lines, markers)."""
    for layer in spec["layer"]:
        found = layer["encoding"].get(name)
        if found is not None and found.get("legend") is not None:
            return dict(found)
    raise AssertionError(f"no layer draws {name}")


def mark_of(spec: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(layer["mark"] for layer in spec["layer"] if layer["mark"]["type"] == kind)


SEATS = {"derby": "players", "ekiden": "teams", "rally": "players", "gn": "stables"}


def piece_colours(service: TableService, pid: str) -> list[str]:
    """Each seat's colour key as the table's setup gives it (the game's own list of seats)."""
    snap = service.snapshot(pid, VIEWER)
    setup = service.game(snap.info.kind).setup_to_dict(snap.state.setup)
    return [seat["colour"] for seat in setup[SEATS[snap.info.kind]]]


@pytest.mark.parametrize("kind", KINDS)
def test_one_line_per_seat_each_with_its_own_colour_shape_and_dash(
    tables: tuple[TableService, dict[str, str]], kind: str
) -> None:
    service, pids = tables
    snap = service.snapshot(pids[kind], VIEWER)
    spec = spec_of(service, pids[kind], "en")
    names = list(snap.seats)
    for name in ("color", "shape", "strokeDash"):
        enc = channel(spec, name)
        assert enc["scale"]["domain"] == names, name
        looks = [json.dumps(v) for v in enc["scale"]["range"]]
        assert len(set(looks)) == len(names), f"{name} repeats: {looks}"
        assert enc["field"] == "name"
    rows = rows_of(spec)
    assert {r["name"] for r in rows} == set(names)
    per_seat = {n: sum(r["name"] == n for r in rows) for n in names}
    assert len(set(per_seat.values())) == 1  # every seat has a value at every point
    assert mark_of(spec, "line") and mark_of(spec, "point")["filled"]


# The seeds' colours of the pieces (issue 19: "a red car drawn blue"; issue 28: "a red car's
# line is vermillion and reads as the orange car's"): a piece's line is its own colour.
RED, BLUE, GREEN = "#D32F2F", "#1565C0", "#2E7D32"  # cars, teams, stables
COUNTERS = {"red": "#E53935", "blue": "#1E88E5", "green": "#43A047"}  # the Derby's counters
WHITE, WHITE_EDGE = "#F5F5F5", "#757575"  # a white stable and its casing (a darker grey)


@pytest.mark.parametrize("kind", KINDS)
def test_a_seats_line_is_drawn_in_its_pieces_colour(
    tables: tuple[TableService, dict[str, str]], kind: str
) -> None:
    """Issue 19: "chart colours are not the pieces' colours"; issue 28: "draw every line in
    the piece's own colour". Each seat's line (and its markers) is its car's, team's,
    stable's or counter's colour as the seeds give it, whatever the seat's place."""
    service, pids = tables
    spec = spec_of(service, pids[kind], "en")
    pieces = piece_colours(service, pids[kind])
    inks = dict(zip(channel(spec, "color")["scale"]["domain"],
                    channel(spec, "color")["scale"]["range"], strict=True))  # fmt: skip
    names = list(service.snapshot(pids[kind], VIEWER).seats)
    want = COUNTERS if kind == "derby" else {"red": RED, "blue": BLUE, "green": GREEN}
    checked = 0
    for name, piece in zip(names, pieces, strict=True):
        if piece in want:
            assert inks[name] == want[piece], (name, piece, inks[name])
            checked += 1
    assert checked >= 2
    points = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "point")
    assert points["encoding"]["color"]["scale"]["range"] == list(inks.values())


def test_colours_follow_the_pieces_not_the_seat_order(tmp_path: Path) -> None:
    """A blue car in seat 1 and a red one in seat 2 draw blue then red (the palette's order
    gave seat 1 blue whatever its car: a red car was drawn blue); a white stable's line is
    white in a darker casing, its markers rimmed in it, so it shows on the white page."""
    service = TableService(SqliteStore(tmp_path / "c.sqlite3"), engines())
    game = service.game("rally")
    setup = game.setup_to_dict(game.default_setup(["Aki", "Ben"], "en"))
    setup["players"][0]["colour"], setup["players"][1]["colour"] = "blue", "red"
    info, key = service.create("rally", "Swapped", setup)
    table_pid = info.public_id
    from tests.games.test_conformance import Table

    play(Table(service, game, table_pid, {REFEREE: key}), random.Random(1), undo_rate=0.0)
    spec = spec_of(service, table_pid, "en")
    assert channel(spec, "color")["scale"]["range"] == [BLUE, RED]

    gn = service.game("gn")
    gn_setup = gn.setup_to_dict(gn.default_setup(["Aki", "Ben"], "en"))
    assert [s["colour"] for s in gn_setup["stables"]] == ["red", "white"]
    table = open_table(service, "gn", 2)
    play(table, random.Random(1), undo_rate=0.0)
    spec = spec_of(service, table.pid, "en")
    fills = channel(spec, "color")["scale"]["range"]
    assert fills == [RED, WHITE]
    only_ben = [{"filter": {"field": "name", "oneOf": ["Ben"]}}]
    ben = [layer for layer in spec["layer"] if layer.get("transform") == only_ben]
    marks = {(m["type"], m.get("strokeWidth"), m.get("color"), m.get("stroke"))
             for m in (layer["mark"] for layer in ben)}  # fmt: skip
    assert ("line", 4.2, None, None) in marks  # the casing (its stroke: the scale's dark)
    assert ("line", 2.2, WHITE, None) in marks  # the white line inside it
    assert ("point", 0.8, None, WHITE_EDGE) in marks  # white markers rimmed dark
    assert channel(spec, "stroke")["scale"]["range"] == [RED, WHITE_EDGE]  # the legend's rims


@pytest.mark.parametrize("kind", KINDS)
def test_title_axes_and_legend_are_in_the_readers_language(
    tables: tuple[TableService, dict[str, str]], kind: str
) -> None:
    service, pids = tables
    specs = {lang: spec_of(service, pids[kind], lang) for lang in LANGS}
    for lang, spec in specs.items():
        assert spec["title"] == t(f"{kind}.charts.title", lang)
        for layer in spec["layer"]:
            assert layer["encoding"]["x"]["title"] == t(f"{kind}.charts.x", lang)
            assert layer["encoding"]["y"]["title"] == t(f"{kind}.charts.y", lang)
        assert channel(spec, "color")["legend"]["title"] == t(f"{kind}.charts.legend", lang)
        assert channel(spec, "color")["legend"]["orient"] == "bottom"  # phones: below
    assert specs["ja"]["title"] != specs["en"]["title"]


def test_ekiden_standings_run_from_first_at_the_top(
    tables: tuple[TableService, dict[str, str]],
) -> None:
    service, pids = tables
    y = spec_of(service, pids["ekiden"], "ja")["layer"][-1]["encoding"]["y"]
    assert y["scale"]["reverse"] is True
    assert y["axis"]["values"] == [1, 2, 3, 4]


def test_gn_money_is_a_staircase_in_dollars(tables: tuple[TableService, dict[str, str]]) -> None:
    service, pids = tables
    spec = spec_of(service, pids["gn"], "en")
    assert mark_of(spec, "line")["interpolate"] == "step-after"
    assert spec["layer"][-1]["encoding"]["y"]["axis"]["format"] == "$,d"
    assert spec["layer"][-1]["encoding"]["y"]["scale"]["zero"] is False


def test_derby_tooltip_names_the_counters_still_in_the_race(
    tables: tuple[TableService, dict[str, str]],
) -> None:
    service, pids = tables
    for lang in LANGS:
        tips = spec_of(service, pids["derby"], lang)["layer"][-1]["encoding"]["tooltip"]
        assert {"field": "extra", "format": "d", "title": t("derby.charts.extra", lang),
                "type": "quantitative"} in tips  # fmt: skip


def test_markers_of_equal_values_are_set_apart_but_the_tooltip_keeps_the_true_x(
    tables: tuple[TableService, dict[str, str]],
) -> None:
    service, pids = tables
    rows = rows_of(spec_of(service, pids["derby"], "en"))
    first = [r for r in rows if r["x"] == 1]
    assert len({r["xd"] for r in first}) == len(first)  # drawn side by side
    assert all(abs(r["xd"] - 1) < 0.2 for r in first)


# --- the page (AppTest) ----------------------------------------------------------------------


def chart_page() -> None:
    """The chart as the page frame draws it, for the table in the URL, as a viewer."""
    import streamlit as st

    from aids.games.base import VIEWER
    from aids.ui.charts import render_chart
    from aids.ui.common import lang, service
    from aids.ui.context import TableContext

    snap = service().snapshot(st.query_params["table"], VIEWER)
    render_chart(TableContext(snap, None, service().game(snap.info.kind), lang()))


def run_page(pid: str, lang: str) -> AppTest:
    at = AppTest.from_function(chart_page, default_timeout=60)
    at.query_params["table"] = pid
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_a_table_of_each_game_draws_its_chart_with_every_seat(
    app_db: Path, kind: str, lang: str
) -> None:
    service = TableService(SqliteStore(app_db), engines())
    pid = finished(service, kind, seed=2)
    at = run_page(pid, lang)
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1
    spec = json.loads(charts[0].proto.spec)
    assert spec["title"] == t(f"{kind}.charts.title", lang)
    assert charts[0].proto.alt == spec["title"]  # the chart's accessible name
    names = set(service.snapshot(pid).seats)
    shown: set[str] = set()
    for dataset in charts[0].proto.datasets:  # sent beside the spec, in Arrow's format
        shown |= set(pa.ipc.open_stream(dataset.data.data).read_all().column("name").to_pylist())
    assert names <= shown


@pytest.mark.parametrize("lang", LANGS)
def test_a_table_with_nothing_to_chart_yet_shows_one_caption(app_db: Path, lang: str) -> None:
    service = TableService(SqliteStore(app_db), engines())
    pid = open_table(service, "derby", 3).pid
    at = run_page(pid, lang)
    assert not at.get("vega_lite_chart")
    assert [c.value for c in at.caption] == [t("charts.empty", lang)]


@pytest.mark.usefixtures("with_fake_game")
def test_a_game_without_a_history_module_draws_no_chart(app_db: Path) -> None:
    service = TableService(SqliteStore(app_db), engines())
    info, _ = service.create("sprint", "Sprint", {"names": ["Aki", "Ben"]})
    at = run_page(info.public_id, "en")
    assert not at.get("vega_lite_chart") and not at.caption
