"""The Derby sheet as printed: rendered by pypdfium2, QR read by zxing-cpp, text by pypdf."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
import zxingcpp
from pypdf import PdfReader

from aids.core.links import viewer_url
from aids.games.derby import GAME
from aids.games.derby.model import DerbySetup
from aids.print.derby import sheet as derby_sheet
from aids.print.frame import render_sheet
from aids.tables import Snapshot, TableService

BASE = "http://192.168.10.5:8501"
PLAYERS = ["あき", "Ben", "ちえ"]


def decode_qr(pdf: bytes, dpi: int = 200) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[0].render(scale=dpi / 72).to_pil()
    finally:
        document.close()
    return [
        r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode
    ]


def sheet(snapshot: Snapshot | None, lang: str, paper: str = "a4") -> bytes:
    return render_sheet(derby_sheet, GAME, snapshot, BASE, lang, paper)


def page_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture
def table_sheet(service: TableService) -> tuple[str, TableService]:
    info, _ = service.create("derby", "Friday Derby", DerbySetup.default(PLAYERS).to_dict())
    return info.public_id, service


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_sheet_qr_code_scans_to_the_viewer_url(
    table_sheet: tuple[str, TableService], lang: str
) -> None:
    pid, service = table_sheet
    pdf = sheet(service.snapshot(pid), lang)
    assert decode_qr(pdf) == [viewer_url(BASE, pid, lang)]
    assert "key=" not in decode_qr(pdf)[0]  # players' sheets never carry the referee key


@pytest.mark.parametrize(("lang", "heading"), [("ja", "第1柵"), ("en", "Fence 1")])
def test_sheet_text_has_title_players_and_language(
    table_sheet: tuple[str, TableService], lang: str, heading: str
) -> None:
    pid, service = table_sheet
    pdf = sheet(service.snapshot(pid), lang)
    text = page_text(pdf)
    assert "Friday Derby" in text and heading in text
    for name in PLAYERS:
        assert name in text
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1


def test_sheet_fonts_are_embedded(table_sheet: tuple[str, TableService]) -> None:
    pid, service = table_sheet
    pdf = sheet(service.snapshot(pid), "ja")
    fonts = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            fonts.append((font["/BaseFont"], descriptor.get_object()))
    assert fonts, "the sheet uses fonts"
    for name, descriptor in fonts:
        assert any(k in descriptor for k in ("/FontFile2", "/FontFile", "/FontFile3")), name


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_blank_sheet_points_at_the_tracker(paper: str) -> None:
    pdf = sheet(None, "en", paper)
    assert decode_qr(pdf) == [f"{BASE}/?lang=en"]
    text = page_text(pdf)
    assert "Grand National Derby" in text and "Fence 5" in text
    width = float(PdfReader(io.BytesIO(pdf)).pages[0].mediabox.width)
    assert round(width) == (842 if paper == "a4" else 792)


def test_five_player_sheet_fits_one_page(service: TableService) -> None:
    names = ["Aki", "Ben", "Chie", "Dan", "Eri"]
    info, _ = service.create("derby", "Five", DerbySetup.default(names).to_dict())
    pdf = sheet(service.snapshot(info.public_id), "ja")
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    assert all(n in page_text(pdf) for n in names)
