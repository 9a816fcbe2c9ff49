"""The race chart as vectors for the post-game report (``aids/print/charts.py``): each game's
chart of a table played through the real service, drawn into a real PDF, its text read back
by pypdf and its pixels by pypdfium2. The pictures are saved (``AIDS_SHOTS`` or
``output/screenshots/charts``) for a person to look at."""

from __future__ import annotations

import io
import os
import random
import re
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Circle, Drawing, Group, Polygon
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from aids.core.i18n import t
from aids.games.base import VIEWER
from aids.games.series import Line, Series, series_for
from aids.print.charts import drawing, looks
from aids.print.fonts import ELLIPSIS
from aids.registry import BUILT_IN, engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.games.test_conformance import open_table, play
from tests.print.pdf_layout import Box, overlapping_texts, text_lines, texts

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("AIDS_SHOTS", ROOT / "output" / "screenshots")) / "charts"
KINDS = [entry.kind for entry in BUILT_IN]
LANGS = ["ja", "en"]
AT = (40.0, 400.0)  # where the drawing sits on the page
SIZE = (500.0, 320.0)


@pytest.fixture(scope="module")
def charts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each game's series of a table played at random to its end, as a viewer reads it."""
    service = TableService(SqliteStore(tmp_path_factory.mktemp("pc") / "c.sqlite3"), engines())
    out: dict[str, Any] = {}
    for kind in KINDS:
        table = open_table(service, kind, 4)
        play(table, random.Random(3), undo_rate=0.0)
        snap = service.snapshot(table.pid, VIEWER)
        out[kind] = series_for(service.game(kind), snap.history)
        assert out[kind] is not None and not out[kind].empty
    return out


def pdf_of(d: Drawing) -> bytes:
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=A4)
    renderPDF.draw(d, canvas, *AT)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def area() -> Box:
    return Box(AT[0], AT[1], AT[0] + SIZE[0], AT[1] + SIZE[1])


def picture(pdf: bytes, name: str) -> Any:
    """The page at 150 dpi, cut to the drawing, saved as ``name``.png; the PIL image."""
    page = pdfium.PdfDocument(pdf)[0]
    scale = 150 / 72
    image = page.render(scale=scale).to_pil().convert("RGB")
    top = A4[1] - AT[1] - SIZE[1]
    box = (AT[0] * scale, top * scale, (AT[0] + SIZE[0]) * scale, (top + SIZE[1]) * scale)
    image = image.crop(tuple(int(v) for v in box))
    SHOTS.mkdir(parents=True, exist_ok=True)
    image.save(SHOTS / f"{name}.png")
    return image


def shapes(node: Any) -> list[Any]:
    out: list[Any] = []
    for child in getattr(node, "contents", []):
        out += shapes(child) if isinstance(child, Group) else [child]
    return out


def outline(marker: Circle | Polygon) -> Any:
    """A marker's shape whatever its size and place: its corners about its centre, scaled."""
    if isinstance(marker, Circle):
        return "circle"
    xs, ys = marker.points[0::2], marker.points[1::2]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    r = max(max(abs(x - cx) for x in xs), max(abs(y - cy) for y in ys))
    return frozenset(
        (round((x - cx) / r, 1), round((y - cy) / r, 1)) for x, y in zip(xs, ys, strict=True)
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_title_axis_labels_and_legend_names_are_printed_in_the_language(
    charts: dict[str, Any], kind: str, lang: str
) -> None:
    series = charts[kind]
    pdf = pdf_of(drawing(series, lang, *SIZE))
    found = text_lines(pdf)
    for key in (series.title_key, series.x_key, series.y_key, series.legend_key):
        assert t(key, lang) in found, (key, found)
    for name in series.names:
        assert any(line.startswith(name) for line in found), (name, found)
    if series.extra_key is not None:  # the Derby's counters still in the race, by name
        assert any(t(series.extra_key, lang) in line for line in found)
    picture(pdf, f"{kind}_{lang}")


@pytest.mark.parametrize("kind", KINDS)
def test_every_text_stays_inside_the_drawing_and_none_overlaps(
    charts: dict[str, Any], kind: str
) -> None:
    for lang in LANGS:
        pdf = pdf_of(drawing(charts[kind], lang, *SIZE))
        outside = [x.text for x in texts(pdf) if not x.box.inside(area())]
        assert outside == []
        assert overlapping_texts(pdf) == []


@pytest.mark.parametrize("kind", KINDS)
def test_each_line_has_its_own_colour_marker_shape_and_dash(
    charts: dict[str, Any], kind: str
) -> None:
    series = charts[kind]
    d = drawing(series, "en", *SIZE)
    markers: dict[str, set[Any]] = {}
    for shape in shapes(d):
        if isinstance(shape, Circle | Polygon) and shape.fillColor is not None:
            markers.setdefault(shape.fillColor.hexval(), set()).add(outline(shape))
    used = [f"0x{ink.fill[1:].lower()}" for ink, _, _ in looks(series)]
    assert all(len(markers[c]) == 1 for c in used)  # every marker of a line has one shape
    assert len({next(iter(markers[c])) for c in used}) == len(used)  # and no two lines share
    stream = PdfReader(io.BytesIO(pdf_of(d))).pages[0].get_contents()
    assert stream is not None
    content = stream.get_data().decode("latin-1")
    dashes = set(re.findall(r"\[([\d. ]*)\] [\d.]+ d", content))
    assert len(dashes) >= len(series.lines)  # a pattern per line (solid: [])


@pytest.mark.parametrize("kind", KINDS)
def test_every_line_shows_in_its_colour_when_printed(charts: dict[str, Any], kind: str) -> None:
    series = charts[kind]
    image = picture(pdf_of(drawing(series, "ja", *SIZE)), f"{kind}_colours")
    raw = image.tobytes()  # RGB, one byte a channel
    pixels = list(zip(raw[0::3], raw[1::3], raw[2::3], strict=True))
    for line, (ink, _, _) in zip(series.lines, looks(series), strict=True):
        colour = ink.edge or ink.fill  # a pale line (white on white paper) shows by its casing
        want = tuple(int(colour[k : k + 2], 16) for k in (1, 3, 5))
        near = sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, want, strict=True)) < 40)
        assert near > 40, (line.name, colour, near)


def long_series() -> Series:
    names = [f"{'とても長いチーム名' * 4}{i}"[:39] + str(i) for i in range(7)]
    x = tuple(range(1, 16))
    lines = tuple(Line(n, tuple(900 - 50 * r + 9 * i for r in x)) for i, n in enumerate(names))
    return Series("rally.charts.title", "rally.charts.x", "rally.charts.y", "rally.charts.legend",
                  x, lines)  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_seven_long_names_are_cut_to_fit_the_legend(lang: str) -> None:
    pdf = pdf_of(drawing(long_series(), lang, *SIZE))
    found = texts(pdf)
    assert [x.text for x in found if not x.box.inside(area())] == []
    assert overlapping_texts(pdf) == []
    legend = [x.text for x in found if x.text.startswith("とても")]
    assert len(legend) == 7 and all(text.endswith(ELLIPSIS) for text in legend)
    picture(pdf, f"long_names_{lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_a_series_with_no_points_yet_prints_the_note(lang: str) -> None:
    empty = Series("derby.charts.title", "derby.charts.x", "derby.charts.y",
                   "derby.charts.legend", (), (Line("Aki", ()), Line("Ben", ())))  # fmt: skip
    found = text_lines(pdf_of(drawing(empty, lang, *SIZE)))
    assert t("charts.empty", lang) in found and "Aki" in found
