"""What kind of picture a file holds, judged by its first bytes (its magic), never by its
name: the reader takes only JPEG (a phone's MPO is a JPEG with more pictures after the first)
and PNG, and names any other kind it refuses, so the organiser knows what to change.

>>> kind_of(b"\\xff\\xd8\\xff\\xe1....Exif"), kind_of(b"GIF89a...."), kind_of(b"plain text")
('JPEG', 'GIF', None)
"""

from __future__ import annotations

READ = frozenset({"JPEG", "PNG"})  # what the reader decodes; anything else is refused
_BRANDS = {  # an ISO media file's brand (bytes 8-12, after "ftyp") → the picture it holds
    b"avif": "AVIF", b"avis": "AVIF", b"heic": "HEIC", b"heix": "HEIC", b"hevc": "HEIC",
    b"heim": "HEIC", b"heis": "HEIC", b"mif1": "HEIF", b"msf1": "HEIF", b"jxl ": "JPEG XL",
}  # fmt: skip


def kind_of(data: bytes) -> str | None:
    """The picture's format named by its magic bytes (``JPEG``, ``PNG``, ``GIF``, ``TIFF``,
    ``WebP``, ``AVIF``, ``HEIC``, ``HEIF``, ``BMP``, ``JPEG XL``, ``JPEG 2000``, ``PDF``,
    ``ICO``), or None when it is none of these."""
    head = bytes(data[:16])
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if head[:4] in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+"):
        return "TIFF"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP"
    if head[4:8] == b"ftyp":
        return _BRANDS.get(head[8:12], "HEIF")
    if head.startswith(b"\xff\x0a") or head.startswith(b"\x00\x00\x00\x0cJXL "):
        return "JPEG XL"
    if head.startswith(b"\x00\x00\x00\x0cjP  "):
        return "JPEG 2000"
    if head[:2] == b"BM":
        return "BMP"
    if head[:4] == b"%PDF":
        return "PDF"
    if head[:4] == b"\x00\x00\x01\x00":
        return "ICO"
    return None
