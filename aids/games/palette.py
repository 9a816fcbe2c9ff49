"""A colour of a game's pieces, counters or cards, as its seed file names it; and the inks
of chart lines and chance bars: the piece's own colour (a red car's line is the car's red),
a pale one edged in a darker ink of its hue, and inks for what has no colour of its own that
keep clear of the pieces'. The marker shape and dash of a line are the colour-blind cue."""

from __future__ import annotations

import colorsys
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Colour:
    """``key`` is the colour's id in setups and actions; ``symbol`` is shown beside it on the
    page (a colour is never the only sign); names in both languages; ``hex`` for drawing."""

    key: str
    symbol: str
    en: str
    ja: str
    hex: str

    def name(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    def label(self, lang: str) -> str:
        """``🔴 Red`` / ``🔴 赤``."""
        return f"{self.symbol} {self.name(lang)}"


#: Okabe & Ito's colour-blind-safe palette (2008), by its own names.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}
#: Inks for lines and bars whose piece has no colour of its own (a team of cars, a fake
#: game's seat): the one farthest in hue and lightness from every piece colour on the chart
#: is taken first, so none reads as a piece's.
UNCOLOURED = (
    "#00838F",  # teal
    "#5D4037",  # dark brown
    "#827717",  # olive
    "#1A237E",  # navy
    "#AD1457",  # raspberry
    "#616161",  # grey
    OKABE_ITO["orange"],
    OKABE_ITO["sky_blue"],
    OKABE_ITO["reddish_purple"],
)


@dataclass(frozen=True, slots=True)
class Ink:
    """How a chart line or bar is drawn: ``fill`` its colour (the piece's own); ``edge`` a
    darker ink of the same hue around it when the colour is too pale to read on white
    (yellow, white), else None."""

    fill: str
    edge: str | None = None


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return r, g, b


def contrast_on_white(hex_colour: str) -> float:
    """WCAG contrast of ``#rrggbb`` against white.

    >>> round(contrast_on_white("#000000")), round(contrast_on_white("#F0E442"), 1)
    (21, 1.3)
    """

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = _rgb(hex_colour)
    luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    return 1.05 / (luminance + 0.05)


PALE = 2.2  # contrast on white below which a line or bar gets a darker edge of its hue
EDGE_CONTRAST = 4.5  # how dark that edge is made


def darker(hex_colour: str, contrast: float = EDGE_CONTRAST) -> str:
    """The same hue and saturation, darkened until it reads on white at ``contrast``: a
    pale piece's edge (yellow's is a dark ochre, white's a dark grey).

    >>> darker("#f9a825"), darker("#f5f5f5")
    ('#A76905', '#757575')
    """
    r, g, b = (c / 255 for c in _rgb(hex_colour))
    hue, light, sat = colorsys.rgb_to_hls(r, g, b)
    out = hex_colour
    while light > 0 and contrast_on_white(out) < contrast:
        light = max(0.0, light - 0.005)
        out = "#{:02X}{:02X}{:02X}".format(
            *(round(c * 255) for c in colorsys.hls_to_rgb(hue, light, sat))
        )
    return out.upper()


def ink_of(hex_colour: str) -> Ink:
    """A piece's own colour as a line's or bar's ink (``#RRGGBB``), edged when pale.

    >>> ink_of("#d32f2f"), ink_of("#fdd835").edge is not None
    (Ink(fill='#D32F2F', edge=None), True)
    """
    fill = hex_colour.upper()
    return Ink(fill, darker(fill) if contrast_on_white(fill) < PALE else None)


def _lab(hex_colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of ``#rrggbb``: distances there are about as the eye sees them."""

    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in _rgb(hex_colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(a: str, b: str) -> float:
    """How far apart two colours look (CIE76 ΔE).

    >>> round(distance("#000000", "#FFFFFF"))
    100
    """
    la, lb = _lab(a), _lab(b)
    return math.dist(la, lb)


def line_inks(
    colours: Sequence[str | None], keys: Sequence[Hashable] | None = None
) -> tuple[Ink, ...]:
    """Each line's or bar's ink, in order, from its piece's own colour (``#rrggbb``, as the
    game's seeds give it: a red car's line is that red, a pink horse's that pink). One with
    no colour (None) takes the ink of ``UNCOLOURED`` farthest from every piece colour and
    every ink already taken, so it reads as no piece's; ones with equal ``keys`` (the same
    team in two groups of bars) share it. Pale inks get an edge of their own hue.

    >>> [i.fill for i in line_inks(["#d32f2f", "#6a1b9a", "#d81b60"])]
    ['#D32F2F', '#6A1B9A', '#D81B60']
    >>> line_inks(["#f5f5f5"])[0]
    Ink(fill='#F5F5F5', edge='#757575')
    >>> [i.fill for i in line_inks([None, "#1565c0", None], keys=["A", "x", "A"])]
    ['#E69F00', '#1565C0', '#E69F00']
    """
    keys = list(range(len(colours))) if keys is None else list(keys)
    taken = [c.upper() for c in colours if c is not None]
    chosen: dict[Hashable, str] = {}
    out: list[Ink] = []
    for colour, key in zip(colours, keys, strict=True):
        if colour is not None:
            out.append(ink_of(colour))
            continue
        if key not in chosen:
            free = [c for c in UNCOLOURED if c not in taken] or list(UNCOLOURED)
            pick = max(free, key=lambda c: min((distance(c, t) for t in taken), default=0.0))
            chosen[key] = pick
            taken.append(pick)
        out.append(ink_of(chosen[key]))
    return tuple(out)
