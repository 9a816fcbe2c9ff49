"""How good a photo is where it matters, so a refusal says what to change: blurred (hold the
phone still) or washed out by a lamp's reflection (tilt the slip away from the light)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[Any]  # what OpenCV returns (its stubs say integer or floating)

GLARE = 0.9  # a part whose darkest tenth is this bright (of the photo's brightest): washed out


def glare(
    gray: Image,
    to_photo: npt.NDArray[np.float64] | None,
    square: tuple[float, float, float],
    cells: int,
) -> bool:
    """Whether a lamp's reflection washes out part of a printed square (x, y, side in slip
    points: a corner marker, the QR code): cut in ``cells`` × ``cells``, every cell of a
    marker or a code has dark print in it, so a cell whose darkest tenth is nearly as bright
    as the photo's brightest paper is glare, not blur (a blurred cell keeps its dark middle
    grey). Tell the organiser to tilt the slip away from the light, not to hold still."""
    if to_photo is None:
        return False
    x, y, side = square
    n = 12 * cells  # pixels of the square straightened
    shift = np.array([[side / n, 0, x], [0, side / n, y], [0, 0, 1]])
    seen = cv2.warpPerspective(gray, to_photo @ shift, (n, n),
                               flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                               borderValue=0)  # fmt: skip
    bright = float(np.percentile(gray[::4, ::4], 99.5))
    tenth = np.percentile(seen.reshape(cells, 12, cells, 12).swapaxes(1, 2)
                          .reshape(cells, cells, -1), 10, axis=2)  # fmt: skip
    return bool((tenth >= GLARE * bright).any())


def blur_ratio(gray: Image) -> float:
    """How little a further blur changes the picture: the gradient energy after a Gaussian
    of 2.5 px over that after one of 1 px, square-rooted. A sharp edge loses most of its
    energy (about 0.5 for a sharp phone photo); an edge already blurred by s px loses little
    (0.75 at s = 2, 0.85 at s = 3); any number of edges gives the same ratio, and the 1 px
    blur first takes the sensor's noise out."""
    energy = []
    for sigma in (1.0, 2.5):
        smooth = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), sigma)
        gx, gy = cv2.Sobel(smooth, cv2.CV_32F, 1, 0), cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
        energy.append(float(cv2.mean(cv2.magnitude(gx, gy) ** 2)[0]))
    return float(np.sqrt(energy[1] / max(energy[0], 1e-9)))
