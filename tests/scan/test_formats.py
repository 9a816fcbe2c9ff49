"""The reader's input boundary (issue 26 §3): a photo is a JPEG or a PNG, judged by its
content; any other picture is refused by name, whatever the file is called."""

from __future__ import annotations

import io

import PIL.Image
import pytest

from aids.bench.slip_photos import EVENT, SMALL, photo, specs
from aids.scan import PhotoRefused, read_slip
from aids.scan.formats import kind_of


@pytest.fixture(scope="module")
def slip_photo() -> bytes:
    return photo(specs()[1], 7, size=SMALL, odd=0.0).jpeg


def _as(jpeg: bytes, fmt: str, **options: object) -> bytes:
    out = io.BytesIO()
    PIL.Image.open(io.BytesIO(jpeg)).convert("RGB").save(out, format=fmt, **options)
    return out.getvalue()


@pytest.mark.parametrize(
    ("fmt", "named"),
    [("GIF", "GIF"), ("TIFF", "TIFF"), ("WEBP", "WebP"), ("AVIF", "AVIF"), ("BMP", "BMP")],
)
def test_photo_formats_other_than_jpeg_and_png_are_refused_by_name(
    slip_photo: bytes, fmt: str, named: str
) -> None:
    """Rule: only JPEG and PNG, by content (the page checked only the file's name)."""
    data = _as(slip_photo, fmt, **({"lossless": True} if fmt == "WEBP" else {}))
    with pytest.raises(PhotoRefused) as err:
        read_slip(data, expected_event=EVENT)
    assert err.value.code == "scan/format"
    assert err.value.params["format"] == named
    for lang in ("ja", "en"):
        assert named in err.value.message(lang)
    assert err.value.message("ja") != err.value.message("en")


@pytest.mark.parametrize("fmt", ["PNG", "MPO"])
def test_a_png_or_a_phones_mpo_jpeg_is_read(slip_photo: bytes, fmt: str) -> None:
    """Rule: an MPO (a phone's multi-picture JPEG) is a JPEG: it is read, as a PNG is."""
    data = _as(slip_photo, fmt)
    assert kind_of(data) == ("PNG" if fmt == "PNG" else "JPEG")
    assert read_slip(data, expected_event=EVENT).table_id == specs()[1].table_id


def test_a_file_with_no_pictures_magic_is_not_an_image() -> None:
    with pytest.raises(PhotoRefused) as err:
        read_slip(b"BEGIN:VCARD\nVERSION:3.0\nEND:VCARD\n" * 4)
    assert err.value.code == "scan/not_image"


@pytest.mark.parametrize("named", ["ICO", "HEIC", "AVIF", "JPEG XL", "GIF"])
def test_the_format_refusal_reads_right_whatever_the_formats_name(named: str) -> None:
    """Rule: "This photo is in ICO format", never "is a ICO file" (an article that fits
    only some names)."""
    refused = PhotoRefused("scan/format", format=named)
    assert refused.message("en").startswith(f"This photo is in {named} format: ")
    assert refused.message("ja").startswith(f"この写真は{named}形式です。")


def test_an_icon_file_is_refused_by_name(slip_photo: bytes) -> None:
    with pytest.raises(PhotoRefused) as err:
        read_slip(_as(slip_photo, "ICO"), expected_event=EVENT)
    assert err.value.code == "scan/format"
    assert "is in ICO format" in err.value.message("en")
