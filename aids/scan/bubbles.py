"""The bubbles of a straightened slip: the paper's brightness around them and how much of
each is inked, measured all at once (``np.bincount`` over a label image of the layout's
circles cut in sectors), so a fill scores high and a cross low (see ``reading``)."""

from __future__ import annotations

from functools import cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from aids.print.slip_layout import Shape, layout_of
from aids.scan.reading import INK, INK_FROM, LEVEL, PEN

Image = npt.NDArray[Any]  # what OpenCV returns (its stubs say integer or floating)
SCALE = 2.2  # pixels per slip point in the straightened slip (6.2 px/mm)
INNER = 0.8  # the share of a bubble's radius read (inside its printed circle)
HOLE = 0.4  # the centre left out: every stroke through the circle crosses it
SECTORS = 16  # of 22.5°: four of them, 90° apart, lie between a cross's arms
HALF = 0.6  # a sector this covered is inked
RUN = 8  # sectors inked in a row (180° and more): a hurried fill; a cross's arms reach 6


def paper_brightness(gray: Image) -> npt.NDArray[np.float32]:
    """The paper's brightness at every pixel: a closing (on a quarter-size copy, for speed)
    wider than a filled bubble removes the marks and keeps the light's gradients."""
    quarter = cv2.resize(gray, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    closed = cv2.morphologyEx(quarter, cv2.MORPH_CLOSE, kernel)
    closed = cv2.GaussianBlur(closed, (5, 5), 0)
    paper = cv2.resize(closed, (gray.shape[1], gray.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.maximum(paper.astype(np.float32), 1.0)


@cache
def bubble_labels(shape: Shape) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """A label image of the straightened slip: the inside of bubble n (a ring from ``HOLE``
    to ``INNER`` of its radius, inside its printed circle) cut in ``SECTORS`` sectors centred
    on 0°, 22.5°, … (labels 16n + 1 … 16n + 16; elsewhere 0), and each label's pixel count."""
    lay = layout_of(shape)
    height, width = round(lay.height * SCALE), round(lay.width * SCALE)
    bubbles = [b for row in lay.rows for b in row.bubbles]
    owner = np.zeros((height, width), dtype=np.int32)
    for n, b in enumerate(bubbles, start=1):  # once per shape: which bubble a pixel is near
        centre = (round(b.x * SCALE * 16), round(b.y * SCALE * 16))
        cv2.circle(owner, centre, round(b.r * INNER * SCALE * 16), n, -1, cv2.LINE_8, 4)
    cx = np.array([0.0] + [b.x * SCALE for b in bubbles])
    cy = np.array([0.0] + [b.y * SCALE for b in bubbles])
    rr = np.array([1.0] + [b.r * SCALE for b in bubbles])
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float64)
    dx, dy = xx - cx[owner], yy - cy[owner]  # pixel i is slip point i / SCALE (its centre)
    sector = np.floor(np.mod(np.arctan2(dy, dx) + np.pi / SECTORS, 2 * np.pi)
                      / (2 * np.pi / SECTORS)).astype(np.int32) % SECTORS  # fmt: skip
    inside = (owner > 0) & (np.hypot(dx, dy) >= HOLE * rr[owner])
    labels = np.where(inside, (owner - 1) * SECTORS + sector + 1, 0).astype(np.int32)
    counts = np.bincount(labels.ravel(), minlength=len(bubbles) * SECTORS + 1)
    return labels, counts.astype(np.float64)


@cache
def _label_pixels(shape: Shape) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int32]]:
    """The straightened slip's pixels that some bubble's sector reads (flat indices) and their
    labels, so each photo gathers only those."""
    labels, _ = bubble_labels(shape)
    where = np.flatnonzero(labels)
    return where, labels.ravel()[where]


def bubble_coverage(
    gray: Image, paper: npt.NDArray[np.float32], shape: Shape
) -> npt.NDArray[np.float64]:
    """Each bubble's fill (in layout order), judged against the paper around it and against
    the bubble's own darkest marks: a pixel is ink where it is darker than the paper by
    ``INK``, or, in a bubble whose darkest tenth is lighter than a pen's (``PEN``), by as
    much less as that tenth is lighter (down to ``INK_FROM``; not where it is fainter than
    ``LEVEL``: a smudge, never a fill), so a pen's blurred edge is not ink and a light
    pencil's grey is. Its score: the coverage of its least covered four sectors 90° apart
    (of 16). A fill covers every sector; a cross through the circle, the slip's way to
    cancel, leaves the four between its arms nearly empty, whichever way it is turned
    (measured: see ``reading``). A hurried fill leaves one side white: where ink runs round
    more than ``RUN`` sectors without a break (a cross's arms never do), the least covered
    of each four is left out."""
    _, counts = bubble_labels(shape)
    where, lab = _label_pixels(shape)
    owner = (lab - 1) // SECTORS
    n = len(counts) // SECTORS
    dark = 1 - gray.ravel()[where].astype(np.float32) / paper.ravel()[where]
    bins = np.clip((dark * 32).astype(np.int32), 0, 31)
    hist = np.bincount(owner * 32 + bins, minlength=n * 32).reshape(n, 32).cumsum(axis=1)
    level = (hist < 0.9 * hist[:, -1:]).sum(axis=1) / 32  # each bubble's darkest tenth
    edge = np.where(level >= LEVEL, np.clip(level * INK / PEN, INK_FROM, INK), INK)
    ink = dark >= edge[owner]
    inked = np.bincount(lab, weights=ink, minlength=len(counts))
    cover = (inked[1:] / np.maximum(counts[1:], 1.0)).reshape(-1, SECTORS)
    groups = cover.reshape(-1, 4, SECTORS // 4)  # [k, k+4, k+8, k+12]
    score = groups.mean(axis=1).min(axis=1)
    lenient = np.sort(groups, axis=1)[:, 1:, :].mean(axis=1).min(axis=1)  # one side left out
    hurried = _longest_run(cover >= HALF) >= RUN  # ink all the way round over half the circle
    return np.asarray(np.where(hurried, np.maximum(score, lenient), score), dtype=np.float64)


def _longest_run(covered: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
    """Each bubble's longest run of covered sectors, going round the circle."""
    twice = np.concatenate([covered, covered], axis=1).astype(np.int8)
    run = np.zeros(len(covered), dtype=np.intp)
    best = np.zeros(len(covered), dtype=np.intp)
    for k in range(twice.shape[1]):
        run = (run + 1) * twice[:, k]
        best = np.maximum(best, run)
    return np.minimum(best, covered.shape[1])
