"""The post-game report of a table: rendered and read back for every game in both languages —
the results in ranking order, the chart as vectors, the rulings, the game's own record, every
action, and the QR code back to the table."""

from __future__ import annotations

import io
import random
import re
import tempfile
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp
from pypdf import PdfReader, PdfWriter

from aids.core.i18n import t
from aids.core.links import viewer_url
from aids.games.base import REFEREE, VIEWER, Role
from aids.print.report import render_report
from aids.registry import BUILT_IN, engines, sheet_module
from aids.store.sqlite import SqliteStore
from aids.tables import Snapshot, TableService
from tests.print.pdf_layout import overlapping_texts

BASE = "http://192.168.10.5:8501"
KINDS = [e.kind for e in BUILT_IN]
NAMES = ["Aki", "Ben", "Chie", "Dai"]


@cache
def finished(kind: str) -> Snapshot:
    """A table of ``kind`` played to the end at random through the service (a viewer's view)."""
    service = TableService(SqliteStore(Path(tempfile.mkdtemp()) / "r.sqlite3"), engines())
    game = service.game(kind)
    seats = min(3, game.info.seats[1])
    setup = game.setup_to_dict(game.default_setup(NAMES[:seats], "en"))
    info, key = service.create(kind, "Friday night", setup)
    keys = {REFEREE: key}
    if game.info.seat_keys:  # a secret choice comes from its seat's own link
        for seat in range(seats):
            role = Role.seat_of(seat)
            keys[role] = service.rotate_key(info.public_id, key, role)
    rng = random.Random(5)
    for step in range(1500):
        snap = service.snapshot(info.public_id, REFEREE)
        if snap.outcome is not None:
            break
        actors = sorted(snap.to_move)
        # seats play at random; late in a long race the referee's own moves (ending the race
        # where the game has that) bring it to an end, as at a real table
        actor = rng.choice([a for a in actors if a != REFEREE] or actors)
        if step > 250 and REFEREE in actors:
            actor = REFEREE
        options = list(game.legal_actions(service.replay(info.public_id), actor))
        action = game.action_to_dict(rng.choice(options))
        service.record(info.public_id, keys.get(actor, key), snap.seq, action)
    return service.snapshot(info.public_id, VIEWER)


@cache
def report(kind: str, lang: str) -> bytes:
    snapshot = finished(kind)
    game = engines()[kind]
    return render_report(game, sheet_module(kind), snapshot, BASE, lang)


def first_page(pdf: bytes) -> bytes:
    writer = PdfWriter()
    writer.add_page(PdfReader(io.BytesIO(pdf)).pages[0])
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def text_of(pdf: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_report_holds_results_chart_rulings_record_and_every_action(
    kind: str, lang: str
) -> None:
    snapshot = finished(kind)
    assert snapshot.outcome is not None
    text = text_of(report(kind, lang))
    for key in ("report.results", "table.rulings"):
        assert t(key, lang) in text, key
    assert t(f"{kind}.report.score", lang) in text
    assert t(f"{kind}.outcome.{snapshot.outcome.reason}", lang)[:12] in text
    done = sum(1 for e in snapshot.log if e.kind == "action" and not e.undone)
    assert t("report.log", lang, count=done) in text
    assert re.search(rf"\b{done}\. ", text)  # the last action, numbered
    assert "report." not in text and f"{kind}.report" not in text  # no key left unsaid


@pytest.mark.parametrize("kind", KINDS)
def test_the_results_list_every_seat_in_ranking_order(kind: str) -> None:
    snapshot = finished(kind)
    assert snapshot.outcome is not None
    page = text_of(first_page(report(kind, "en")))
    page = page[page.index(t("report.results", "en")) :]  # past the header's list of players
    order = [snapshot.seats[s] for group in snapshot.outcome.ranking for s in group]
    found = sorted(order, key=lambda name: page.index(name))
    assert found == order


@pytest.mark.parametrize("kind", KINDS)
def test_the_qr_code_leads_back_to_the_table_and_nothing_overlaps(kind: str) -> None:
    pdf = report(kind, "ja")
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[0].render(scale=220 / 72).to_pil()
    finally:
        document.close()
    codes = [r.text for r in zxingcpp.read_barcodes(image)]
    assert codes == [viewer_url(BASE, finished(kind).info.public_id, "ja")]
    assert overlapping_texts(first_page(pdf)) == []


def test_the_log_says_a_coloured_symbol_in_words_not_an_empty_box() -> None:
    """The page's log marks colours with symbols the printed font lacks (🔴): the report
    writes the colour instead."""
    text = text_of(report("derby", "en"))
    log = text[text.index(t("report.log", "en", count=1).split("(")[0]) :]
    assert re.search(r"\[(red|blue|green|yellow|white|pink|brown|purple|black)\]", log)
    assert "\ufffd" not in log


@pytest.mark.parametrize("kind", ["derby", "rally"])
def test_a_score_of_one_point_is_singular(kind: str) -> None:
    """Report and results pages: a final score in points reads "1 pt" for one, "0 pts" and
    "1,200 pts" otherwise ("1 pts" was printed); Japanese has one form, 点."""
    from aids.print.report import score_words

    assert score_words(1, kind, "en") == "1 pt"
    assert [score_words(n, kind, "en") for n in (0, 2, 1200)] == ["0 pts", "2 pts", "1,200 pts"]
    assert [score_words(n, kind, "ja") for n in (1, 2)] == ["1点", "2点"]
    assert score_words(1, "gn", "en") == "$1"  # a unit with no singular: the one key
