"""Where the printed circles truly are on the straightened slip, so no value is read from a
circle that is not where the layout puts it.

The corner markers give a homography that is right only where the slip is flat. A slip bowed
across its rows, seen at a slant, keeps its markers in one plane (the homography fits and
nothing looks amiss) while its rows' circles land up to a pitch or more away: a value read
there would be the neighbouring circle's. The printed rings are visible (all but the filled
one of a row), so:

1. ``ring_response``: how much each pixel looks like the centre of an empty printed ring (a
   thin dark circle of the bubbles' radius with paper inside and outside; a filled bubble
   gives about nothing);
2. ``row_offsets``: each row's best shift within half a pitch of where the layout puts it;
   every row within ``TOLERANCE`` of its place and clearly found: the slip is flat;
3. ``fit_bow``: else, the bow that explains the rows: a point lifted by ``z(y)`` above the
   markers' plane is seen where the homography puts a point moved towards (or away from) the
   camera's foot, ``q' = c + ((q − c) + φ(y)·U) / (1 + φ(y)·u₃)``, with ``φ`` the lift's
   shape between the marker bands (a mix of a sine and a sine squared) and (U, u₃) found by a
   coarse-to-fine search of the rings' response (four numbers for the whole slip: a shift by
   a whole pitch cannot explain every row, so a row is never taken for its neighbour);
   the reader straightens the photo again through it (``bow_map``);
4. the rows' offsets measured again: a row still away from its place, or whose rings are
   not clearly there, is flagged, never read (``reading.read_fields``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from aids.print.slip_layout import MARKER, MARKER_INSET, PITCH, RADIUS, Shape, layout_of, mm
from aids.scan.bubbles import SCALE, paper_brightness

Image = npt.NDArray[Any]
PX = SCALE * mm  # straightened pixels per millimetre
STEP = PITCH * PX  # a pitch, in straightened pixels (31.8)
TOLERANCE = 0.12 * STEP  # a row this near its place is read where the layout puts it
SEARCH = 0.45 * STEP  # a row is sought this far around its expected place
BAND = MARKER_INSET + MARKER  # mm from the top and the bottom: the markers' rows, flat
BEYOND = 0.5  # a ring this strong (of a typical one) a pitch past a row's end: moved
SEEN = 0.35  # a circle shows its ring where the response is this share of a typical one's
MISSING = 2  # a row's circles that may show no ring: its fill, and one crossed out


@dataclass(frozen=True, slots=True)
class Bow:
    """The bow found: the shift ``U`` (px, at a full lift) and the scale ``u3`` of the
    straightened frame at a full lift, and the lift's shape (``mix``: 0 a sine, 1 a sine
    squared between the marker bands)."""

    u1: float
    u2: float
    u3: float
    mix: float

    def moved(self, x: npt.NDArray[Any], y: npt.NDArray[Any]) -> tuple[Any, Any]:
        """Where points (x, y) of the layout (straightened pixels) are seen on the slip
        straightened by the markers' homography."""
        cx, cy = _centre()
        phi = lift_shape(y, self.mix)
        scale = 1 + phi * self.u3
        return cx + (x - cx + phi * self.u1) / scale, cy + (y - cy + phi * self.u2) / scale


@cache
def _centre() -> tuple[float, float]:
    lay = layout_of(Shape(1, 1, ()))
    return lay.width * SCALE / 2, lay.height * SCALE / 2


def lift_shape(y: npt.NDArray[Any], mix: float) -> npt.NDArray[Any]:
    """The lift's shape at straightened rows ``y`` (0 in the marker bands, 1 at its top)."""
    height = layout_of(Shape(1, 1, ())).height * SCALE
    band = BAND * PX
    t = np.clip((y - band) / (height - 2 * band), 0.0, 1.0)
    s = np.sin(np.pi * t)
    return np.asarray((1 - mix) * s + mix * s * s)


@cache
def _kernel() -> Image:
    """A printed ring's matched filter at half the straightened scale: its circle (the
    bubbles' radius) less the paper just inside and just outside it, each part normalised
    (zero on flat paper or a filled disc)."""
    r = RADIUS * PX / 2
    half = int(r + 5)
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    rho = np.hypot(xx, yy)

    def annulus(at: float) -> Image:
        a: Image = np.exp(-((rho - at) ** 2) / (2 * 0.8**2)).astype(np.float32)
        return np.asarray(a / float(a.sum()), dtype=np.float32)

    kernel: Image = annulus(r) - 0.5 * annulus(r - 2.0) - 0.5 * annulus(r + 2.0)
    return kernel


def ring_response(gray: Image, paper: Image) -> Image:
    """How much each pixel of the straightened slip looks like an empty printed ring's
    centre (the darkness against the paper, through the ring's matched filter, at half the
    scale: a pixel there is 0.16 mm)."""
    dark = np.clip(1 - gray.astype(np.float32) / paper, 0, 1)
    half = cv2.resize(dark, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)  # 4× quicker
    found = cv2.filter2D(half, cv2.CV_32F, _kernel())
    size = (gray.shape[1], gray.shape[0])
    return np.asarray(cv2.resize(found, size, interpolation=cv2.INTER_LINEAR), dtype=np.float32)


@cache
def _centres(shape: Shape) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                    npt.NDArray[np.intp]]:  # fmt: skip
    """Every bubble's centre (straightened px) and the index of its row."""
    rows = layout_of(shape).rows
    x = np.array([b.x * SCALE for row in rows for b in row.bubbles])
    y = np.array([b.y * SCALE for row in rows for b in row.bubbles])
    owner = np.array([n for n, row in enumerate(rows) for _ in row.bubbles], dtype=np.intp)
    return x, y, owner


@cache
def _row_players(shape: Shape) -> npt.NDArray[np.intp]:
    return np.array([row.player for row in layout_of(shape).rows], dtype=np.intp)


def _sample(response: Image, x: Any, y: Any) -> Image:
    h, w = response.shape
    xi = np.clip(np.rint(x).astype(np.intp), 0, w - 1)
    yi = np.clip(np.rint(y).astype(np.intp), 0, h - 1)
    return np.asarray(response[yi, xi])


@dataclass(frozen=True, slots=True)
class Offsets:
    """Each row's shift (px, dx and dy) from where it is expected, and whether its rings
    were clearly found there."""

    dx: npt.NDArray[np.float64]
    dy: npt.NDArray[np.float64]
    clear: npt.NDArray[np.bool_]

    def in_place(self) -> npt.NDArray[np.bool_]:
        """The rows found clearly and within ``TOLERANCE`` of where they are expected."""
        return np.asarray(self.clear & (np.hypot(self.dx, self.dy) <= TOLERANCE))


def row_offsets(response: Image, shape: Shape,
                bow: Bow | None = None) -> Offsets:  # fmt: skip
    """Each row's best shift within ``SEARCH`` of where the layout (moved by ``bow``) puts
    it: the sum of the ring response at its bubbles' centres and its neighbour rows', over a
    grid of shifts; clear where all but ``MISSING`` of its circles (at least one) show their
    ring there, and none shows a pitch past its ends."""
    x, y, owner = _centres(shape)
    if bow is not None:
        x, y = bow.moved(x, y)
    smooth = cv2.GaussianBlur(response, (0, 0), 1.2)
    steps = np.arange(-SEARCH, SEARCH + 1e-9, 2.0)
    gx, gy = np.meshgrid(steps, steps)
    shifts = np.stack([gx.ravel(), gy.ravel()], axis=1)  # (S, 2)
    values = _sample(smooth, x[None, :] + shifts[:, :1], y[None, :] + shifts[:, 1:])  # (S, N)
    n = int(owner.max()) + 1
    per_row = np.zeros((len(shifts), n))
    np.add.at(per_row.T, owner, values.T)
    player = _row_players(shape)
    near = per_row.copy()  # with the rows just above and below of the same player: a row
    same = player[1:] == player[:-1]  # of two circles, one filled, is not found alone
    near[:, 1:] += np.where(same, per_row[:, :-1], 0)
    near[:, :-1] += np.where(same, per_row[:, 1:], 0)
    best = near.argmax(axis=0)
    found = values[best[owner], np.arange(len(owner))]  # each circle's, at its row's shift
    typical = float(np.median(found))  # most circles are empty: an empty ring's, this photo
    count = np.bincount(owner, minlength=n)
    seen = np.bincount(owner, weights=found >= SEEN * typical, minlength=n)
    clear = seen >= np.maximum(1, count - MISSING)  # all but a fill and a cross show a ring
    beyond = _beyond(smooth, x, y, owner, shifts[best])
    clear &= beyond < BEYOND * typical  # a ring past a row's end: it is a pitch away
    return Offsets(shifts[best, 0], shifts[best, 1], np.asarray(clear & (typical > 0)))


def _beyond(smooth: Image, x: Any, y: Any, owner: npt.NDArray[np.intp],
            shift: npt.NDArray[Any]) -> npt.NDArray[Any]:  # fmt: skip
    """The ring response a pitch before each row's first circle and a pitch past its last
    (the stronger): a row moved by a whole pitch along itself looks in place but for its
    ends, where a ring shows that no circle is printed at."""
    first = np.searchsorted(owner, np.arange(int(owner.max()) + 1))
    last = np.append(first[1:], len(owner)) - 1
    step_x = np.where(last > first, x[np.minimum(first + 1, last)] - x[first], STEP)
    step_y = np.where(last > first, y[np.minimum(first + 1, last)] - y[first], 0.0)
    back = np.maximum(last - 1, first)
    end_x = np.where(last > first, x[last] - x[back], STEP)
    end_y = np.where(last > first, y[last] - y[back], 0.0)
    before = _sample(smooth, x[first] - step_x + shift[:, 0], y[first] - step_y + shift[:, 1])
    after = _sample(smooth, x[last] + end_x + shift[:, 0], y[last] + end_y + shift[:, 1])
    return np.asarray(np.maximum(before, after))


def fit_bow(response: Image, shape: Shape) -> Bow:
    """The bow whose moved layout puts the most rings on rings: a coarse search on a
    blurred response over the shift U (±3.5 pitches), the scale u3 and the lift's shape,
    then two finer searches around the best few."""
    x, y, _ = _centres(shape)
    response = np.maximum(response, 0)  # blurred, rings stay rings (the filter's mean is 0)
    pick = np.arange(0, len(x), 2)  # every other circle is enough for the coarse look
    cands = [Bow(u1, u2, u3, m) for m in (0.0, 0.5, 1.0) for u3 in np.linspace(-0.06, 0.06, 7)
             for u1 in np.arange(-3.5 * STEP, 3.5 * STEP + 1, 10.0)
             for u2 in np.arange(-3.5 * STEP, 3.5 * STEP + 1, 10.0)]  # fmt: skip
    best = _best(cv2.GaussianBlur(response, (0, 0), 6.0), x[pick], y[pick], cands, keep=12)
    fine = cv2.GaussianBlur(response, (0, 0), 2.5)
    cands = [Bow(b.u1 + d1, b.u2 + d2, b.u3 + d3, min(1.0, max(0.0, b.mix + dm)))
             for b in best for dm in (-0.25, 0.0, 0.25) for d3 in (-0.01, 0.0, 0.01)
             for d1 in (-6.0, -3.0, 0.0, 3.0, 6.0)
             for d2 in (-6.0, -3.0, 0.0, 3.0, 6.0)]  # fmt: skip
    best = _best(fine, x, y, cands, keep=3)
    finest = cv2.GaussianBlur(response, (0, 0), 1.2)
    cands = [Bow(b.u1 + d1, b.u2 + d2, b.u3 + d3, min(1.0, max(0.0, b.mix + dm)))
             for b in best for dm in (-0.1, 0.0, 0.1) for d3 in (-0.004, 0.0, 0.004)
             for d1 in (-2.0, -1.0, 0.0, 1.0, 2.0)
             for d2 in (-2.0, -1.0, 0.0, 1.0, 2.0)]  # fmt: skip
    return _best(finest, x, y, cands, keep=1)[0]


def _best(response: Image, x: npt.NDArray[Any], y: npt.NDArray[Any],
          cands: list[Bow], keep: int) -> list[Bow]:  # fmt: skip
    """The ``keep`` best bows (each far enough from a better one), by the summed response
    at the moved centres."""
    scores = np.empty(len(cands))
    chunk = max(1, 2_000_000 // len(x))
    for start in range(0, len(cands), chunk):
        part = cands[start : start + chunk]
        u = np.array([[b.u1, b.u2, b.u3, b.mix] for b in part])
        phi_s = lift_shape(y, 0.0)[None, :]
        phi_q = lift_shape(y, 1.0)[None, :]
        phi = (1 - u[:, 3:4]) * phi_s + u[:, 3:4] * phi_q
        cx, cy = _centre()
        scale = 1 + phi * u[:, 2:3]
        mx = cx + (x[None, :] - cx + phi * u[:, 0:1]) / scale
        my = cy + (y[None, :] - cy + phi * u[:, 1:2]) / scale
        scores[start : start + len(part)] = _sample(response, mx, my).sum(axis=1)
    order = np.argsort(-scores)
    chosen: list[Bow] = []
    for i in order:
        b = cands[int(i)]
        if all(abs(b.u1 - c.u1) + abs(b.u2 - c.u2) > 12 for c in chosen):
            chosen.append(b)
        if len(chosen) == keep:
            break
    return chosen


def bow_map(bow: Bow, size: tuple[int, int], to_slip: npt.NDArray[np.float64]
            ) -> tuple[Image, Image]:  # fmt: skip
    """The photo's pixel each pixel of the slip straightened again shows (for
    ``cv2.remap``): the layout's point, moved by the bow, through the homography
    (``to_slip``: straightened pixels → photo pixels). Found on a grid of 8 px and
    enlarged (it is smooth)."""
    w, h = size
    step = 8  # cell i of the grid stands for pixels i·step … i·step + 7: its centre, sampled
    half = (step - 1) / 2
    gy, gx = np.mgrid[0 : h + step : step, 0 : w + step : step].astype(np.float64) + half
    mx, my = bow.moved(gx, gy)
    points = np.stack([mx, my, np.ones_like(mx)], axis=-1) @ to_slip.T
    px, py = points[..., 0] / points[..., 2], points[..., 1] / points[..., 2]
    big = gx.shape[1] * step, gx.shape[0] * step
    maps = [cv2.resize(m.astype(np.float32), big, interpolation=cv2.INTER_LINEAR)[:h, :w]
            for m in (px, py)]  # fmt: skip
    return maps[0], maps[1]


@dataclass(frozen=True, slots=True)
class Located:
    """The slip straightened where its rows truly are: the picture (BGR), its grey and its
    paper's brightness, each row's remaining offset and whether it is in place, and the bow
    found (None for a flat slip)."""

    picture: Image
    gray: Image
    paper: Image
    offsets: Offsets
    bow: Bow | None


def locate(photo: Image, flat: Image, shape: Shape, to_slip: npt.NDArray[np.float64]) -> Located:
    """Check that the rows' printed circles are where the layout puts them on ``flat`` (the
    photo straightened by the markers' homography ``to_slip``); where they are not, find the
    bow and straighten the photo again through it, keeping whichever places more rows."""
    gray = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)
    paper = paper_brightness(gray)
    offsets = row_offsets(ring_response(gray, paper), shape)
    plain = Located(flat, gray, paper, offsets, None)
    if offsets.in_place().all():
        return plain
    bow = fit_bow(ring_response(gray, paper), shape)
    size = (flat.shape[1], flat.shape[0])
    map_x, map_y = bow_map(bow, size, to_slip)
    again = cv2.remap(photo, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gray2 = cv2.cvtColor(again, cv2.COLOR_BGR2GRAY)
    paper2 = paper_brightness(gray2)
    offsets2 = row_offsets(ring_response(gray2, paper2), shape)
    if offsets2.in_place().sum() <= offsets.in_place().sum():
        return plain
    return Located(again, gray2, paper2, offsets2, bow)


def bent_squares(square: tuple[float, float, float], scale: float, to_photo: npt.NDArray[Any],
                 ) -> list[tuple[Image, Image]]:  # fmt: skip
    """Maps (for ``cv2.remap``) of a printed square (x, y, side in slip points, with a
    little room: the QR code) straightened at ``scale`` px/pt as a bowed slip would show
    it, for bows whose shift runs up to 3.5 pitches each way, the smallest first: the QR
    code sits near the top, where a bow's lift starts (and grows as its square), which a
    plane's perspective cannot take out."""
    x, y, side = square
    room = side * 0.12
    n = round((side + 2 * room) * scale)
    gy, gx = np.mgrid[0:n, 0:n].astype(np.float64) / scale
    px, py = (gx + x - room) * SCALE, (gy + y - room) * SCALE  # straightened pixels
    steps = np.arange(-3.5 * STEP, 3.5 * STEP + 1, 0.9 * STEP)
    shifts = sorted(((u1, u2) for u1 in steps for u2 in steps), key=lambda u: np.hypot(*u))
    out = []
    for u1, u2 in shifts[1:]:
        mx, my = Bow(u1, u2, 0.0, 1.0).moved(px, py)
        points = np.stack([mx / SCALE, my / SCALE, np.ones_like(mx)], axis=-1) @ to_photo.T
        out.append(((points[..., 0] / points[..., 2]).astype(np.float32),
                    (points[..., 1] / points[..., 2]).astype(np.float32)))  # fmt: skip
    return out


def bent_box(box: tuple[float, float, float, float], bow: Bow,
             to_photo: npt.NDArray[Any]) -> tuple[tuple[float, float], ...]:  # fmt: skip
    """A box of the layout (x0, y0, x1, y1 in slip points) on the photo of a bowed slip: its
    four corners clockwise from top left, moved by the bow, through the homography."""
    x0, y0, x1, y1 = box
    xs, ys = np.array([x0, x1, x1, x0]) * SCALE, np.array([y0, y0, y1, y1]) * SCALE
    mx, my = bow.moved(xs, ys)
    points = np.stack([mx / SCALE, my / SCALE, np.ones(4)], axis=1) @ to_photo.T
    return tuple((round(float(x / w), 1), round(float(y / w), 1)) for x, y, w in points)
