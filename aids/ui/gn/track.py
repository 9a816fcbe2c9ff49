"""The Grand National's course as the page draws it: an oval run left-handed, its lanes as
rings (lane 1 on the inside), fences as bars across every lane, the water jump, Melling Road,
the horseshoes (Turf cards) on the outside rail, the start and finish line; each horse as its
owner's coloured disc numbered by its cap on its square, a ring round it on the second lap.

The track (lanes, fences, landmarks) is an SVG picture (the page's HTML sanitiser keeps an
``img`` with a data URI, not inline SVG); the discs and the landmarks' names are HTML over it,
placed in the picture's own units and sized in container units, so the whole scales as one.
Two drawings are made: a wide oval for a wide column (the laptop) and a tall one for a narrow
column (the phone); a container query shows the one that fits. Every square on the inside lane
is at least a disc wide and every lane a disc deep, so discs on different squares never
overlap. Horses still behind the start line stand in their lane behind it, as on the board;
placed horses leave the course for the winners' row in the infield.
"""

from __future__ import annotations

import base64
import math
import unicodedata
from dataclasses import dataclass

from aids.core.i18n import t
from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import horse_label
from aids.games.grand_national.model import GnState
from aids.ui.common import html_text, ink_on

LABEL = 10  # a landmark's name, in picture units
# room round the oval for the landmarks' names, in picture units: where a name reads away from
# the rail sideways (the wide drawing's ends, the tall drawing's sides) it needs more
WIDE_ROOM, NARROW_ROOM = 78, 24
NARROW = 470  # px: a column narrower than this shows the tall drawing

CSS = """
<style>
.gn-course-wrap { container-type: inline-size; }
.gn-course { position: relative; margin: 0 auto; container-type: inline-size;
  overflow: hidden; border: 1px solid #c9ccd1; border-radius: 6px; background: #dfeedd; }
.gn-course img { position: absolute; inset: 0; width: 100%; height: 100%; }
.gn-course span { position: absolute; white-space: nowrap; line-height: 1; }
.gn-course .gn-label { color: #1f2933; font-weight: 600;
  text-shadow: 0 0 2px #fff, 0 0 2px #fff, 0 0 3px #fff; }
.gn-course .gn-horse { border-radius: 50%; text-align: center; font-weight: 700;
  box-sizing: border-box; border: 1px solid #333; }
.gn-course .gn-horse.lap2 { box-shadow: 0 0 0 2px #fff, 0 0 0 3.5px #333; }
.gn-course .gn-horse.next { outline: 3px solid #ffb300; outline-offset: 1px; }
.gn-course .gn-horse.shared { border-color: #c62828; }
.gn-course.tall { display: none; }
@container (max-width: %dpx) { .gn-course.wide { display: none; }
  .gn-course.tall { display: block; } }
.gn-legend { font-size: 13px; color: #444; margin: 4px 0 0; }
</style>
""".replace("%d", str(NARROW))


@dataclass(frozen=True, slots=True)
class Oval:
    """The course's shape in picture units: the long way ``length``, the short way ``depth``
    (the picture turned a quarter for the tall drawing), the lanes' band and each square's
    place."""

    length: float
    depth: float
    tall: bool
    lanes: int
    lap: int

    @property
    def end(self) -> float:  # room beyond the bends
        return NARROW_ROOM if self.tall else WIDE_ROOM

    @property
    def side(self) -> float:  # room beside the straights
        return WIDE_ROOM if self.tall else NARROW_ROOM

    @property
    def half(self) -> float:  # the outer rail's radius round a bend
        return (self.depth - 2 * self.side) / 2

    @property
    def lane_w(self) -> float:
        """Lanes as deep as a square on the inside lane is long (a disc fits either way),
        leaving some infield."""
        # P1 / lap == w with P1 = 2 Ls + 2π (R_out − (lanes − ½) w)
        w = (2 * self.straight + 2 * math.pi * self.half) / (
            self.lap + 2 * math.pi * (self.lanes - 0.5)
        )
        return min(w, self.half * 0.85 / self.lanes)

    @property
    def inner(self) -> float:  # the inside rail's radius
        return self.half - self.lanes * self.lane_w

    @property
    def straight(self) -> float:
        return self.length - 2 * self.end - 2 * self.half

    @property
    def square(self) -> float:
        """A square's length on the inside lane."""
        r1 = self.inner + self.lane_w / 2
        return (2 * self.straight + 2 * math.pi * r1) / self.lap

    @property
    def disc(self) -> float:
        """A horse's disc diameter: a little under a square and a lane."""
        return 0.9 * min(self.square, self.lane_w)

    @property
    def width(self) -> float:
        return self.depth if self.tall else self.length

    @property
    def height(self) -> float:
        return self.length if self.tall else self.depth

    def point(self, at: float, radius: float) -> tuple[float, float]:
        """The point ``at`` lengths round the lap (0 = the start line, running left-handed)
        at ``radius`` from the bends' centres."""
        r1 = self.inner + self.lane_w / 2
        per = 2 * self.straight + 2 * math.pi * r1
        fs, fc = self.straight / per, math.pi * r1 / per
        u = (at / self.lap + 0.4 * fs) % 1.0  # the line 40 % along the home straight
        cy = self.depth / 2
        left, right = self.end + self.half, self.length - self.end - self.half
        if u < fs:  # the home straight, left to right along the bottom
            x, y = left + u / fs * self.straight, cy + radius
        elif u < fs + fc:  # the far bend, up the right
            a = math.pi / 2 - math.pi * (u - fs) / fc
            x, y = right + radius * math.cos(a), cy + radius * math.sin(a)
        elif u < 2 * fs + fc:  # the back straight, right to left along the top
            x, y = right - (u - fs - fc) / fs * self.straight, cy - radius
        else:  # the home bend, down the left
            a = -math.pi / 2 - math.pi * (u - 2 * fs - fc) / fc
            x, y = left + radius * math.cos(a), cy + radius * math.sin(a)
        return (y, self.length - x) if self.tall else (x, y)

    def from_centre(self, x: float, y: float) -> float:
        """How far a point of the picture is from the line between the bends' centres: inside
        the inside rail below ``inner``, beyond the outside rail above ``half``."""
        if self.tall:
            x, y = self.length - y, x
        left, right = self.end + self.half, self.length - self.end - self.half
        nearest = min(max(x, left), right)
        return math.hypot(x - nearest, y - self.depth / 2)

    def lane_radius(self, lane: int) -> float:
        return self.inner + (lane - 0.5) * self.lane_w

    def outward(self, at: float) -> tuple[float, float]:
        """The unit vector from the inside rail to the outside at ``at``."""
        x0, y0 = self.point(at, self.inner)
        x1, y1 = self.point(at, self.half)
        d = math.hypot(x1 - x0, y1 - y0) or 1.0
        return (x1 - x0) / d, (y1 - y0) / d


def text_width(text: str, size: float) -> float:
    """A generous guess of a label's width (no font metrics here)."""
    em = 0.0
    for ch in text:
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            em += 1.0
        elif ch in " .,'-/·:()":
            em += 0.35
        elif ch.isupper():
            em += 0.7
        else:
            em += 0.56
    return em * size * 1.05


Box = tuple[float, float, float, float]


def _clear(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def course_html(state: GnState, lang: str, label: str) -> str:
    """Both drawings (wide and tall) of the course with every horse, and the legend."""
    legend = html_text(t("gn.ui.course_legend", lang))
    drawings = "".join(_drawing(state, lang, label, tall) for tall in (False, True))
    return f'{CSS}<div class="gn-course-wrap">{drawings}<p class="gn-legend">{legend}</p></div>'


def _drawing(state: GnState, lang: str, label: str, tall: bool) -> str:
    track = state.setup.track
    oval = Oval(580 if tall else 640, 360 if tall else 340, tall, track.lanes, track.lap)
    placed: list[Box] = []
    discs = _horses(state, oval, placed)
    names = _landmarks(state, oval, lang, placed)
    picture = base64.b64encode(_svg(state, oval).encode("utf-8")).decode("ascii")
    kind = "tall" if tall else "wide"
    return (
        f'<div class="gn-course {kind}" role="img" aria-label="{html_text(label)}" '
        f'style="aspect-ratio: {oval.width:.0f} / {oval.height:.0f}">'
        f'<img src="data:image/svg+xml;base64,{picture}" alt="">{names}{discs}</div>'
    )


def _pos(oval: Oval, x: float, y: float) -> str:
    return f"left:{x / oval.width * 100:.3f}%;top:{y / oval.height * 100:.3f}%"


def _size(oval: Oval, units: float) -> str:
    return f"{units / oval.width * 100:.3f}cqw"


def _svg(state: GnState, oval: Oval) -> str:
    """The oval: grass, the lanes' band and rings, the landmarks across it, the start line."""
    track = state.setup.track
    w, h = oval.width, oval.height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0f} {h:.0f}">',
        f'<rect width="{w:.0f}" height="{h:.0f}" fill="#dfeedd"/>',
    ]

    def ring(radius: float, **style: str) -> str:
        steps = max(96, track.lap * 4)
        pts = " ".join(
            f"{x:.1f},{y:.1f}"
            for x, y in (oval.point(i * track.lap / steps, radius) for i in range(steps))
        )
        attrs = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in style.items())
        return f'<polygon points="{pts}" {attrs}/>'

    out.append(ring(oval.half, fill="#b7d7a8", stroke="#4f7942", stroke_width="2"))
    out.append(ring(oval.inner, fill="#cfe5c4", stroke="#4f7942", stroke_width="2"))
    for lane in range(1, track.lanes):
        out.append(ring(oval.inner + lane * oval.lane_w, fill="none", stroke="#e8f3e4",
                        stroke_width="1"))  # fmt: skip

    def across(at: float, colour: str, width: float, **extra: str) -> str:
        x0, y0 = oval.point(at, oval.inner)
        x1, y1 = oval.point(at, oval.half)
        attrs = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in extra.items())
        return (f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                f'stroke="{colour}" stroke-width="{width:.1f}" {attrs}/>')  # fmt: skip

    sq = oval.square
    out.append(across(track.melling_road - 0.5, "#9e9e9e", sq * 0.8, stroke_opacity="0.8"))
    for f in track.fences:
        colour = "#3e2723" if f == track.bechers else "#6d4c41"
        out.append(across(f - 0.5, colour, sq * 0.45))
    out.append(across(track.water - 0.5, "#1e88e5", sq * 0.8))
    for shoe in track.horseshoes:
        x, y = oval.point(shoe - 0.5, oval.half + sq * 0.45)
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{sq * 0.3:.1f}" fill="#f9a825" '
                   'stroke="#8d6e00" stroke-width="1"/>')  # fmt: skip
    out.append(across(0, "#fff", 3.5))
    out.append(across(0, "#111", 1.5, stroke_dasharray="3 3"))
    out.append("</svg>")
    return "".join(out)


def _horses(state: GnState, oval: Oval, placed: list[Box]) -> str:
    """A disc per horse on the course (running or pulled up where it stopped: faded), behind
    the line in its lane before its first move, in the infield's row once placed."""
    d = oval.disc
    nxt = engine.next_horse(state)
    finish = state.setup.track.finish
    spots: dict[tuple[int, int], list[int]] = {}
    for h in range(state.horses):
        if state.status[h] in ("running", "pulled_up") and state.distance[h] < finish:
            spots.setdefault((state.distance[h], state.lane[h]), []).append(h)
    out: list[str] = []
    for (distance, lane), here in sorted(spots.items()):
        # several told to share a square (the page flags them): smaller discs side by side
        # within the square, so none hides another nor reaches the next square
        size = d if distance == 0 else min(d, 0.98 * oval.square / len(here))
        for i, h in enumerate(here):
            # behind the line: the starting strings, one behind another in the lane
            spread = (i - (len(here) - 1) / 2) * size / oval.square
            at = -(i + 0.5) if distance == 0 else distance - 0.5 + spread
            x, y = oval.point(at, oval.lane_radius(lane))
            shared = len(here) > 1 and distance > 0
            out.append(_disc(state, oval, h, x, y, size, nxt, placed, shared=shared))
    # placed horses: a row along the infield by the finish, 1st first, each with its place
    cx, cy = oval.point(0, 0)
    ax, ay = oval.point(1, 0)
    tx, ty = (
        (ax - cx) / (math.hypot(ax - cx, ay - cy) or 1),
        (ay - cy) / (math.hypot(ax - cx, ay - cy) or 1),
    )
    nx, ny = -ty, tx  # across the infield
    gap = d * 1.3
    size = LABEL * 0.9
    for place, h in enumerate(state.placed):
        k = (place - (len(state.placed) - 1) / 2) * gap
        x, y = cx + k * tx + d * 0.4 * nx, cy + k * ty + d * 0.4 * ny
        out.append(_disc(state, oval, h, x, y, d, nxt, placed))
        lx, ly = x - nx * (d / 2 + size * 0.7), y - ny * (d / 2 + size * 0.7)
        box = (lx - size / 2, ly - size / 2, lx + size / 2, ly + size / 2)
        placed.append(box)
        out.append(
            f'<span class="gn-label" style="{_pos(oval, box[0], box[1])};'
            f'font-size:{_size(oval, size)}">{place + 1}</span>'
        )
    return "".join(out)


def _disc(
    state: GnState, oval: Oval, h: int, x: float, y: float, d: float, nxt: int | None,
    placed: list[Box], *, shared: bool = False,
) -> str:  # fmt: skip
    colour = load().colour(state.setup.stables[state.owner(h)].colour)
    fill = colour.hex if colour else "#777"
    lap = state.setup.track.lap_of(state.distance[h])
    classes = ["gn-horse"]
    if lap > 1:
        classes.append("lap2")
    if h == nxt:
        classes.append("next")
    if shared:
        classes.append("shared")
    faded = "opacity:.45;" if state.status[h] == "pulled_up" else ""
    placed.append((x - d / 2, y - d / 2, x + d / 2, y + d / 2))
    title = f"{horse_label(state, h)} · {state.distance[h]} · {state.lane[h]}"
    return (
        f'<span class="{" ".join(classes)}" title="{html_text(title)}" '
        f'style="{_pos(oval, x - d / 2, y - d / 2)};width:{_size(oval, d)};'
        f"height:{_size(oval, d)};line-height:{_size(oval, d - 2)};"
        f'font-size:{_size(oval, d * 0.7)};background:{fill};color:{ink_on(fill)};{faded}">'
        f"{h % load().horses + 1}</span>"
    )


def _landmarks(state: GnState, oval: Oval, lang: str, placed: list[Box]) -> str:
    """The landmarks' names outside the rail at their place (inside it where the outside is
    taken), none over a disc or another name; one that finds no room is left out."""
    track = state.setup.track
    marks = [
        (0.0, t("gn.ui.mark_start", lang)),
        (track.bechers - 0.5, t("gn.ui.mark_bechers", lang)),
        (track.water - 0.5, t("gn.ui.mark_water", lang)),
        (track.melling_road - 0.5, t("gn.ui.mark_melling", lang)),
        (track.elbow - 0.5, t("gn.ui.mark_elbow", lang)),
    ]
    out: list[str] = []
    for at, text in marks:
        w, hgt = text_width(text, LABEL), LABEL * 1.1
        ox, oy = oval.outward(at)
        tries = [
            (along, radius, sign)
            for along in (0.0, -1.5, 1.5, -3.0, 3.0, -5.0, 5.0)
            for radius, sign in ((oval.half + 3, 1), (oval.half + 14, 1), (oval.inner - 3, -1))
        ]
        for along, radius, sign in tries:
            x, y = oval.point(at + along, radius)
            # the box reaches away from the rail: its near corner on the point
            bx = x - w / 2 + sign * ox * w / 2
            by = y - hgt / 2 + sign * oy * hgt / 2
            box = (bx, by, bx + w, by + hgt)
            corners = [
                oval.from_centre(cx, cy) for cx in (box[0], box[2]) for cy in (box[1], box[3])
            ]
            off_band = (
                min(corners) > oval.half + 1 if sign > 0 else max(corners) < oval.inner - 1
            )  # beyond the outside rail, or wholly in the infield
            inside = box[0] >= 2 and box[1] >= 2 and box[2] <= oval.width - 2
            if (
                off_band
                and inside
                and box[3] <= oval.height - 2
                and all(_clear(box, b) for b in placed)
            ):
                placed.append(box)
                out.append(
                    f'<span class="gn-label" style="{_pos(oval, bx, by)};'
                    f'font-size:{_size(oval, LABEL)}">{html_text(text)}</span>'
                )
                break
    return "".join(out)
