"""The printed result slip: its QR payload, its check value, its limits, and the one layout
the drawer draws and the reader measures."""

from __future__ import annotations

import dataclasses
import io

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest
import zxingcpp
from pypdf import PdfReader

from aids.bench.slip_photos import EVENT, rendered, specs
from aids.core.errors import InvalidAction
from aids.print import slips
from aids.print.slips import NumberField, Shape, layout, parse_payload, payload
from aids.scan import Mark, read_slip, reader

TABLE = "TaBlE3cdEfGhIjKlMnOpQrSt"


def test_payload_round_trips_table_event_check_and_shape() -> None:
    for spec in specs():
        code = parse_payload(payload(spec))
        assert code.table_id == spec.table_id
        assert code.event_tag == slips.event_tag(spec.event_id)
        assert code.check == slips.slip_check(spec)
        assert code.shape == spec.shape
        assert len(payload(spec)) <= 62  # version 4 at error correction M


@pytest.mark.parametrize(
    "text",
    [
        "http://x:8501/?table=TaBlE3cdEfGhIjKlMnOpQrSt",  # a table's viewer link
        f"aids-slip:2:{TABLE}:AAAAAA:BBBBBB:4.4.3",  # a version this reader does not know
        f"aids-slip:1:{TABLE}:aaaaaa:BBBBBB:4.4.3",  # the tags are upper-case base32
        f"aids-slip:1:{TABLE}:AAAAAA:BBBBBB:9.4.3",  # nine players
        f"aids-slip:1:{TABLE}:AAAAAA:BBBBBB:4.11.3",  # eleven places
        f"aids-slip:1:{TABLE}:AAAAAA:BBBBBB:8.8.6,2",  # does not fit on a slip
        f"aids-slip:1:{TABLE}:AAAAAA:BBBBBB:4.4.3\n",  # anything after
        "",
    ],
)
def test_payload_refuses_anything_but_a_slip(text: str) -> None:
    with pytest.raises(InvalidAction) as err:
        parse_payload(text)
    assert err.value.code == "scan/payload"


def test_check_value_changes_with_players_table_and_event() -> None:
    spec = specs()[1]
    check = slips.slip_check(spec)
    others = [
        dataclasses.replace(spec, players=("Aki", "Ben", "Chie", "Eri")),
        dataclasses.replace(spec, table_id="TaBlE9cdEfGhIjKlMnOpQrSt"),
        dataclasses.replace(spec, event_id="OtHeR0ab3CdEfGhIjKlMnOp"),
        dataclasses.replace(spec, fields=(NumberField("Money ($1,000)", 3),)),
    ]
    assert all(slips.slip_check(o) != check for o in others)
    assert slips.slip_check(dataclasses.replace(spec, lang="ja", table_label="4番")) == check


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"event_id": "short"}, "scan/slip_ids"),
        ({"table_id": "x" * 65}, "scan/slip_ids"),
        ({"players": ()}, "scan/slip_players"),
        ({"players": tuple("ABCDEFGHI")}, "scan/slip_players"),
        ({"players": ("Aki", " ")}, "scan/slip_players"),
        ({"places": 0}, "scan/slip_places"),
        ({"places": 11}, "scan/slip_places"),
        ({"fields": (NumberField("Points", 8),)}, "scan/slip_fields"),
        ({"fields": (NumberField("", 2),)}, "scan/slip_fields"),
        ({"fields": tuple(NumberField(f"n{i}", 1) for i in range(4))}, "scan/slip_fields"),
        ({"players": tuple("ABCDEFGH"), "fields": (NumberField("Money", 5),)},
         "scan/slip_too_big"),
    ],
)  # fmt: skip
def test_slip_spec_refuses_what_a_slip_cannot_hold(changes: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidAction) as err:
        dataclasses.replace(specs()[1], **changes)
    assert err.value.code == code
    assert err.value.message("ja") != err.value.message("en")


def test_seven_players_with_two_numbers_fit_on_a_slip() -> None:
    spec = specs()[2]
    lay = layout(spec)
    assert len(lay.blocks) == 7
    bottom = max(r.box()[3] for r in lay.rows)
    assert bottom < lay.markers[2].y  # above the bottom markers


def test_pdf_is_one_a5_page_per_slip_and_deterministic() -> None:
    pdf = slips.slips_pdf(specs())
    assert pdf == slips.slips_pdf(specs())
    pages = PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) == len(specs())
    box = pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (148, 210)
    text = pages[0].extract_text()
    assert "あき" in text and "結果票" in text and "得点" in text


def test_a4_holds_two_slips_side_by_side_each_read_alone() -> None:
    pdf = slips.slips_pdf(specs()[:3], paper="a4")
    pages = PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) == 2  # three slips: two, then one
    box = pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (296, 210)
    document = pdfium.PdfDocument(pdf)
    sheet = document[0].render(scale=150 / 72).to_numpy()[:, :, :3].copy()
    document.close()
    half = sheet.shape[1] // 2
    for spec, part in zip(specs(), (sheet[:, :half], sheet[:, half:]), strict=False):
        framed = cv2.copyMakeBorder(np.ascontiguousarray(part), 40, 40, 40, 40,
                                    cv2.BORDER_CONSTANT, value=(90, 90, 90))  # fmt: skip
        _, png = cv2.imencode(".png", framed)
        assert read_slip(png.tobytes()).table_id == spec.table_id


def test_printed_qr_code_scans_to_the_payload() -> None:
    for spec in specs():
        page = rendered(spec, 150)
        found = zxingcpp.read_barcodes(page, formats=zxingcpp.BarcodeFormats(reader.QR))
        assert [b.text for b in found] == [payload(spec)]


def test_drawer_draws_every_bubble_where_the_layout_says() -> None:
    """On the rendered blank slip each layout bubble has its printed circle at its radius
    and paper inside (where the reader looks)."""
    spec = specs()[2]
    dpi = 300
    gray = cv2.cvtColor(rendered(spec, dpi), cv2.COLOR_BGR2GRAY)
    px = dpi / 72
    for row in layout(spec).rows:
        for b in row.bubbles:
            x, y, r = b.x * px, b.y * px, b.r * px
            ring = [gray[round(y + r * np.sin(a)), round(x + r * np.cos(a))]
                    for a in (0, 1.6, 3.1, 4.7)]  # fmt: skip
            centre_ring = [gray[round(y + 0.6 * r * np.sin(a)), round(x + 0.6 * r * np.cos(a))]
                           for a in np.linspace(0, 6.28, 12)]  # fmt: skip
            assert max(ring) < 200, (row, b)
            assert min(centre_ring) > 230, (row, b)


def test_reader_measures_the_same_layout() -> None:
    """The reader's label image has a labelled disc centred on every layout bubble."""
    spec = specs()[0]
    labels, counts = reader.bubble_labels(spec.shape)
    bubbles = [b for row in layout(spec).rows for b in row.bubbles]
    assert len(counts) == len(bubbles) * reader.SECTORS + 1
    owner = np.where(labels > 0, (labels - 1) // reader.SECTORS, -1)
    ys, xs = np.nonzero(owner >= 0)
    ids = owner[ys, xs]
    cx = np.bincount(ids, weights=xs) / np.bincount(ids)
    cy = np.bincount(ids, weights=ys) / np.bincount(ids)
    expected = np.array([(b.x * reader.SCALE, b.y * reader.SCALE) for b in bubbles])
    assert np.abs(np.stack([cx, cy], axis=1) - expected).max() < 0.35


def test_layout_depends_on_the_shape_alone() -> None:
    spec = specs()[0]
    renamed = dataclasses.replace(spec, players=tuple("ABCDEF"), event_title="x" * 80, lang="en")
    assert layout(renamed) == layout(spec) == slips.layout_of(Shape(6, 6, (3,)))


def test_longest_title_and_names_stay_off_the_code_and_the_bubbles() -> None:
    """80-character titles and 40-character names shrink, wrap or end in an ellipsis in
    their boxes: the code still scans and every bubble of the blank slip reads empty."""
    spec = dataclasses.replace(specs()[1], event_title="W" * 80, table_label="W" * 80,
                               players=("W" * 40,) * 4)  # fmt: skip
    page = rendered(spec, 150)
    found = zxingcpp.read_barcodes(page, formats=zxingcpp.BarcodeFormats(reader.QR))
    assert [b.text for b in found] == [payload(spec)]
    _, png = cv2.imencode(".png", page)
    reading = read_slip(png.tobytes(), expected_event=EVENT)
    assert {f.status for f in reading.fields} == {Mark.EMPTY}
