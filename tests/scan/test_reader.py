"""Reading a slip's photo: each field's value or the reason it has none, where it is on the
photo, and the photos refused with a message in both languages."""

from __future__ import annotations

import hashlib
import logging
import zlib

import cv2
import numpy as np
import pytest
import qrcode

from aids.bench.slip_photos import (
    EVENT,
    OTHER_EVENT,
    PHONE,
    SMALL,
    fill_slip,
    marked,
    photo,
    photograph,
    scene,
    specs,
)
from aids.core.i18n import t
from aids.core.inputs import MAX_PHOTO_BYTES, MAX_PHOTO_MB
from aids.print.slips import slip_check
from aids.scan import Mark, PhotoRefused, read_slip, reader


def refusal(jpeg: bytes, expected: str | None = EVENT) -> PhotoRefused:
    with pytest.raises(PhotoRefused) as err:
        read_slip(jpeg, expected_event=expected)
    message = {lang: err.value.message(lang) for lang in ("ja", "en")}
    assert message["ja"] != message["en"]
    assert all(not m.startswith("errors.") for m in message.values())  # both catalogues
    return err.value


def test_a_filled_slip_reads_every_field_with_its_table_and_check() -> None:
    spec = specs()[1]
    shot = photo(spec, 7, size=PHONE, odd=0.0)
    reading = read_slip(shot.jpeg, expected_event=EVENT)
    assert (reading.table_id, reading.check) == (spec.table_id, slip_check(spec))
    assert reading.shape == spec.shape
    assert {(f.player, f.field): (f.status, f.value) for f in reading.fields} == shot.truth
    assert reading.flagged == ()
    assert reading.photo_sha256 == hashlib.sha256(shot.jpeg).hexdigest()
    assert all(f.confidence > 0.5 for f in reading.fields)


def test_crossed_out_mark_is_not_a_fill() -> None:
    """A cross through a circle (the slip's correction) is not read as a mark."""
    spec = specs()[1]
    marks = {
        (0, None, None): ((3, "cross"), (2, "fill")),  # place 2, after crossing out 3
        (0, 0, 0): ((0, "fill"),), (0, 0, 1): ((1, "fill"), (7, "cross")),
        (0, 0, 2): ((5, "fill"),), (0, 0, 3): ((0, "cross"), (9, "fill")),
        (1, None, None): ((1, "cross"),),  # crossed out and nothing filled: no value
    }  # fmt: skip
    for seed in range(3):
        reading = read_slip(marked(spec, marks, seed), expected_event=EVENT)
        assert (reading.reading(0).status, reading.reading(0).value) == (Mark.VALUE, 2)
        assert reading.reading(0, 0).value == 159
        assert reading.reading(1).status is not Mark.VALUE


def test_two_fills_in_a_row_read_double_and_nothing_reads_empty() -> None:
    spec = specs()[0]
    marks = {(0, None, None): ((1, "fill"), (4, "fill")), (1, None, None): ((2, "fill"),)}
    reading = read_slip(marked(spec, marks, 3), expected_event=EVENT)
    assert reading.reading(0).status is Mark.DOUBLE
    assert reading.reading(1).value == 2
    assert reading.reading(2).status is Mark.EMPTY
    assert reading.reading(2, 0).status is Mark.EMPTY
    assert reading.reading(0).value is None


def test_a_number_with_a_digit_left_blank_is_flagged_not_guessed() -> None:
    spec = specs()[0]
    marks = {(0, 0, 1): ((4, "fill"),), (0, 0, 2): ((5, "fill"),)}  # 45 without its 0
    field = read_slip(marked(spec, marks, 4), expected_event=EVENT).reading(0, 0)
    assert field.flagged and field.value is None
    assert [r.status for r in field.rows] == [Mark.EMPTY, Mark.VALUE, Mark.VALUE]


def test_flagged_fields_are_boxed_on_the_photo_and_on_the_straightened_slip() -> None:
    spec = specs()[0]
    marks = {(0, None, None): ((1, "fill"), (4, "fill")), (1, None, None): ((2, "fill"),)}
    jpeg = marked(spec, marks, 11)
    reading = read_slip(jpeg, expected_event=EVENT)
    assert reading.flagged[0] == reading.reading(0)
    width, height = reading.photo_size
    assert (width, height) == SMALL
    for f in reading.fields:
        assert all(0 <= x <= width and 0 <= y <= height for x, y in f.photo_box)
    h = np.array(reading.to_photo).reshape(3, 3)
    first = reading.flagged[0]
    x0, y0, x1, _ = first.slip_box
    corner = h @ np.array([x0, y0, 1.0])
    assert np.allclose(corner[:2] / corner[2], first.photo_box[0], atol=0.1)
    picture = cv2.imdecode(np.frombuffer(reading.rectified_png(), np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == reading.picture.shape[:2]
    red = (picture[:, :, 2] > 200) & (picture[:, :, 0] < 40) & (picture[:, :, 1] < 40)
    s = reading.scale
    assert red[round(y0 * s), round(x0 * s) : round(x1 * s)].mean() > 0.9  # its top edge
    shown = cv2.imdecode(np.frombuffer(reading.outlined_photo(jpeg), np.uint8), cv2.IMREAD_COLOR)
    assert shown.shape[:2] == (SMALL[1], SMALL[0])
    (px, py), (qx, qy) = first.photo_box[0], first.photo_box[1]
    edge = shown[round((py + qy) / 2), round((px + qx) / 2)]  # the middle of its top edge
    assert edge[2] > 150 and edge[0] < 90


def test_photo_of_something_else_is_no_slip() -> None:
    assert refusal(scene(SMALL, 1)).code == "scan/no_slip"


def test_photo_of_another_code_is_not_a_slip() -> None:
    """A table sheet's QR code (a link) on the table: not a result slip."""
    picture = cv2.imdecode(np.frombuffer(scene(SMALL, 2), np.uint8), cv2.IMREAD_COLOR)
    code = qrcode.QRCode(border=4)
    code.add_data("http://192.168.1.5:8501/?table=TaBlE3cdEfGhIjKlMnOpQrSt")
    matrix = np.array(code.get_matrix(), dtype=np.uint8)
    square = cv2.resize((1 - matrix) * 255, (360, 360), interpolation=cv2.INTER_NEAREST)
    picture[300:660, 250:610] = square[:, :, None]
    _, jpeg = cv2.imencode(".jpg", picture)
    assert refusal(jpeg.tobytes()).code == "scan/payload"


def test_half_a_slip_names_the_missing_corners() -> None:
    rng = np.random.default_rng(5)
    image, _, _ = fill_slip(specs()[1], 150, rng)
    jpeg = photograph(image, SMALL, rng, turn=5, fraction=(0.85, 0.9), crop=0.45)
    err = refusal(jpeg)
    assert err.code == "scan/half_slip"
    assert "bottom left" in err.message("en") and "右下" in err.message("ja")


def test_two_slips_in_one_photo_are_refused() -> None:
    rng = np.random.default_rng(8)
    left, _, _ = fill_slip(specs()[0], 100, rng)
    right, _, _ = fill_slip(specs()[1], 100, rng)
    gap = np.full((left.shape[0], 40, 3), 90, np.uint8)
    both = np.hstack([left, gap, right])
    jpeg = photograph(both, (1600, 1200), rng, turn=3, fraction=(0.8, 0.85))
    assert refusal(jpeg).code == "scan/not_flat"


def test_another_events_slip_is_refused() -> None:
    err = refusal(photo(specs()[2], 3, size=SMALL).jpeg, expected=OTHER_EVENT)
    assert err.code == "scan/other_event"


def test_any_event_is_read_when_none_is_expected() -> None:
    assert read_slip(photo(specs()[2], 3, size=SMALL).jpeg).table_id == specs()[2].table_id


def test_too_dark_photo_is_refused() -> None:
    rng = np.random.default_rng(6)
    image, _, _ = fill_slip(specs()[0], 150, rng)
    assert refusal(photograph(image, SMALL, rng, light=0.15)).code == "scan/too_dark"


def test_too_blurred_photo_is_refused() -> None:
    rng = np.random.default_rng(7)
    image, _, _ = fill_slip(specs()[0], 150, rng)
    assert refusal(photograph(image, SMALL, rng, blur=(7.0, 7.0))).code == "scan/too_blurred"


@pytest.mark.parametrize("data", [b"", b"not a photo at all, just text", b"\x89PNG\r\n\x1a\n" * 4])
def test_a_file_that_is_not_a_photo_is_refused(data: bytes) -> None:
    assert refusal(data).code == "scan/not_image"


def test_a_small_file_announcing_a_huge_picture_is_refused_before_decoding() -> None:
    _, png = cv2.imencode(".png", np.full((8, 8), 255, np.uint8))
    data = bytearray(png.tobytes())
    data[16:24] = (200_000).to_bytes(4, "big") * 2  # IHDR: 200,000 × 200,000 pixels
    data[29:33] = zlib.crc32(bytes(data[12:29])).to_bytes(4, "big")
    assert refusal(bytes(data)).code == "scan/not_image"


DEGENERATE = {  # (height, width) and a grey: images no slip fits in, or blank ones
    "1x5000": ((1, 5000), 255), "5000x1": ((5000, 1), 255), "2x2": ((2, 2), 128),
    "1x1": ((1, 1), 0), "10000x3": ((3, 10_000), 255), "3x10000": ((10_000, 3), 255),
    "black": ((1200, 900), 0), "white": ((1200, 900), 255),
}  # fmt: skip
REFUSED_AS = {"black": "scan/too_dark", "white": "scan/no_slip"}


@pytest.mark.parametrize("ext", [".png", ".jpg"])
@pytest.mark.parametrize("name", list(DEGENERATE))
def test_a_degenerate_image_is_refused_never_a_traceback(name: str, ext: str) -> None:
    """Rule: whatever picture comes, the reader refuses it with a message (an image longer
    than ~3,200 times its width made OpenCV's resize fail: a traceback on the page)."""
    (height, width), grey = DEGENERATE[name]
    _, data = cv2.imencode(ext, np.full((height, width, 3), grey, np.uint8))
    assert refusal(data.tobytes(), None).code == REFUSED_AS.get(name, "scan/too_small")


def test_a_photo_too_small_or_too_narrow_for_a_slip_says_so_with_its_size() -> None:
    _, data = cv2.imencode(".png", np.full((1, 5000, 3), 255, np.uint8))
    refused = refusal(data.tobytes())
    assert refused.code == "scan/too_small"
    assert all("5000×1" in refused.message(lang) for lang in ("ja", "en"))


def test_the_smallest_photos_that_read_are_not_refused_as_too_small() -> None:
    """The smallest slip photos measured to read (a 360×480 one): above the limit."""
    shot = photo(specs()[1], 7, size=SMALL, odd=0.0)
    image = cv2.imdecode(np.frombuffer(shot.jpeg, np.uint8), cv2.IMREAD_COLOR)
    small = cv2.resize(image, (360, 480), interpolation=cv2.INTER_AREA)
    reading = read_slip(cv2.imencode(".png", small)[1].tobytes(), expected_event=EVENT)
    assert reading.table_id == specs()[1].table_id


@pytest.mark.parametrize("step", ["find_markers", "bubble_coverage"])
def test_an_opencv_failure_is_a_refusal_logged_for_the_host(
    step: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: an OpenCV error nobody foresaw never reaches the user as a traceback: the
    reader refuses the photo (``scan/unreadable``) and the host's log says what failed."""

    def fails(*_: object, **__: object) -> None:
        raise cv2.error("OpenCV(4) resize.cpp: error: (-215:Assertion failed) !dsize.empty()")

    monkeypatch.setattr(reader, step, fails)
    with caplog.at_level(logging.ERROR, logger="aids.scan.reader"):
        refused = refusal(photo(specs()[1], 7, size=SMALL, odd=0.0).jpeg)
    assert refused.code == "scan/unreadable"
    assert any("dsize.empty" in r.getMessage() or r.exc_info for r in caplog.records)
    assert all("dsize" not in refused.message(lang) for lang in ("ja", "en"))


def _padded(jpeg: bytes, size: int) -> bytes:
    """The JPEG grown to ``size`` bytes by data after its end (decoders ignore it)."""
    return jpeg + bytes(size - len(jpeg))


def test_a_photo_up_to_the_upload_limit_is_read() -> None:
    """Rule: the reader takes what the page and the command take (40 MiB): a 41.9 MB photo
    is read (a limit of 40,000,000 bytes refused it as not a photo)."""
    shot = photo(specs()[1], 7, size=SMALL, odd=0.0)
    reading = read_slip(_padded(shot.jpeg, MAX_PHOTO_BYTES), expected_event=EVENT)
    assert reading.table_id == specs()[1].table_id


def test_a_photo_over_the_upload_limit_is_refused_as_too_big() -> None:
    shot = photo(specs()[1], 7, size=SMALL, odd=0.0)
    refused = refusal(_padded(shot.jpeg, MAX_PHOTO_BYTES + 1))
    assert refused.code == "scan/too_big"
    assert all(f"{MAX_PHOTO_MB} MB" in refused.message(lang) for lang in ("ja", "en"))


def test_every_refusal_has_a_message_in_both_languages() -> None:
    codes = ["no_slip", "half_slip", "not_flat", "no_code", "payload", "other_event",
             "too_dark", "too_blurred", "not_image", "glare", "format", "too_small",
             "unreadable", "too_big"]  # fmt: skip
    for code in codes:
        for lang in ("ja", "en"):
            assert t(f"errors.scan/{code}", lang) != f"errors.scan/{code}"


@pytest.mark.parametrize("turn", [cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE])
def test_a_slip_photographed_upside_down_or_sideways_reads_the_same(turn: int) -> None:
    """The corner markers have identities: which corner is which never depends on the
    photo's orientation."""
    rng = np.random.default_rng(9)
    image, truth, _ = fill_slip(specs()[1], 150, rng, odd=0.0)
    size = SMALL if turn == cv2.ROTATE_180 else (SMALL[1], SMALL[0])
    reading = read_slip(photograph(cv2.rotate(image, turn), size, rng), expected_event=EVENT)
    assert {(f.player, f.field): (f.status, f.value) for f in reading.fields} == truth


def test_a_far_corner_lost_at_first_is_sought_again_where_the_others_place_it() -> None:
    """A slip photographed at a slant (turned 23°, dim, blurred 1 px, 900 × 1200): its far
    top-left marker is too small for the first look, which finds three; the second look, on
    the enlarged part of the photo where the three place it, finds the fourth, and every
    field reads as filled."""
    from aids.scan.reader import _shrunk, find_markers

    shot = photo(specs()[1], 89, size=(900, 1200))
    gray = cv2.cvtColor(cv2.imdecode(np.frombuffer(shot.jpeg, np.uint8), 1), cv2.COLOR_BGR2GRAY)
    assert sorted(find_markers(*_shrunk(gray))) == [1, 2, 3]
    reading = read_slip(shot.jpeg, expected_event=EVENT)
    assert all((f.status, f.value) == shot.truth[(f.player, f.field)] for f in reading.fields)


@pytest.mark.parametrize(
    ("where", "spot"),
    [("top-left marker", (0.075, 0.05, 0.03)), ("bottom-right marker", (0.925, 0.95, 0.03)),
     ("QR code", (0.767, 0.1, 0.045))],
)  # fmt: skip
def test_glare_over_a_corner_marker_or_the_code_is_named_glare(
    where: str, spot: tuple[float, float, float]
) -> None:
    """Rule (issue 26 §5): a lamp's reflection washing out a corner marker or the QR code is
    glare ("tilt the slip away from the light"), not "too blurred, hold the phone still"."""
    for seed in range(2):
        rng = np.random.default_rng(seed)
        image, _, _ = fill_slip(specs()[1], 150, rng)
        err = refusal(photograph(image, SMALL, rng, glare=spot))
        assert err.code == "scan/glare", where
        assert "light" in err.message("en") and "光" in err.message("ja")


def test_light_pencil_and_hurried_fills_read_but_smudges_crosses_and_rings_never_do() -> None:
    """Rule (issue 26 §5): a fill is judged against the slip's own paper and the bubble's own
    marks, so light HB pencil (grey ~150 of 255) and a hurried fill covering 55-85 % of the
    circle read as the value filled, while a faint smudge, a cross or an empty ring never
    reads as a fill."""
    spec = specs()[1]
    wanted: dict[tuple[int, int | None], int] = {}
    marks: dict[tuple[int, int | None, int | None], tuple[tuple[int, str], ...]] = {}
    for player in range(4):
        how = ("pencil", "hurried")[player % 2]
        marks[(player, None, None)] = ((player + 1, how),)
        wanted[(player, None)] = player + 1
        digits = [(player * 3 + d) % 10 for d in range(4)]
        for d, v in enumerate(digits):
            marks[(player, 0, d)] = ((v, "pencil" if d % 2 else "hurried"),)
        wanted[(player, 0)] = int("".join(map(str, digits)))
    right = 0
    for seed in range(4):
        reading = read_slip(marked(spec, marks, seed), expected_event=EVENT)
        for f in reading.fields:
            assert f.status is not Mark.VALUE or f.value == wanted[(f.player, f.field)]
            right += f.status is Mark.VALUE
        pencil = [f.rows[0] for f in reading.fields if f.field is None and f.player % 2 == 0]
        pencil += [r for f in reading.fields if f.field == 0 for r in f.rows[1::2]]
        assert len(pencil) == 10 and all(r.status is Mark.VALUE for r in pencil)
    assert right >= 0.9 * 4 * len(wanted)
    nothing = {(p, f, d): ((3, how),) for p, how in enumerate(["smudge", "cross", "smudge"])
               for f, d in [(None, None), (0, 0), (0, 1), (0, 2), (0, 3)]}  # fmt: skip
    for seed in range(4):
        reading = read_slip(marked(spec, nothing, seed), expected_event=EVENT)
        assert all(f.status is not Mark.VALUE for f in reading.fields)
        assert all(r.status is Mark.EMPTY for f in reading.fields if f.player in (0, 2, 3)
                   for r in f.rows)  # fmt: skip


def test_a_bent_slip_reads_its_rows_where_they_are_never_the_neighbouring_circle() -> None:
    """Rule (issue 26 §5): a slip bowed across its rows (5-15 mm) and seen at a slant
    (20-45°) keeps its corner markers in one plane, yet its circles move by a pitch or more;
    the reader finds each row where its printed rings are and reads it there, or flags it
    (never proposes a value read from a circle that is not where it should be)."""
    right = fields = 0
    for seed in range(6):
        spec = specs()[seed % 4]
        shot = photo(spec, seed, size=SMALL, bent=True)
        reading = read_slip(shot.jpeg, expected_event=EVENT)
        for f in reading.fields:
            mark, value = shot.truth[(f.player, f.field)]
            assert f.status is not Mark.VALUE or (mark, value) == (Mark.VALUE, f.value), shot.taken
            right += (f.status, f.value) == (mark, value)
            fields += 1
    assert right >= 0.97 * fields


def test_a_slip_bent_the_other_way_is_flagged_or_refused_never_misread() -> None:
    """Rule (issue 26 §5): a bend the reader's bow does not take (along the rows, between
    the left and right edges) leaves rows away from where the layout puts them: each such
    row is flagged (its circles must all show their rings, none past its ends), or the
    photo is refused "lay the slip flat"; no value is read from a circle out of place."""
    from aids.bench.slip_bend import photograph_bent
    from aids.bench.slip_photos import PHONE

    for seed in (5, 6, 10, 11):  # each misread before (a place 2 read 1, a money 63 read 62)
        rng = np.random.default_rng(seed)
        spec = specs()[seed % 4]
        image, truth, _ = fill_slip(spec, 200, rng)
        jpeg = photograph_bent(image, PHONE, rng, bow=(8.0, 14.0), sideways=True)
        try:
            reading = read_slip(jpeg, expected_event=EVENT)
        except PhotoRefused as err:
            assert err.code == "scan/bent" and "flat" in err.message("en")
            continue
        for f in reading.fields:
            assert f.status is not Mark.VALUE or truth[(f.player, f.field)][1] == f.value
