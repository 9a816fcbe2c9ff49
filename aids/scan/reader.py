"""Read a phone photo of a filled result slip: find its corner markers and QR code, put the
slip straight, and read every bubble against the paper's own brightness around it.

The steps, each an OpenCV or numpy call over the whole image (no loops over pixels):

1. decode the photo, only a JPEG or a PNG by its first bytes (``formats``: another kind is
   ``scan/format``, naming it), no larger than the page's and the command's upload limit
   (``scan/too_big``), its pixels counted from the header first (``scan/not_image``);
   refuse one too small or too narrow to hold a slip (``scan/too_small``), or too dark to
   read (``scan/too_dark``);
2. find the four ArUco corner markers on a copy at most ``DETECT_SIDE`` pixels long (a
   second, tolerant look if one is missing; with three found, the fourth is sought once
   more in the enlarged part of the full photo where they place it: ``look_again``, a far
   corner shot at a slant is small); their 16 corners give the homography from slip
   points to photo pixels (``cv2.findHomography``), refused when they do not lie on one flat
   slip or two slips' corners are in the photo (``scan/not_flat``). With a marker missing,
   the QR code on the photo still says whether this is a slip at all and whose
   (``scan/no_slip``, ``scan/payload``, ``scan/other_event``); then a missing marker that
   would lie inside the photo is there but unreadable (``scan/glare`` where a reflection
   washes it out, else ``scan/too_blurred``), else
   ``scan/half_slip`` names the corners outside it;
3. read the QR code from the straightened code alone (zxing-cpp), else from the whole photo
   where this slip's code is printed, else straightened as on a bowed slip
   (``scan/glare``, ``scan/too_blurred``, ``scan/no_code``);
4. straighten the slip at ``SCALE`` pixels per point (``cv2.warpPerspective``); estimate the
   paper's brightness everywhere by a morphological closing (which keeps shadows' edges and
   removes marks smaller than its kernel), so a pixel is ink when it is darker than the paper
   *around it*: uneven light and shadows read the same as daylight;
5. check that every row's printed circles are where the layout puts them (``rings``); on a
   bent slip, find the bow and straighten the photo again through it; a row still away is
   MOVED, never read, and a slip with most rows away is ``scan/bent`` (lay it flat);
6. score each bubble (``bubbles``: ``np.bincount`` over a label image of the layout's
   circles, cut in sectors): the coverage of its least covered four sectors 90° apart, ink
   judged against the paper and the bubble's own darkest marks, so a fill (pencil too)
   scores high and a cross low; the scores give each row and field (``reading.read_row``).

An OpenCV error none of these steps foresaw is a refusal too (``scan/unreadable``), its
cause in the host's log: no traceback reaches the page or the command line.
"""

from __future__ import annotations

import hashlib
import io
import logging
from dataclasses import replace
from functools import cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import PIL.Image
import zxingcpp

from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.core.inputs import MAX_PHOTO_BYTES, MAX_PHOTO_MB
from aids.print.slip_layout import Layout, Payload, Shape, event_tag, layout_of, parse_payload
from aids.scan.bubbles import SCALE, SECTORS, bubble_coverage, bubble_labels, paper_brightness
from aids.scan.formats import READ, kind_of
from aids.scan.quality import blur_ratio, glare
from aids.scan.reading import SlipReading, read_fields
from aids.scan.rings import bent_box, bent_squares, locate

DETECT_SIDE = 1600  # markers are found on a copy this long at most: 9 mm ≥ 45 px
MIN_SIDE = 160  # that copy's short side below this holds no slip (measured: 270×360 reads none)
QR_SCALE = 4.0  # pixels per point for the straightened QR code (7 px per module)
DARK_PHOTO = 60  # the brightest 1 % of a photo below this: nothing can be read
DARK_PAPER = 70  # the slip's paper below this (of 255) once found: too dark
BLURRED_PHOTO = 0.70  # blur_ratio of the ≤ DETECT_SIDE copy where no slip was found: blurred
BLURRED_SLIP = 0.80  # blur_ratio of the straightened slip: above, bubbles blur together
MAX_PIXELS = 60_000_000  # a photo larger than this is not a phone's
QR = zxingcpp.BarcodeFormat.QRCode
MISFIT = 0.2  # of a marker's side: the most a corner may stray from the fitted plane
CORNERS = ("top_left", "top_right", "bottom_right", "bottom_left")
PLACED = 0.5  # fewer of the rows than this found where they are printed: lay the slip flat

Image = npt.NDArray[Any]  # what OpenCV returns (its stubs say integer or floating)
log = logging.getLogger(__name__)


class PhotoRefused(AidsError):
    """The photo cannot give a result: not a JPEG or PNG, no slip, part of one, another
    event's, too dark, too blurred, glare, a bent slip (codes ``scan/…``; the message says
    what to do)."""


class Corners:
    """The corners missing from a photo, named in the reader's language."""

    def __init__(self, missing: tuple[str, ...]) -> None:
        self.missing = missing

    def localized(self, lang: str) -> str:
        return ("・" if lang == "ja" else ", ").join(t(f"scan.corner.{c}", lang)
                                                     for c in self.missing)  # fmt: skip


def read_slip(image_bytes: bytes, expected_event: str | None = None) -> SlipReading:
    """Read a photo (JPEG or PNG bytes) of a slip of event ``expected_event`` (any event when
    None). The caller checks the table (``table_id``) and the check value against its own
    ``slip_check(spec)``, and that the slip is not already confirmed.

    Raises: ``PhotoRefused`` with ``scan/not_image``, ``scan/format``, ``scan/too_dark``,
    ``scan/no_slip``, ``scan/half_slip``, ``scan/not_flat``, ``scan/no_code``, ``scan/payload``,
    ``scan/other_event``, ``scan/too_blurred``, ``scan/glare``, ``scan/bent``,
    ``scan/too_small``, ``scan/too_big``; ``scan/unreadable`` when OpenCV fails where no step
    foresaw it (the cause logged for the host, never shown as a traceback).
    """
    try:
        return _read(image_bytes, expected_event)
    except cv2.error:
        digest = hashlib.sha256(bytes(image_bytes)).hexdigest()[:12]
        log.exception("reading a photo (%d bytes, sha256 %s…) failed in OpenCV",
                      len(image_bytes), digest)  # fmt: skip
        raise PhotoRefused("scan/unreadable") from None


def _read(image_bytes: bytes, expected_event: str | None) -> SlipReading:
    photo = decode(image_bytes)
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    small, shrink = _shrunk(gray)
    if float(np.percentile(small[::4, ::4], 99)) < DARK_PHOTO:
        raise PhotoRefused("scan/too_dark")
    found = find_markers(small, shrink)
    frame = layout_of(Shape(1, 1, ()))  # the markers and the QR code sit alike on every slip
    if len(found) == 3 and _in_frame(frame, found, gray.shape):
        found = look_again(gray, frame, found)
    if len(found) < 4:
        code = _payload(zxing_text(small))
        if code is not None:
            _check_event(code, expected_event)
        lost = [m for m in frame.markers if m.id not in found]
        if len(found) >= 2 and any(glare(gray, _fit_found(frame, found), m.square(), 2)
                                   for m in lost):  # fmt: skip
            raise PhotoRefused("scan/glare")
        if blur_ratio(small) > BLURRED_PHOTO:
            raise PhotoRefused("scan/too_blurred")
        if code is None and not found:
            raise PhotoRefused("scan/no_slip")
        if _in_frame(frame, found, gray.shape):  # there, but unreadable: not cut off
            raise PhotoRefused("scan/too_blurred")
        missing = tuple(c for i, c in enumerate(CORNERS) if i not in found)
        raise PhotoRefused("scan/half_slip", missing=Corners(missing))
    to_photo = homography(frame, found)
    code = _payload(_qr_text(gray, frame, to_photo, QR_SCALE))
    code = code or _payload(_qr_text(gray, frame, to_photo, 1.5 * QR_SCALE))
    code = code or _payload(_qr_in_place(small, shrink, frame, to_photo))
    code = code or _payload(_qr_bent(gray, frame, to_photo))
    if code is None:
        x, y, side = frame.qr
        quiet = side * 4 / 41  # the code's quiet zone, inside its square: white anyway
        if glare(gray, to_photo, (x + quiet, y + quiet, side - 2 * quiet), 5):
            raise PhotoRefused("scan/glare")
        blurred = blur_ratio(small) > BLURRED_PHOTO
        raise PhotoRefused("scan/too_blurred" if blurred else "scan/no_code")
    _check_event(code, expected_event)
    shape = code.shape
    lay = layout_of(shape)
    size = (round(lay.width * SCALE), round(lay.height * SCALE))
    to_slip = to_photo @ np.diag([1 / SCALE, 1 / SCALE, 1.0])
    flat = cv2.warpPerspective(photo, to_slip, size, flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
    flat_gray = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)
    paper = paper_brightness(flat_gray)
    if float(np.median(paper[::8, ::8])) < DARK_PAPER:
        raise PhotoRefused("scan/too_dark")
    if blur_ratio(flat_gray) > BLURRED_SLIP:
        raise PhotoRefused("scan/too_blurred")
    seen = locate(photo, flat, shape, to_slip)  # the rows where they truly are (a bent slip)
    placed = seen.offsets.in_place()
    if placed.mean() < PLACED:
        raise PhotoRefused("scan/bent")
    flat = seen.picture
    coverage = bubble_coverage(seen.gray, seen.paper, shape)  # where the layout puts them
    fields = read_fields(shape, lay.rows, coverage, to_photo, tuple(placed.tolist()))
    if seen.bow is not None:  # outlined on the photo where the bowed slip shows them
        bow = seen.bow
        fields = tuple(replace(f, photo_box=bent_box(f.slip_box, bow, to_photo)) for f in fields)
    return SlipReading(
        event_tag=code.event_tag,
        table_id=code.table_id,
        check=code.check,
        shape=shape,
        fields=fields,
        photo_size=(int(photo.shape[1]), int(photo.shape[0])),
        to_photo=tuple(round(float(v), 9) for v in to_photo.ravel()),
        scale=SCALE,
        photo_sha256=hashlib.sha256(image_bytes).hexdigest(),
        picture=flat,
    )


def decode(image_bytes: bytes) -> Image:
    """The photo as BGR pixels: only a JPEG or a PNG, judged by its first bytes (OpenCV and
    Pillow would decode GIF, TIFF, WebP, AVIF or BMP too); another picture's kind is named
    (``scan/format``), anything else is ``scan/not_image``; a file larger than the upload
    limit the page and the command share (``MAX_PHOTO_BYTES``) is ``scan/too_big``."""
    if not isinstance(image_bytes, (bytes, bytearray)) or len(image_bytes) < 16:
        raise PhotoRefused("scan/not_image")
    if len(image_bytes) > MAX_PHOTO_BYTES:
        raise PhotoRefused("scan/too_big", max=MAX_PHOTO_MB)
    kind = kind_of(image_bytes)
    if kind is not None and kind not in READ:
        raise PhotoRefused("scan/format", format=kind)
    if kind is None:
        raise PhotoRefused("scan/not_image")
    if _pixels(image_bytes) > MAX_PIXELS:
        raise PhotoRefused("scan/not_image")  # measured from the header, before decoding
    data = np.frombuffer(image_bytes, dtype=np.uint8)
    try:
        photo = cv2.imdecode(data, cv2.IMREAD_COLOR)
    except cv2.error:
        photo = None
    if photo is None or photo.shape[0] * photo.shape[1] > MAX_PIXELS:
        raise PhotoRefused("scan/not_image")
    return photo


def _pixels(image_bytes: bytes) -> int:
    """The pixels the file's header announces (Pillow reads only the header), so a small
    file announcing a huge picture is refused before anything is allocated."""
    try:
        with PIL.Image.open(io.BytesIO(image_bytes)) as header:
            width, height = header.size
    except (OSError, ValueError, PIL.Image.DecompressionBombError):
        return MAX_PIXELS + 1
    return int(width) * int(height)


def _shrunk(gray: Image) -> tuple[Image, float]:
    """The copy markers are sought in (at most ``DETECT_SIDE`` long) and the factor back to
    the photo's pixels; a photo whose copy would be under ``MIN_SIDE`` across holds no slip
    that can be read (``scan/too_small``: a thumbnail, or a strip too narrow for a slip)."""
    height, width = gray.shape[:2]
    longest = max(height, width)
    if min(height, width) * min(1.0, DETECT_SIDE / longest) < MIN_SIDE:
        raise PhotoRefused("scan/too_small", size=f"{width}×{height}")
    if longest <= DETECT_SIDE:
        return gray, 1.0
    factor = DETECT_SIDE / longest
    small = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return small, 1 / factor


@cache
def _detector(tolerant: bool) -> cv2.aruco.ArucoDetector:
    """OpenCV's ArUco detector; ``tolerant``: wider thresholding windows and rougher
    outlines, for a second look at a soft photo (measured: it finds markers blurred by
    1.5 px that the defaults lose)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if tolerant:
        params.adaptiveThreshWinSizeMax = 53
        params.adaptiveThreshWinSizeStep = 8
        params.polygonalApproxAccuracyRate = 0.06
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.ArucoDetector(dictionary, params)


def find_markers(small: Image, shrink: float) -> dict[int, npt.NDArray[np.float64]]:
    """The corner markers found: id → its four corners in the full photo's pixels."""
    found: dict[int, npt.NDArray[np.float64]] = {}
    for tolerant in (False, True):
        corners, ids, _ = _detector(tolerant).detectMarkers(small)
        listed = [int(i) for i in ([] if ids is None else ids.ravel().tolist())]
        ours = [i for i in listed if i in (0, 1, 2, 3)]
        if len(ours) != len(set(ours)):  # two slips' corners: which bubbles are whose?
            raise PhotoRefused("scan/not_flat")
        for marker_id, points in zip(listed, corners, strict=True):
            if marker_id in (0, 1, 2, 3) and marker_id not in found:
                found[marker_id] = points.reshape(4, 2).astype(np.float64) * shrink
        if len(found) == 4:
            break
    return found


LOOK_SIDE = 160  # pixels a marker's side gets in the second look (1.5 mm cells: 27 px each)


def look_again(
    gray: Image, frame: Layout, found: dict[int, npt.NDArray[np.float64]]
) -> dict[int, npt.NDArray[np.float64]]:
    """The fourth marker sought once more where the three found place it: that part of the
    full photo cut out with a margin of a marker's side and enlarged (a far corner of a slip
    photographed at a slant is small, and the first look lost it on the smaller copy).
    The markers found, with the fourth if this look finds it."""
    h = _fit_found(frame, found)
    lost = next(m for m in frame.markers if m.id not in found)
    if h is None:
        return found
    x, y, side = lost.x - lost.side, lost.y - lost.side, 3 * lost.side  # with its margin
    square = np.array([[[x, y], [x + side, y], [x + side, y + side], [x, y + side]]])
    corners = cv2.perspectiveTransform(square, h).reshape(-1, 2)
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, gray.shape[1]), min(y1, gray.shape[0])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return found
    grow = max(1.0, 3 * LOOK_SIDE / max(x1 - x0, y1 - y0))
    crop = cv2.resize(gray[y0:y1, x0:x1], None, fx=grow, fy=grow, interpolation=cv2.INTER_CUBIC)
    for tolerant in (False, True):
        points, ids, _ = _detector(tolerant).detectMarkers(crop)
        for marker_id, at in zip([] if ids is None else ids.ravel().tolist(), points, strict=True):
            if int(marker_id) == lost.id:
                back = at.reshape(4, 2).astype(np.float64) / grow + np.array([x0, y0])
                return {**found, lost.id: back}
    return found


def homography(frame: Layout, found: dict[int, npt.NDArray[np.float64]]) -> npt.NDArray[np.float64]:
    """Slip points → photo pixels, fitted to the 16 corners of the four markers."""
    slip = np.array([c for m in frame.markers for c in m.corners()], dtype=np.float64)
    photo = np.concatenate([found[m.id] for m in frame.markers])
    found_h, _ = cv2.findHomography(slip, photo, 0)
    if found_h is None:
        raise PhotoRefused("scan/no_slip")
    h: npt.NDArray[np.float64] = np.asarray(found_h, dtype=np.float64)
    fitted = cv2.perspectiveTransform(slip.reshape(-1, 1, 2), h).reshape(-1, 2)
    side = float(np.mean(np.linalg.norm(photo - np.roll(photo.reshape(4, 4, 2), 1, axis=1)
                                        .reshape(-1, 2), axis=1)))  # fmt: skip
    if float(np.abs(fitted - photo).max()) > MISFIT * side:
        raise PhotoRefused("scan/not_flat")  # a folded slip, or corners of two slips
    return h


def _fit_found(
    frame: Layout, found: dict[int, npt.NDArray[np.float64]]
) -> npt.NDArray[np.float64] | None:
    """Slip points → photo pixels fitted to the corners of the markers found (None if
    OpenCV finds no fit)."""
    known = [m for m in frame.markers if m.id in found]
    slip = np.array([c for m in known for c in m.corners()], dtype=np.float64)
    h, _ = cv2.findHomography(slip, np.concatenate([found[m.id] for m in known]), 0)
    return None if h is None else np.asarray(h, dtype=np.float64)


def _in_frame(
    frame: Layout, found: dict[int, npt.NDArray[np.float64]], shape: tuple[int, ...]
) -> bool:
    """Whether the markers not found would lie inside the photo, as the ones found place the
    slip: then they are there but unreadable (blur, glare), not outside the picture."""
    if not found:
        return False
    h = _fit_found(frame, found)
    if h is None:
        return False
    lost = np.array([[c for m in frame.markers if m.id not in found for c in m.corners()]])
    x, y = cv2.perspectiveTransform(lost, h).reshape(-1, 2).T
    height, width = shape[0], shape[1]
    return bool((x > 0).all() and (x < width).all() and (y > 0).all() and (y < height).all())


def zxing_text(gray: Image) -> str | None:
    """The first QR code's text in ``gray``, if any."""
    found = zxingcpp.read_barcodes(gray, formats=zxingcpp.BarcodeFormats(QR))
    return str(found[0].text) if found else None


def _qr_text(
    gray: Image, frame: Layout, to_photo: npt.NDArray[np.float64], scale: float
) -> str | None:
    """The QR code read from its square alone, straightened at ``scale`` pixels per point
    (bicubic: measured, it reads codes of 3 px modules that bilinear loses)."""
    x, y, side = frame.qr
    room = side * 0.12  # the quiet zone is inside the code's square; a little more
    n = round((side + 2 * room) * scale)
    shift = np.array([[1 / scale, 0, x - room], [0, 1 / scale, y - room], [0, 0, 1]])
    code = cv2.warpPerspective(gray, to_photo @ shift, (n, n),
                               flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                               borderValue=255)  # fmt: skip
    return zxing_text(code)


def _qr_bent(gray: Image, frame: Layout, to_photo: npt.NDArray[np.float64]) -> str | None:
    """The QR code read from its square straightened as on a bowed slip (``rings``), the
    gentlest bows first: the last look before the code is called unreadable."""
    for map_x, map_y in bent_squares(frame.qr, QR_SCALE / 2, to_photo):
        code = cv2.remap(gray, map_x, map_y, cv2.INTER_LINEAR, borderValue=255)
        text = zxing_text(code)
        if text is not None:
            return text
    return None


def _qr_in_place(
    small: Image, shrink: float, frame: Layout, to_photo: npt.NDArray[np.float64]
) -> str | None:
    """The QR code read from the whole photo, if it lies where this slip's code is printed
    (so the markers and the code are the same slip's)."""
    found = zxingcpp.read_barcodes(small, formats=zxingcpp.BarcodeFormats(QR))
    if not found:
        return None
    p = found[0].position
    corners = [p.top_left, p.top_right, p.bottom_right, p.bottom_left]
    centre = np.array([[[sum(c.x for c in corners) / 4, sum(c.y for c in corners) / 4]]])
    x, y = cv2.perspectiveTransform(centre * shrink, np.linalg.inv(to_photo)).ravel()
    qx, qy, side = frame.qr
    inside = abs(x - qx - side / 2) < side / 4 and abs(y - qy - side / 2) < side / 4
    return str(found[0].text) if inside else None


def _payload(text: str | None) -> Payload | None:
    if text is None:
        return None
    try:
        return parse_payload(text)
    except AidsError:
        raise PhotoRefused("scan/payload") from None


def _check_event(code: Payload, expected: str | None) -> None:
    if expected is not None and code.event_tag != event_tag(expected):
        raise PhotoRefused("scan/other_event")


__all__ = [  # with what the tests and the benchmark read of the bubbles here
    "QR", "SCALE", "SECTORS", "PhotoRefused", "bubble_labels", "read_slip", "zxing_text",
]  # fmt: skip
