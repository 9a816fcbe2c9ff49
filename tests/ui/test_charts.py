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
from aids.games.base import VIEWER
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


@pytest.mark.parametrize("kind", KINDS)
def test_one_line_per_seat_each_with_its_own_colour_shape_and_dash(
    tables: tuple[TableService, dict[str, str]], kind: str
) -> None:
    service, pids = tables
    snap = service.snapshot(pids[kind], VIEWER)
    spec = spec_of(service, pids[kind], "en")
    enc = spec["encoding"]
    names = list(snap.seats)
    for channel in ("color", "shape", "strokeDash"):
        scale = enc[channel]["scale"]
        assert scale["domain"] == names, channel
        looks = [json.dumps(v) for v in scale["range"]]
        assert len(set(looks)) == len(names), f"{channel} repeats: {looks}"
        assert enc[channel]["field"] == "name"
    rows = rows_of(spec)
    assert {r["name"] for r in rows} == set(names)
    per_seat = {n: sum(r["name"] == n for r in rows) for n in names}
    assert len(set(per_seat.values())) == 1  # every seat has a value at every point
    assert spec["mark"]["type"] == "line" and spec["mark"]["point"]["filled"]


@pytest.mark.parametrize("kind", KINDS)
def test_title_axes_and_legend_are_in_the_readers_language(
    tables: tuple[TableService, dict[str, str]], kind: str
) -> None:
    service, pids = tables
    specs = {lang: spec_of(service, pids[kind], lang) for lang in LANGS}
    for lang, spec in specs.items():
        assert spec["title"] == t(f"{kind}.charts.title", lang)
        assert spec["encoding"]["x"]["title"] == t(f"{kind}.charts.x", lang)
        assert spec["encoding"]["y"]["title"] == t(f"{kind}.charts.y", lang)
        assert spec["encoding"]["color"]["legend"]["title"] == t(f"{kind}.charts.legend", lang)
        assert spec["encoding"]["color"]["legend"]["orient"] == "bottom"  # phones: below
    assert specs["ja"]["title"] != specs["en"]["title"]


def test_ekiden_standings_run_from_first_at_the_top(
    tables: tuple[TableService, dict[str, str]],
) -> None:
    service, pids = tables
    y = spec_of(service, pids["ekiden"], "ja")["encoding"]["y"]
    assert y["scale"]["reverse"] is True
    assert y["axis"]["values"] == [1, 2, 3, 4]


def test_gn_money_is_a_staircase_in_dollars(tables: tuple[TableService, dict[str, str]]) -> None:
    service, pids = tables
    spec = spec_of(service, pids["gn"], "en")
    assert spec["mark"]["interpolate"] == "step-after"
    assert spec["encoding"]["y"]["axis"]["format"] == "$,d"
    assert spec["encoding"]["y"]["scale"]["zero"] is False


def test_derby_tooltip_names_the_counters_still_in_the_race(
    tables: tuple[TableService, dict[str, str]],
) -> None:
    service, pids = tables
    for lang in LANGS:
        tips = spec_of(service, pids["derby"], lang)["encoding"]["tooltip"]
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
