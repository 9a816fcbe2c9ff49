"""What a slip's photo says: each field's value or why it has none, with a confidence and
where it is on the photo, so the organiser sees every flagged field on the photo itself.

A field is a player's place or one of their numbers. Each of its rows (the place row, or one
row per digit) is read from its bubbles' scores (``bubbles.bubble_coverage``): the ink's
coverage of the four least covered sectors of the circle's inside, 90° apart, ink judged
against the paper around it and the bubble's own darkest marks (light pencil is ink). A fill
covers them all (a hurried one all but one side, which the score forgives); a cross through
the circle, the slip's way to cancel a mark, leaves them between its arms. Measured on 120
generated photos (``aids/bench/slip_photos.py``, a quarter of the rows in light pencil or
hurried): of 3,189 fills, 99 % score above 0.67 (the least 0.33: a hurried one, flagged);
the next best bubble of a row, a cross or a blank, 0.44 at the most (99 % under 0.05; a
blank about 0). So one row reads

- a value: exactly one bubble scores at least ``FILL`` and every other under ``CROSS``;
- EMPTY: every bubble under ``BLANK``;
- DOUBLE: two or more score at least ``FILL``;
- UNSURE: anything else (a faint or half mark, a thick cross beside a fill);
- MOVED: its circles are not where the layout puts them (``rings``: a bent slip), so
  nothing is read from it.

A field has a value only when every row has one; it is never guessed. A number that may be
below zero has a sign row (+ and −) before its digits, read as any row: a sign left blank
flags the field, so −2 written as "02" is never proposed as 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from aids.print.slip_layout import Row, Shape

FILL = 0.42  # a fill, even a scribble or one that misses an edge, scores at least this
CROSS = 0.36  # a cross with a pen up to 0.6 mm scores less than this
BLANK = 0.15  # an untouched bubble (its printed digit, noise) scores less than this
INK = 0.33  # a pixel darker than the paper around it by this is ink, whatever the bubble
INK_FROM = 0.15  # one lighter than this never is (the printed digits, a blurred circle)
LEVEL = 0.26  # a bubble whose darkest tenth is fainter than this holds no fill (a smudge)
PEN = 0.5  # a pen's darkest tenth is at least this dark (pencil's, HB, 0.31-0.44 measured)


class Mark(StrEnum):
    """How a row or a field reads."""

    VALUE = "value"
    EMPTY = "empty"
    DOUBLE = "double"
    UNSURE = "unsure"
    MOVED = "moved"  # its circles are not where they are printed (a bent slip): not read


Quad = tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class RowReading:
    """One row: its status, its value if it has one, its confidence and every bubble's
    coverage (0-1, in the order of ``Row.values``)."""

    status: Mark
    value: int | None
    confidence: float
    coverage: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class FieldReading:
    """One field: a player's place (``field`` None) or their number field ``field``.

    ``value`` is set only when ``status`` is VALUE. ``confidence`` is the weakest row's
    (0-1). ``photo_box`` is the field's bubbles' box in the original photo's pixels (four
    corners clockwise from top left: the photo may be turned), ``slip_box`` the same in slip
    points (x0, y0, x1, y1), as the rectified image shows it at ``SlipReading.scale``.
    """

    player: int
    field: int | None
    status: Mark
    value: int | None
    confidence: float
    rows: tuple[RowReading, ...]
    slip_box: tuple[float, float, float, float]
    photo_box: Quad

    @property
    def flagged(self) -> bool:
        """True when the organiser must look at it (anything but a value)."""
        return self.status is not Mark.VALUE


@dataclass(frozen=True, slots=True)
class SlipReading:
    """A photo read: which slip (the table's id, the event's tag ``event_tag``, the check
    value, the shape), every field, and what the organiser needs to see them: the photo's
    size, the homography from slip points to photo pixels (row-major 3 × 3), the photo's
    SHA-256 (kept with the result), and the slip straightened (``picture``, BGR, ``scale``
    pixels per slip point). ``outlined_photo`` and ``rectified_png`` draw the flagged fields
    on the photo and on the straightened slip."""

    table_id: str
    event_tag: str
    check: str
    shape: Shape
    fields: tuple[FieldReading, ...]
    photo_size: tuple[int, int]
    to_photo: tuple[float, ...]
    scale: float
    photo_sha256: str  # the photo's hash, to keep with the result it gave
    picture: npt.NDArray[Any] = field(repr=False, compare=False)

    @property
    def flagged(self) -> tuple[FieldReading, ...]:
        """The fields that are not a value: shown to the organiser, never guessed."""
        return tuple(f for f in self.fields if f.flagged)

    def reading(self, player: int, number: int | None = None) -> FieldReading:
        """Player ``player``'s place (``number`` None) or number field ``number``."""
        for found in self.fields:
            if found.player == player and found.field == number:
                return found
        raise KeyError((player, number))

    def outlined_photo(self, image_bytes: bytes, max_side: int = 1600) -> bytes:
        """The photo itself (as a JPEG at most ``max_side`` pixels long) with every flagged
        field outlined where it lies on it: what the organiser checks before confirming."""
        photo = cv2.imdecode(np.frombuffer(image_bytes, np.uint8), cv2.IMREAD_COLOR)
        if photo is None:
            return b""
        factor = min(1.0, max_side / max(photo.shape[:2]))
        if factor < 1.0:
            photo = cv2.resize(photo, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        width = max(2, round(max(photo.shape[:2]) / 500))
        for f in self.flagged:
            quad = np.round(np.array(f.photo_box) * factor).astype(np.int32)
            cv2.polylines(photo, [quad.reshape(-1, 1, 2)], True, (0, 0, 230), width, cv2.LINE_AA)
        ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 88])
        return bytes(jpeg.tobytes()) if ok else b""

    def rectified_png(self, colour: tuple[int, int, int] = (0, 0, 230)) -> bytes:
        """The straightened slip as a PNG with every flagged field outlined (made when asked:
        encoding is a tenth of a second, more than the reading's own work)."""
        picture = self.picture.copy()
        for f in self.flagged:
            x0, y0, x1, y1 = (round(v * self.scale) for v in f.slip_box)
            cv2.rectangle(picture, (x0, y0), (x1, y1), colour, 2)
        ok, png = cv2.imencode(".png", picture, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        return bytes(png.tobytes()) if ok else b""


def read_row(coverage: Sequence[float], values: Sequence[int]) -> RowReading:
    """One row from its bubbles' coverage.

    >>> read_row([0.02, 0.95, 0.05], [1, 2, 3]).value
    2
    >>> read_row([0.02, 0.95, 0.20], [1, 2, 3]).status  # a cross beside a fill
    <Mark.VALUE: 'value'>
    >>> [read_row(c, [1, 2]).status.name for c in ([0.0, 0.1], [0.9, 0.8], [0.3, 0.0])]
    ['EMPTY', 'DOUBLE', 'UNSURE']
    """
    cover = tuple(round(float(c), 3) for c in coverage)
    order = sorted(range(len(cover)), key=lambda i: -cover[i])
    best = cover[order[0]]
    second = cover[order[1]] if len(cover) > 1 else 0.0
    if best < BLANK:
        return RowReading(Mark.EMPTY, None, _share(BLANK - best, BLANK), cover)
    if best >= FILL and second >= FILL:
        return RowReading(Mark.DOUBLE, None, _share(second - FILL, 1 - FILL), cover)
    if best >= FILL and second < CROSS:
        sure = min(_share(best - FILL, 1 - FILL), _share(CROSS - second, CROSS))
        return RowReading(Mark.VALUE, values[order[0]], 0.5 + sure / 2, cover)
    return RowReading(Mark.UNSURE, None, 0.0, cover)


def _share(part: float, whole: float) -> float:
    return round(min(1.0, max(0.0, part / whole)), 3)


def read_fields(
    shape: Shape,
    rows: Sequence[Row],
    coverage: npt.NDArray[np.float64],
    to_photo: npt.NDArray[np.float64],
    placed: Sequence[bool] | None = None,
) -> tuple[FieldReading, ...]:
    """Every field of the slip from the coverage of every bubble (in ``rows`` order); a row
    not ``placed`` (its circles not found where they are printed) is MOVED, never read."""
    out: list[FieldReading] = []
    start = 0
    groups: dict[tuple[int, int | None], list[tuple[Row, RowReading]]] = {}
    for n, row in enumerate(rows):
        cover = coverage[start : start + len(row.values)]
        start += len(row.values)
        reading = read_row(cover.tolist(), row.values)
        if placed is not None and not placed[n]:
            reading = RowReading(Mark.MOVED, None, 0.0, reading.coverage)
        groups.setdefault((row.player, row.field), []).append((row, reading))
    for (player, f), members in groups.items():
        readings = tuple(r for _, r in members)
        status = _field_status(readings)
        value = None
        if status is Mark.VALUE:
            value = _value([(row.sign, int(r.value or 0)) for row, r in members], f is None)
        boxes = [row.box() for row, _ in members]
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes),
               max(b[2] for b in boxes), max(b[3] for b in boxes))  # fmt: skip
        confidence = min(r.confidence for r in readings)
        out.append(FieldReading(player, f, status, value, confidence, readings, box,
                                _project(box, to_photo)))  # fmt: skip
    return tuple(out)


def _value(rows: Sequence[tuple[bool, int]], place: bool) -> int:
    """A field's value from its rows' values (each with whether it is the sign row): a place
    is its one row's; a number is its digits, most significant first, times its sign (+1
    where it has no sign row).

    >>> _value([(True, -1), (False, 0), (False, 2)], False), _value([(False, 4)], True)
    (-2, 4)
    """
    if place:
        return rows[0][1]
    number, sign = 0, 1
    for is_sign, v in rows:
        if is_sign:
            sign = v
        else:
            number = number * 10 + v
    return sign * number


def _field_status(readings: Sequence[RowReading]) -> Mark:
    """VALUE when every row has one; else the most telling reason (DOUBLE, UNSURE, EMPTY)."""
    states = {r.status for r in readings}
    if states == {Mark.VALUE}:
        return Mark.VALUE
    for mark in (Mark.MOVED, Mark.DOUBLE, Mark.UNSURE):
        if mark in states:
            return mark
    return Mark.EMPTY if states == {Mark.EMPTY} else Mark.UNSURE


def _project(box: tuple[float, float, float, float], h: npt.NDArray[np.float64]) -> Quad:
    x0, y0, x1, y1 = box
    points = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], dtype=np.float64)
    mapped = points @ h.T
    mapped = mapped[:, :2] / mapped[:, 2:3]
    return tuple((round(float(x), 1), round(float(y), 1)) for x, y in mapped)
