"""The Ekiden's sheets as printed: rendered by pypdfium2, QR read by zxing-cpp, text by pypdf."""

from __future__ import annotations

import io
import random

import pypdfium2 as pdfium
import pytest
import zxingcpp
from pypdf import PdfReader

from aids.core.links import viewer_url
from aids.games.base import VIEWER
from aids.games.ekiden import GAME, engine
from aids.games.ekiden.model import EkidenSetup, Terrain
from aids.print.ekiden import sheet as ekiden_sheet
from aids.print.frame import render_sheet
from aids.tables import Snapshot, TableService

BASE = "http://192.168.10.5:8501"
TEAMS = ["あきの駅伝部", "Ben", "ちえ", "Dai"]


def decode_qr(pdf: bytes, page: int = 0) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[page].render(scale=200 / 72).to_pil()
    finally:
        document.close()
    return [
        r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode
    ]


def pages(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


@pytest.fixture
def relay(service: TableService) -> Snapshot:
    """A 4-team relay recorded as far as leg 6, as a viewer sees it."""
    setup = EkidenSetup.default(TEAMS, start=2)
    course = tuple(
        Terrain.from_card_value(leg, v)
        for leg, v in zip(range(1, 11), [2, 0, 3, 1, 4, 2, 1, 0, 3, 2], strict=True)
    )
    info, key = service.create(
        "ekiden", "箱根 金曜の部", EkidenSetup(setup.teams, 2, course).to_dict()
    )
    rng = random.Random(5)
    pid = info.public_id
    while len(service.snapshot(pid).state.history) < 6:
        snap = service.snapshot(pid)
        state = snap.state
        if state.phase == "situation":
            marks = "".join(rng.choice("o-x") for _ in range(5))
            action = {"type": "situation", "leg": state.leg, "marks": marks}
        else:
            runner = {"power": rng.randint(2, 6), "up": rng.randint(0, 4), "down": 1}
            action = {
                "type": "run",
                "team": engine.next_runner(state),
                "leg": state.leg,
                "runner": runner,
            }
        service.record(pid, key, snap.seq, action)
    return service.snapshot(pid, VIEWER)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_page_scans_to_the_viewer_link(relay: Snapshot, lang: str) -> None:
    pdf = render_sheet(ekiden_sheet, GAME, relay, BASE, lang)
    expected = viewer_url(BASE, relay.info.public_id, lang)
    count = len(PdfReader(io.BytesIO(pdf)).pages)
    assert count == len(TEAMS) + 1  # a team sheet per team, then the summary
    for page in (0, count - 1):
        assert decode_qr(pdf, page) == [expected]
    assert "key=" not in expected


@pytest.mark.parametrize(
    ("lang", "words"),
    [("ja", ("区間順位", "申告走力", "最終順位")), ("en", ("Leg rank", "Declared", "Final"))],
)
def test_team_sheets_and_summary_carry_the_record(relay: Snapshot, lang: str, words) -> None:
    text = pages(render_sheet(ekiden_sheet, GAME, relay, BASE, lang))
    for team, name in enumerate(TEAMS):
        assert name in text[team] and all(w in "".join(text) for w in words)
    first_leg = relay.state.history[0]
    for entry in first_leg:  # the declared power of leg 1 is on that team's sheet
        assert str(entry.declared) in text[entry.team]
    assert "上り2" in text[0] if lang == "ja" else "uphill 2" in text[0]


def test_the_blank_sheet_is_one_team_sheet_and_an_empty_summary() -> None:
    pdf = render_sheet(ekiden_sheet, GAME, None, BASE, "ja", "letter")
    text = pages(pdf)
    assert len(text) == 2 and "チーム：" in text[0]
    assert decode_qr(pdf) == [f"{BASE}/?lang=ja"]


def test_a_printed_sheet_never_shows_an_unplayed_roster(service: TableService) -> None:
    info, key = service.create("ekiden", "Secret", EkidenSetup.default(TEAMS[:3]).to_dict())
    runners = [{"power": 6, "up": 7, "down": 0, "name": "ひみつ選手"}] * 10
    service.record(info.public_id, key, 0, {"type": "roster", "team": 0, "runners": runners})
    pdf = render_sheet(ekiden_sheet, GAME, service.snapshot(info.public_id, VIEWER), BASE, "ja")
    assert "ひみつ選手" not in "".join(pages(pdf))
