"""The camera of the slips' photos (``aids.bench.slip_photos``): a filled slip laid on a table
surface and photographed (``photograph``: turned, in perspective), and what a phone makes of
any scene (``develop``: uneven light and shadow, a lamp's glare, blur, sensor grain, JPEG).
The bent slip's photos (``aids.bench.slip_bend``) lay the slip their own way and develop
here too. Seeded and deterministic."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[Any]  # 8-bit BGR pictures (OpenCV's stubs say integer or floating)

TONES = ((60, 95, 140), (110, 110, 115), (70, 110, 60), (40, 60, 90), (150, 160, 170))


@cache
def background(size: tuple[int, int], variant: int) -> Image:
    """A table's surface: a wood, grey or green tone with grain and blotches (five kinds)."""
    w, h = size
    rng = np.random.default_rng(variant)
    tone = np.array(TONES[variant % len(TONES)], dtype=np.float32)
    low = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC)  # fmt: skip
    wander = rng.normal(0, 0.4, (h, 1)).astype(np.float32).cumsum(axis=0) * 0.02
    grain = np.sin(np.linspace(0, rng.uniform(20, 80), w, dtype=np.float32) + wander)
    field = 1 + 0.12 * low + 0.06 * grain
    surface = tone[None, None, :] * field[:, :, None]
    return np.clip(surface, 0, 255).astype(np.uint8)


def _lighting(size: tuple[int, int], rng: np.random.Generator,
              log: list[str]) -> npt.NDArray[np.float32]:  # fmt: skip
    """A smooth gain across the picture (a lamp to one side), with perhaps a shadow: made at
    a sixteenth of the size and enlarged (it is smooth)."""
    w, h = size[0] // 16, size[1] // 16
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xx / w - 0.5) * math.cos(angle) + (yy / h - 0.5) * math.sin(angle)
    low = rng.uniform(0.55, 0.95)
    log.append(f"light {low:.2f}")
    gain = 1 - (1 - low) * (ramp + 0.7) / 1.4
    if rng.random() < 0.6:  # a shadow: a hand's or a phone's, its edge soft
        log.append("shadow")
        a = rng.uniform(0, 2 * math.pi)
        edge = (xx / w - 0.5) * math.cos(a) + (yy / h - 0.5) * math.sin(a) - rng.uniform(0, 0.35)
        soft = rng.uniform(0.01, 0.06)
        shadow = 1 / (1 + np.exp(np.clip(-edge / soft, -50, 50)))
        gain = gain * (1 - rng.uniform(0.25, 0.5) * shadow)
    gain = np.clip(gain, 0.2, 1.1).astype(np.float32)
    return np.asarray(cv2.resize(gain, size, interpolation=cv2.INTER_LINEAR), dtype=np.float32)


def photograph(slip: Image, size: tuple[int, int], rng: np.random.Generator, *,
               turn: float = 30.0, fraction: tuple[float, float] = (0.7, 0.92),
               blur: tuple[float, float] = (0.2, 1.0), quality: tuple[int, int] = (60, 92),
               crop: float = 0.0, light: float = 1.0,
               glare: tuple[float, float, float] | None = None,
               log: list[str] | None = None) -> bytes:  # fmt: skip
    """The slip laid on a table and photographed: ``turn`` degrees at most, filling a
    ``fraction`` of the frame's height, blurred by ``blur`` px (a range), JPEG at ``quality``;
    ``crop`` > 0 pushes the slip down out of the frame by that share of the frame's height;
    ``light`` scales all the light; ``glare`` (x, y, radius as shares of the slip's width,
    height and height) puts a lamp's reflection there, white to the sensor's limit in its
    middle. What was done is appended to ``log``."""
    log = [] if log is None else log
    w, h = size
    sh, sw = slip.shape[:2]
    angle = math.radians(rng.uniform(-turn, turn))
    log.append(f"turn {abs(math.degrees(angle)):.1f}")
    corners = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], dtype=np.float32)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    for _ in range(60):
        height = h * rng.uniform(*fraction)
        quad = ((corners - [sw / 2, sh / 2]) * (height / sh)) @ rot.T
        quad += rng.normal(0, 0.035 * height, quad.shape)  # perspective
        quad += [w / 2 + rng.normal(0, 0.03 * w), h / 2 + rng.normal(0, 0.03 * h) + h * crop]
        inside = quad[:, 0].min() > 4 and quad[:, 0].max() < w - 4
        inside = inside and quad[:, 1].min() > 4 and quad[:, 1].max() < h - 4
        if inside or crop:
            break
        fraction = (fraction[0] * 0.97, fraction[1] * 0.97)
    m = cv2.getPerspectiveTransform(corners, quad.astype(np.float32))
    tint = rng.uniform(0.9, 1.0, 3)
    paper = cv2.multiply(slip, (*tint.tolist(), 0.0))  # type: ignore[call-overload]
    picture = background(size, int(rng.integers(0, 5))).copy()
    cv2.warpPerspective(paper, m, (w, h), dst=picture, flags=cv2.INTER_AREA,
                        borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    spot = None if glare is None else (m, (sw, sh), glare)
    return develop(picture, size, rng, light=light, blur=blur, quality=quality, glare=spot,
                   log=log)  # fmt: skip


def develop(picture: Image, size: tuple[int, int], rng: np.random.Generator, *,
            light: float, blur: tuple[float, float], quality: tuple[int, int],
            glare: tuple[npt.NDArray[Any], tuple[int, int], tuple[float, float, float]] | None,
            log: list[str]) -> bytes:  # fmt: skip
    """What the phone makes of the scene (the slip already laid on the table in ``picture``):
    uneven light and perhaps a shadow, a lamp's reflection (``glare``: the slip's
    perspective matrix, its size and the spot), blur, the sensor's grain, JPEG."""
    w, h = size
    gain = np.clip(_lighting(size, rng, log) * light * 255, 0, 255).astype(np.uint8)
    lit = cv2.multiply(picture, cv2.merge([gain, gain, gain]), scale=1 / 255)
    if glare is not None:
        lit = _glare(lit, *glare)
        log.append("glare")
    sigma = rng.uniform(*blur)
    log.append(f"blur {sigma:.2f}")
    lit = cv2.GaussianBlur(lit, (0, 0), sigma)
    noise = np.empty((h, w), np.int16)
    cv2.setRNGSeed(int(rng.integers(0, 2**31)))  # OpenCV's own generator, seeded from ours
    cv2.randn(noise, 0, float(rng.uniform(1.5, 4.5)))  # type: ignore[call-overload]
    out = cv2.add(lit, cv2.merge([noise, noise, noise]), dtype=cv2.CV_8U)
    level = int(rng.integers(*quality))
    log.append(f"jpeg {level}")
    ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, level])
    assert ok
    return bytes(jpeg.tobytes())


def _glare(picture: Image, m: npt.NDArray[Any], slip_size: tuple[int, int],
           spot: tuple[float, float, float]) -> Image:  # fmt: skip
    """A lamp's reflection: a bright spot whose middle (a ``spot[2]`` share of the slip's
    height across) is white to the sensor's limit, fading out over as much again."""
    sw, sh = slip_size
    centre = cv2.perspectiveTransform(np.array([[[spot[0] * sw, spot[1] * sh]]]), m).ravel()
    scale = float(np.sqrt(abs(np.linalg.det(m[:2, :2]))))
    radius = spot[2] * sh * scale
    h, w = picture.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.hypot(xx - centre[0], yy - centre[1]) / max(radius, 1.0)
    lift = np.clip(1.6 - 1.1 * d**2, 0, 1)[:, :, None]
    lit: Image = np.clip(picture + (255 - picture.astype(np.float32)) * lift, 0, 255)
    return lit.astype(np.uint8)
