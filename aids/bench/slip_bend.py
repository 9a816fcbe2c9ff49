"""Photos of a slip that does not lie flat: bowed across its rows (its middle lifted or sunk
by ``bow`` mm, the bands of its corner markers flat, so the markers stay in one plane and
the homography they give fits), photographed by a pinhole camera at a slant of ``slant``
degrees. The reader then finds the rows' circles away from where the plane puts them: by a
pitch or more at 1 cm and 40°. The same light, blur, grain and JPEG as the flat slip's
(``slip_camera``).

``bowed(y, bow)`` is the lift (mm) at ``y`` mm from the slip's top: a sine squared between
the marker bands, zero in them.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from aids.bench.slip_camera import Image, background, develop

WIDTH, HEIGHT = 148.0, 210.0  # the A5 slip, mm
BAND = 16.0  # mm from the top and from the bottom: the corner markers' rows, kept flat


def bowed(y: npt.NDArray[Any], bow: float, across: float = HEIGHT) -> npt.NDArray[Any]:
    """The lift (mm) of the slip at ``y`` mm from its top (or its side, ``across`` its
    width), for a bow of ``bow`` mm."""
    t = np.clip((y - BAND) / (across - 2 * BAND), 0.0, 1.0)
    return np.asarray(bow * np.sin(np.pi * t) ** 2)


class Camera:
    """A pinhole camera at ``distance`` mm from the slip's centre, ``slant`` degrees off its
    normal towards ``azimuth``, turned ``roll`` degrees about its axis; ``f`` pixels of focal
    length and the principal point ``centre`` are set by ``frame``."""

    def __init__(self, slant: float, azimuth: float, roll: float, distance: float) -> None:
        a, s = math.radians(azimuth), math.radians(slant)
        self.origin = distance * np.array([math.sin(s) * math.cos(a),
                                           math.sin(s) * math.sin(a), math.cos(s)])  # fmt: skip
        ahead = -self.origin / distance
        right = np.cross(ahead, [0.0, 1.0, 0.0])
        right /= np.linalg.norm(right)
        down = np.cross(right, ahead)
        r = math.radians(roll)
        self.right = math.cos(r) * right + math.sin(r) * down
        self.down = -math.sin(r) * right + math.cos(r) * down
        self.ahead = ahead
        self.f = 1.0
        self.centre = np.zeros(2)

    def project(self, points: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """Points (…, 3) in mm (x right, y down from the slip's centre, z lifted) → pixels."""
        rel = points - self.origin
        z = rel @ self.ahead
        return np.stack([rel @ self.right / z, rel @ self.down / z], axis=-1) * self.f + self.centre

    def slip_at(self, pixels: npt.NDArray[Any], bow: float, sideways: bool = False
                ) -> npt.NDArray[Any]:  # fmt: skip
        """The slip's point (x, y mm from its top left) each pixel (…, 2) sees: the ray met
        with the plane at the lift found so far, a few times over (the bow's slope is gentle,
        so this settles in a few steps)."""
        u = (pixels - self.centre) / self.f
        ray = u[..., :1] * self.right + u[..., 1:] * self.down + self.ahead
        lift = np.zeros(pixels.shape[:-1])
        for _ in range(8):
            along = (lift - self.origin[2]) / ray[..., 2]
            hit = self.origin + along[..., None] * ray
            if sideways:  # bowed along its rows instead (the model the reader fits is not)
                lift = bowed(hit[..., 0] + WIDTH / 2, bow, WIDTH)
            else:
                lift = bowed(hit[..., 1] + HEIGHT / 2, bow)
        return np.asarray(hit[..., :2] + [WIDTH / 2, HEIGHT / 2])


def photograph_bent(slip: Image, size: tuple[int, int], rng: np.random.Generator, *,
                    bow: tuple[float, float] = (5.0, 15.0),
                    slant: tuple[float, float] = (20.0, 45.0), turn: float = 30.0,
                    fraction: tuple[float, float] = (0.72, 0.9),
                    blur: tuple[float, float] = (0.2, 1.0), quality: tuple[int, int] = (60, 92),
                    sideways: bool = False, log: list[str] | None = None) -> bytes:  # fmt: skip
    """The slip (rendered, BGR) bowed by ``bow`` mm (a range; up towards the camera three
    times in four, else sunk) and photographed at a slant of ``slant`` degrees (a range)
    from any side, turned up to ``turn`` degrees, filling a ``fraction`` of the frame;
    ``sideways``: bowed along its rows instead, between its left and right edges."""
    log = [] if log is None else log
    w, h = size
    lift = float(rng.uniform(*bow)) * (1 if rng.random() < 0.75 else -1)
    camera = Camera(float(rng.uniform(*slant)), float(rng.uniform(0, 360)),
                    float(rng.uniform(-turn, turn)), 400.0)  # fmt: skip
    log += [f"bow {abs(lift):.1f}", f"slant {math.degrees(math.acos(camera.origin[2] / 400)):.0f}"]
    ys = np.linspace(0, HEIGHT, 43)
    edge = [(x, y) for y in ys for x in (0.0, WIDTH)] + [(x, y) for x in np.linspace(0, WIDTH, 31)
                                                      for y in (0.0, HEIGHT)]  # fmt: skip

    def lift_at(x: float, y: float) -> float:
        return float(bowed(np.array(x), lift, WIDTH) if sideways else bowed(np.array(y), lift))

    rim = np.array([[x - WIDTH / 2, y - HEIGHT / 2, lift_at(x, y)] for x, y in edge])
    seen = camera.project(rim)
    span = seen.max(axis=0) - seen.min(axis=0)
    camera.f = min(h * rng.uniform(*fraction) / span[1], 0.94 * w / span[0])
    seen = camera.project(rim)
    middle = (seen.max(axis=0) + seen.min(axis=0)) / 2
    room = (np.array([w, h]) - (seen.max(axis=0) - seen.min(axis=0))) / 2 - 4
    camera.centre = np.array([w / 2, h / 2]) - middle + rng.uniform(-1, 1, 2) * room * 0.8
    step = 4  # the map is smooth: found at the centres of 4 × 4 cells, then enlarged
    gy, gx = np.mgrid[0 : h + step : step, 0 : w + step : step].astype(np.float64)
    at = camera.slip_at(np.stack([gx, gy], axis=-1) + (step - 1) / 2, lift, sideways)
    per_mm = slip.shape[1] / WIDTH
    full = gx.shape[1] * step, gx.shape[0] * step
    maps = [cv2.resize((at[..., k] * per_mm - 0.5).astype(np.float32), full,
                       interpolation=cv2.INTER_LINEAR)[:h, :w] for k in (0, 1)]  # fmt: skip
    tint = rng.uniform(0.9, 1.0, 3)
    paper = cv2.multiply(slip, (*tint.tolist(), 0.0))  # type: ignore[call-overload]
    picture = background(size, int(rng.integers(0, 5))).copy()
    cv2.remap(paper, maps[0], maps[1], cv2.INTER_LINEAR, dst=picture,
              borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    return develop(picture, size, rng, light=1.0, blur=blur, quality=quality, glare=None,
                   log=log)  # fmt: skip
