"""Every text fits its box at the longest allowed input, read back from the PDF's positions.

Sheets: the blank one; finished races with five players whose names and horses' names are 40
characters (Latin ``W``, the widest letter, and Japanese), titles of 80 characters; a race in
progress with the lengths that broke the sheet before (a 24-character Japanese title, five
13-character Japanese names, "Christopher Johnson"). Each in both languages and on both papers.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from aids.core.links import viewer_url
from aids.print.fonts import CLOSING, OPENING
from aids.print.frame import MARGIN, page_size, qr_rect
from aids.tables import Snapshot
from tests.print.pdf_layout import (
    Box,
    crossing_texts,
    describe,
    lines,
    overlapping_texts,
    text_lines,
    texts,
)
from tests.print.tables import service_at, simulated
from tests.print.test_derby_sheet import BASE, decode_qr, sheet

CASES = ["blank", "latin_longest", "japanese_longest", "japanese_in_progress"]
LANGS = ["ja", "en"]
PAPERS = ["a4", "letter"]
Rendered = dict[tuple[str, str, str], bytes]


def _tables(folder: Path) -> dict[str, Snapshot | None]:
    service = service_at(folder)
    latin_players = ["Christopher Johnson"] + ["W" * 39 + c for c in "ABCD"]
    latin_horses = ["W" * 39 + c for c in "ABCDEFGH"]
    japanese_players = ["長" * 39 + c for c in "一二三四五"]
    japanese_horses = ["馬" * 39 + c for c in "一二三四五六七八"]
    in_progress = [c * 13 for c in "あいうえお"]
    return {
        "blank": None,
        "latin_longest": simulated(service, "W" * 80, latin_players, latin_horses, seed=5),
        "japanese_longest": simulated(
            service, "漢" * 80, japanese_players, japanese_horses, seed=3
        ),
        "japanese_in_progress": simulated(
            service,
            "金曜日のグランドナショナル・ダービー大会第十二回",
            in_progress,
            ["Christopher Johnson", *(f"馬の名前その{n}" for n in range(1, 8))],
            seed=11,
            actions=45,
        ),
    }


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Snapshot | None]:
    return _tables(tmp_path_factory.mktemp("fit"))


@pytest.fixture(scope="module")
def rendered(tables: dict[str, Snapshot | None]) -> Rendered:
    return {
        (case, lang, paper): sheet(tables[case], lang, paper)
        for case in CASES
        for lang in LANGS
        for paper in PAPERS
    }


def all_sheets() -> list[tuple[str, str, str]]:
    return [(c, lang, p) for c in CASES for lang in LANGS for p in PAPERS]


def page_of(paper: str) -> tuple[float, float]:
    from aids.games.derby import GAME

    return page_size(GAME, paper)


@pytest.mark.parametrize("key", all_sheets(), ids="-".join)
def test_sheet_stays_one_page(rendered: Rendered, key: tuple[str, str, str]) -> None:
    assert len(PdfReader(io.BytesIO(rendered[key])).pages) == 1


@pytest.mark.parametrize("key", all_sheets(), ids="-".join)
def test_no_text_enters_the_qr_code(rendered: Rendered, key: tuple[str, str, str]) -> None:
    found = texts(rendered[key])
    assert len(found) > 50
    qr = Box(*qr_rect(page_of(key[2])))
    assert [describe(t) for t in found if t.box.overlaps(qr, tol=0)] == []


@pytest.mark.parametrize("key", all_sheets(), ids="-".join)
def test_no_text_runs_past_the_page_margins(rendered: Rendered, key: tuple[str, str, str]) -> None:
    width, height = page_of(key[2])
    page = Box(MARGIN, MARGIN, width - MARGIN, height - MARGIN)
    assert [describe(t) for t in texts(rendered[key]) if not t.box.inside(page, tol=0.01)] == []


@pytest.mark.parametrize("key", all_sheets(), ids="-".join)
def test_no_text_crosses_a_cell_border(rendered: Rendered, key: tuple[str, str, str]) -> None:
    """Every cell of the grid and the score table is ruled: text that left its cell would
    cross a border (a name clipped by the score row's border, a horse name over the rows)."""
    assert len(lines(rendered[key])) > 50
    assert crossing_texts(rendered[key]) == []


@pytest.mark.parametrize("key", all_sheets(), ids="-".join)
def test_no_two_texts_overlap(rendered: Rendered, key: tuple[str, str, str]) -> None:
    """The title and the QR caption, the players' line and the how-to: never on each other."""
    assert overlapping_texts(rendered[key]) == []


@pytest.mark.parametrize("case", CASES[1:])
@pytest.mark.parametrize("paper", PAPERS)
def test_header_lists_every_full_name(
    rendered: Rendered, tables: dict[str, Snapshot | None], case: str, paper: str
) -> None:
    """Names cut with an ellipsis in the score table are printed in full in the header."""
    snapshot = tables[case]
    assert snapshot is not None
    qr_bottom = qr_rect(page_of(paper))[1]
    for lang in LANGS:
        header = [t for t in texts(rendered[case, lang, paper]) if t.box.y0 >= qr_bottom - 1]
        joined = "".join("".join(t.text.split()) for t in header)
        for name in (*snapshot.seats, snapshot.info.title):
            assert "".join(name.split()) in joined, (lang, name)


@pytest.mark.parametrize("paper", PAPERS)
def test_no_japanese_line_ends_with_an_opening_bracket(rendered: Rendered, paper: str) -> None:
    """Kinsoku: an opening bracket never ends a line, closing punctuation never starts one."""
    for case in CASES:
        found = [t.strip() for t in text_lines(rendered[case, "ja", paper])]
        assert any("（" in t for t in found)  # the rulings and the score headers have brackets
        assert [t for t in found if t[-1] in OPENING] == []
        assert [t for t in found if t[0] in CLOSING] == []


def test_long_header_keeps_the_qr_code_scannable(
    rendered: Rendered, tables: dict[str, Snapshot | None]
) -> None:
    snapshot = tables["japanese_longest"]
    assert snapshot is not None
    url = viewer_url(BASE, snapshot.info.public_id, "ja")
    assert decode_qr(rendered["japanese_longest", "ja", "a4"]) == [url]
