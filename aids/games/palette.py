"""A colour of a game's pieces, counters or cards, as its seed file names it; and the inks
of chart lines: a piece's own colour in Okabe & Ito's colour-blind-safe palette."""

from __future__ import annotations

from collections.abc import Sequence
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
WHITE = "#FFFFFF"
EDGE = "#3A3A3A"  # the casing of a pale line or marker, so it reads on white paper
#: Lines whose piece gives no colour take these in turn (darkest first; the yellow is pale).
LINE_ORDER = tuple(
    OKABE_ITO[n]
    for n in ("blue", "vermillion", "bluish_green", "reddish_purple", "orange", "sky_blue", "black")
)
#: A piece's colour (the key a setup gives a seat: a car, a team, a stable, a counter) as
#: the palette's ink of the same name or nearest hue, so a red car's line is red.
PIECE_INKS = {
    "red": OKABE_ITO["vermillion"],
    "vermillion": OKABE_ITO["vermillion"],
    "orange": OKABE_ITO["orange"],
    "yellow": OKABE_ITO["yellow"],
    "green": OKABE_ITO["bluish_green"],
    "blue": OKABE_ITO["blue"],
    "sky": OKABE_ITO["sky_blue"],
    "sky_blue": OKABE_ITO["sky_blue"],
    "light_blue": OKABE_ITO["sky_blue"],
    "purple": OKABE_ITO["reddish_purple"],
    "pink": OKABE_ITO["reddish_purple"],
    "black": OKABE_ITO["black"],
    "white": WHITE,
}


@dataclass(frozen=True, slots=True)
class Ink:
    """How a chart line is drawn: ``fill`` its colour; ``edge`` a dark casing around it when
    the colour is too pale to read on white (yellow, white), else None."""

    fill: str
    edge: str | None = None


def contrast_on_white(hex_colour: str) -> float:
    """WCAG contrast of ``#rrggbb`` against white.

    >>> round(contrast_on_white("#000000")), round(contrast_on_white("#F0E442"), 1)
    (21, 1.3)
    """

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    return 1.05 / (luminance + 0.05)


PALE = 1.6  # contrast on white below which a line gets its casing


def line_inks(pieces: Sequence[str | None]) -> tuple[Ink, ...]:
    """Each line's ink, in seat order, from its piece's colour key (None: the piece has
    none): the palette's ink of that colour; a line whose piece has no known colour, or
    whose ink an earlier line already has, takes the first ink of ``LINE_ORDER`` no line
    has yet. Pale inks get a casing. The marker shape and dash stay the second cue.

    >>> [i.fill for i in line_inks(["red", "blue", None])]
    ['#D55E00', '#0072B2', '#009E73']
    >>> line_inks(["white"])[0]
    Ink(fill='#FFFFFF', edge='#3A3A3A')
    >>> [i.fill for i in line_inks(["purple", "pink"])]  # one ink for both: the second moves
    ['#CC79A7', '#0072B2']
    """
    fills: list[str] = []
    for key in pieces:
        want = PIECE_INKS.get(key or "")
        if want is None or want in fills:
            free = [c for c in LINE_ORDER if c not in fills]
            want = free[0] if free else LINE_ORDER[len(fills) % len(LINE_ORDER)]
        fills.append(want)
    return tuple(Ink(f, EDGE if contrast_on_white(f) < PALE else None) for f in fills)
