"""A chart's lines in the pieces' own colours, on paper (issue 19: "chart colours are not the
pieces' colours (a red car drawn blue), on pages and in reports"; issue 28: "a red car's line
is vermillion and reads as the orange car's": the seeds' own colours): the post-game report of a
finished table of every game read back from its PDF (the stroke colours in page one's
content stream with pypdf, the pixels with pypdfium2), and a drawing whose lines are told
apart by their height, so each line's colour is read where it is drawn."""

from __future__ import annotations

import io
import re
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Circle, Polygon, PolyLine
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from aids.games.base import VIEWER
from aids.games.series import Line, Series
from aids.print.charts import drawing
from aids.print.report import render_report
from aids.registry import engines, sheet_module
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.frame_scenes import KINDS, finished
from tests.print.pdf_layout import texts

# Okabe & Ito's inks, written out here (not read from the code under test)
OKABE_ITO = {
    "vermillion": "#D55E00",
    "orange": "#E69F00",
    "yellow": "#F0E442",
    "bluish_green": "#009E73",
    "blue": "#0072B2",
    "sky_blue": "#56B4E9",
    "reddish_purple": "#CC79A7",
}
# the seeds' colours of cars, teams and stables (the Derby's counters below)
PIECE = {
    "red": "#D32F2F",
    "blue": "#1565C0",
    "green": "#2E7D32",
    "yellow": "#F9A825",
    "purple": "#6A1B9A",
    "white": "#F5F5F5",
}
COUNTERS = {"red": "#E53935", "blue": "#1E88E5", "green": "#43A047"}
CASING = "#757575"  # the white stable's: a darker grey
SEATS = {"derby": "players", "ekiden": "teams", "rally": "players", "gn": "stables"}


def rgb(hex_colour: str) -> tuple[int, int, int]:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return r, g, b


def strokes(pdf: bytes, page: int = 0) -> set[tuple[int, int, int]]:
    """The stroke colours (``r g b RG``) a page's content stream sets, as 0–255 triples."""
    content = PdfReader(io.BytesIO(pdf)).pages[page].get_contents()
    assert content is not None
    found = re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) RG", content.get_data().decode("latin-1"))
    return {
        (round(float(r) * 255), round(float(g) * 255), round(float(b) * 255)) for r, g, b in found
    }


def pixels_near(pdf: bytes, colour: str, page: int = 0) -> int:
    image = pdfium.PdfDocument(pdf)[page].render(scale=150 / 72).to_pil().convert("RGB")
    raw = image.tobytes()
    want = rgb(colour)
    return sum(
        1
        for p in zip(raw[0::3], raw[1::3], raw[2::3], strict=True)
        if sum(abs(a - b) for a, b in zip(p, want, strict=True)) < 40
    )


def legend_sample(pdf: bytes, name: str, inks: list[str]) -> dict[str, int]:
    """The pixels of each ink in the legend's sample beside ``name`` (the stretch of line
    and marker drawn just left of the label), the page rendered at 150 dpi; of the places
    the name is printed, the one with the most coloured pixels there (the legend's)."""
    page = pdfium.PdfDocument(pdf)[0]
    scale = 150 / 72
    height = page.get_height()
    image = page.render(scale=scale).to_pil().convert("RGB")
    best: dict[str, int] = {ink: 0 for ink in inks}
    for text in texts(pdf):
        if not text.text.startswith(name) or text.continues:
            continue
        middle = (text.box.y0 + text.box.y1) / 2
        box = (text.box.x0 - 34, height - middle - 4, text.box.x0 - 4, height - middle + 4)
        crop = image.crop(tuple(round(v * scale) for v in box))
        raw = crop.tobytes()
        found = list(zip(raw[0::3], raw[1::3], raw[2::3], strict=True))
        counts = {
            ink: sum(
                1 for p in found if sum(abs(a - b) for a, b in zip(p, rgb(ink), strict=True)) < 60
            )
            for ink in inks
        }
        if sum(counts.values()) > sum(best.values()):
            best = counts
    return best


@pytest.fixture(scope="module")
def service() -> TableService:
    return TableService(SqliteStore(Path(tempfile.mkdtemp()) / "c.sqlite3"), engines())


@pytest.mark.parametrize("kind", KINDS)
def test_the_reports_chart_draws_each_seat_in_its_pieces_colour(
    service: TableService, kind: str
) -> None:
    """Every seat's piece colour as the seeds give it (red, blue, green; the Grand National's
    second stable is white) is a line's colour on the report's first page, cased in a darker
    ink when pale, no line takes Okabe–Ito's ink for a colour, and the legend's sample beside
    each seat's name is drawn in that seat's own colour."""
    pid, _ = finished(service, kind)
    snap = service.snapshot(pid, VIEWER)
    game = service.game(kind)
    pieces = [s["colour"] for s in game.setup_to_dict(snap.state.setup)[SEATS[kind]]]
    pdf = render_report(game, sheet_module(kind), snap, "http://192.168.1.2:8501", "en")
    drawn = strokes(pdf)
    own = COUNTERS if kind == "derby" else PIECE
    inks = {own[p] for p in pieces}
    for ink in inks:
        assert rgb(ink) in drawn, (kind, pieces, ink)
    assert not {rgb(c) for c in OKABE_ITO.values()} & drawn, f"{kind}: a palette's ink drawn"
    if "white" in pieces:
        assert rgb(CASING) in drawn
    for name, piece in zip(snap.seats, pieces, strict=True):
        counts = legend_sample(pdf, name, [*(inks - {PIECE["white"]}), CASING])  # not paper
        want = CASING if piece == "white" else own[piece]  # white: its darker casing shows
        assert counts[want] > 8, (kind, name, piece, counts)
        assert all(n < counts[want] / 4 for c, n in counts.items() if c != want), counts


def test_each_line_is_drawn_in_its_own_pieces_colour_where_it_runs() -> None:
    """Lines told apart by height (seat i at 10 × (i + 1)): the markers at each height are
    filled with that seat's piece colour, whatever the seat's place (the palette's order
    gave seat 1 blue, so a red car in seat 1 was drawn blue); a white stable's markers are
    white with a darker rim and its line cased in it."""
    colours = ["red", "blue", "white", "green", "yellow"]
    lines = tuple(
        Line(f"P{i}", (10 * (i + 1),) * 3, colour=PIECE[c]) for i, c in enumerate(colours)
    )
    series = Series("gn.charts.title", "gn.charts.x", "gn.charts.y", "gn.charts.legend",
                    (1, 2, 3), lines, y_domain=(0, 60))  # fmt: skip
    d = drawing(series, "en", 500.0, 320.0)
    heights: dict[int, set[str]] = {}  # marker fills by height
    rims: dict[int, set[str]] = {}
    for m in _shapes(d):
        if isinstance(m, Circle | Polygon):
            y = round(m.cy if isinstance(m, Circle) else sum(m.points[1::2]) / len(m.points) * 2)
            heights.setdefault(y, set()).add(m.fillColor.hexval())
            rims.setdefault(y, set()).add(m.strokeColor.hexval())
    # the plot's lines are the top heights, seat 0 the lowest; the legend's samples are below
    rows = sorted(heights)[-len(colours) :]
    assert [heights[y] for y in rows] == [{f"0x{PIECE[c][1:].lower()}"} for c in colours]
    assert rims[rows[colours.index("white")]] == {f"0x{CASING[1:].lower()}"}
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=A4)
    renderPDF.draw(d, canvas, 40, 400)
    canvas.showPage()
    canvas.save()
    assert rgb(CASING) in strokes(buf.getvalue())


def _shapes(node: object) -> list[object]:
    out: list[object] = []
    for child in getattr(node, "contents", []):
        out += _shapes(child) if getattr(child, "contents", None) is not None else [child]
    return out


def test_equal_lines_both_show_on_paper() -> None:
    """Issue 28 §2 "hides an equal line": two stables with the same money all game — on
    paper the first one's line is wider than the equal one drawn over it, in another dash,
    so both show; the third, apart, keeps the plain width."""
    same = (100, 100, 100, 180)
    lines = (Line("Aki", same, colour=PIECE["red"]), Line("Ben", (90, 90, 90, 60),
             colour=PIECE["blue"]), Line("Chie", same, colour=PIECE["green"]))  # fmt: skip
    series = Series("gn.charts.title", "gn.charts.x", "gn.charts.y", "gn.charts.legend",
                    (0, 1, 2, 3), lines, step=True, money=True)  # fmt: skip
    d = drawing(series, "en", 500.0, 320.0)
    widths: dict[str, list[float]] = {}
    dashes: dict[str, object] = {}
    for shape in _shapes(d):
        if isinstance(shape, PolyLine):
            colour = "#" + shape.strokeColor.hexval()[2:].upper()
            widths.setdefault(colour, []).append(shape.strokeWidth)
            dashes[colour] = shape.strokeDashArray
    red, blue, green = (widths[PIECE[c]] for c in ("red", "blue", "green"))
    assert min(red) > max(green) and max(blue) == max(green)
    assert dashes[PIECE["red"]] != dashes[PIECE["green"]]
