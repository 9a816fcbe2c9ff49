"""An event's printables read back: the standings sheet (A4 portrait, ja and en) scans to the
event's page, states the rule and lists players in rank order and every table with its
status; the event pack is each table's own sheets under its own header (its QR code to that
table), then the standings sheet."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
import zxingcpp
from pypdf import PdfReader

from aids.core.links import meet_url, viewer_url
from aids.meets import MeetService
from aids.print.frame import render_sheet
from aids.print.meet_sheet import render_meet_pack, render_standings
from aids.registry import engines, sheet_module
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.meets.helpers import sprint_in_meet
from tests.print.tables import hand_worked

BASE = "http://192.168.10.5:8501"
LONG = "長" * 40  # the longest name a table allows


@cache
def night(folder: Path) -> tuple[MeetService, str]:
    """An event of a finished Derby (the hand-worked race) and two fake-game tables, one
    finished with a tie for second, one in play. (The fake game is registered by the
    ``event`` fixture, for the test only.)"""
    meets = MeetService(TableService(SqliteStore(folder / "night.sqlite3"), engines()))
    info, key = meets.create("金曜レースナイト Friday", "2025-03-07")
    derby = hand_worked(meets.tables)
    meets.add_table(info.public_id, None, derby.info.public_id, host=True)  # the host's tool
    sprint_in_meet(meets, info.public_id, key, "Heat", ["A", "Dai", LONG], [3, 1, 1])
    sprint_in_meet(meets, info.public_id, key, "Open", ["A", "Emi"], [2, None])
    return meets, info.public_id


@pytest.fixture
def event(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("AIDS_GAME_PLUGINS", "tests.fakegame.plugin")
    folder = tmp_path_factory.getbasetemp() / "meet-sheet"
    folder.mkdir(exist_ok=True)
    return night(folder)


def parts(meets: MeetService, pid: str) -> tuple[Any, Any, Any]:
    tables = meets.tables_of(pid)
    return meets.info(pid), tables, meets.standings(pid, tables)


def pages_text(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def qr_on(pdf: bytes, page: int) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    image = doc[page].render(scale=200 / 72).to_pil()
    return [r.text for r in zxingcpp.read_barcodes(image)]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_standings_sheet_scans_to_the_event_page_and_prints_its_link(event: Any, lang: str) -> None:
    meets, pid = event
    pdf = render_standings(*parts(meets, pid), BASE, lang)
    link = meet_url(BASE, pid, lang)
    assert qr_on(pdf, 0) == [link]
    assert link in "".join(pages_text(pdf)[0].split())  # printed beside the code, wrapped
    width, height = PdfReader(io.BytesIO(pdf)).pages[0].mediabox[2:]
    assert (round(float(width)), round(float(height))) == (595, 842)  # A4 portrait


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_standings_sheet_states_the_rule_and_ranks_players_with_ties_shared(
    event: Any, lang: str
) -> None:
    meets, pid = event
    info, tables, rows = parts(meets, pid)
    text = pages_text(render_standings(info, tables, rows, BASE, lang))[0]
    rule = "10・6・4・3・2・1" if lang == "ja" else "10, 6, 4, 3, 2, 1"
    assert rule in text
    # Dai and the long name tied for second at Heat: both get second place's 6 points
    tied = [r for r in rows if r.name in ("Dai", LONG)]
    assert [(r.rank, r.points) for r in tied] == [(tied[0].rank, 6), (tied[0].rank, 6)]
    lines = [line.strip() for line in text.splitlines()]
    positions = [lines.index(r.name) for r in rows]
    assert positions == sorted(positions) and len(rows) == 6


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_standings_sheet_lists_every_table_with_its_status(event: Any, lang: str) -> None:
    meets, pid = event
    info, tables, rows = parts(meets, pid)
    text = pages_text(render_standings(info, tables, rows, BASE, lang))[0].replace("\n", "")
    for status in tables:
        assert status.title in text
    assert ("終了" if lang == "ja" else "Finished") in text
    assert ("手番: Emi" if lang == "ja" else "to move: Emi") in text


def test_event_pack_is_each_tables_own_sheets_then_the_standings(event: Any) -> None:
    meets, pid = event
    info, tables, rows = parts(meets, pid)
    pack = render_meet_pack(info, tables, rows, BASE, "en")
    own = [
        render_sheet(sheet_module(s.kind), engines()[s.kind], s.snapshot, BASE, "en")
        for s in tables
    ]
    counts = [len(PdfReader(io.BytesIO(pdf)).pages) for pdf in own]
    pages = pages_text(pack)
    assert len(pages) == sum(counts) + 1
    first = 0
    for status, count, pdf in zip(tables, counts, own, strict=True):
        # the table's first page: its own header and QR code, as its own sheet prints it
        assert qr_on(pack, first) == [viewer_url(BASE, status.public_id, "en")]
        assert pages[first] == pages_text(pdf)[0]
        first += count
    assert qr_on(pack, first) == [meet_url(BASE, pid, "en")]
    assert "Standings" in pages[first]


def test_event_pack_of_an_event_without_tables_is_the_standings_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    meets = MeetService(TableService(SqliteStore(tmp_path / "e.sqlite3"), engines()))
    info, _ = meets.create("Empty", "2025-03-07")
    pdf = render_meet_pack(*parts(meets, info.public_id), BASE, "ja")
    assert len(pages_text(pdf)) == 1 and qr_on(pdf, 0) == [meet_url(BASE, info.public_id, "ja")]
