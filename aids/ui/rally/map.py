"""The rally's map as the page draws it: roads, the ferry, the best route and the town dots as
an SVG picture (the page's HTML sanitiser keeps an ``img`` with a data URI, not inline SVG),
and over it, as HTML the browser lays out, each car's disc on its town, the town labels and the
stop a movement will make. Everything is placed in the picture's own units (``WIDTH`` wide)
and sized in container units, so it scales with the map as one: labels placed apart on the
laptop stay apart on the phone.

Labels are placed greedily, most important first (the goal, the start, the cars' towns, the
stop, the jams, then the other towns in view), at the first spot around their town that
leaves every earlier label, every car and the map's edge clear; a quiet town's label that
finds no spot is left out.
"""

from __future__ import annotations

import base64
import math
import unicodedata
from dataclasses import dataclass

from aids.games.rally.board import RallyMap
from aids.games.rally.data import load
from aids.games.rally.describe import car_label
from aids.games.rally.model import RallyState
from aids.ui.common import html_text, ink_on

WIDTH = 600  # the picture's own units; it scales to the column
BIG = 19  # a marked town's label (goal, start, a car's town, the stop, a jam), in units
SMALL = 15  # another town's label
CAR = 13  # a car disc's radius
ROW = 4  # cars side by side on one town before a second row
GAP = 4  # between a dot and its label, and around every label
MAX_QUIET = 40  # other towns' labels tried at most

MAP_CSS = """
<style>
.rally-map { position: relative; margin: 0 auto; container-type: inline-size; overflow: hidden;
  background: #eef4f8; border: 1px solid #c9ccd1; border-radius: 6px; }
.rally-map img { position: absolute; inset: 0; width: 100%; height: 100%; }
.rally-map span { position: absolute; white-space: nowrap; line-height: 1; }
.rally-map .rally-label { color: #1f2933;
  text-shadow: 0 0 2px #fff, 0 0 2px #fff, 0 0 3px #fff; }
.rally-map .rally-label.big { font-weight: 700; }
.rally-map .rally-label.stop { color: #7a1f00; }
.rally-map .rally-car { border-radius: 50%; text-align: center; font-weight: 700;
  box-shadow: 0 0 0 1.5px #fff; }
.rally-map .rally-stop { border-radius: 50%; border: 3px solid #d84315;
  box-sizing: border-box; }
</style>
"""


@dataclass(frozen=True, slots=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def clear_of(self, other: Box) -> bool:
        return (
            self.x1 <= other.x0 or other.x1 <= self.x0 or self.y1 <= other.y0 or other.y1 <= self.y0
        )

    def inside(self, width: float, height: float) -> bool:
        return self.x0 >= 0 and self.y0 >= 0 and self.x1 <= width and self.y1 <= height


def text_width(text: str, size: float, *, bold: bool) -> float:
    """A generous guess of a label's width (no font metrics here): wide letters, digits and
    CJK count more, narrow punctuation less; bold a little wider."""
    em = 0.0
    for ch in text:
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            em += 1.25 if ord(ch) > 0x1F000 else 1.0  # an emoji, else a CJK character
        elif ch in " .,'-/·:()":
            em += 0.33
        elif ch.isupper() or ch in "mwMW":
            em += 0.72
        else:
            em += 0.58
    return em * size * (1.12 if bold else 1.05)


@dataclass
class Layout:
    """The map's view and what has been placed on it so far."""

    board: RallyMap
    west: float
    north: float
    kx: float
    ky: float
    height: float
    placed: list[Box]  # labels, car groups and the stop's ring, as placed so far
    groups: dict[str, Box]  # the cars' discs on each town that has cars
    leaders: list[tuple[float, float, float, float]]  # town → a label placed away from it

    def xy(self, town_id: str) -> tuple[float, float]:
        town = self.board.town(town_id)
        return (town.lon - self.west) * self.kx, (self.north - town.lat) * self.ky

    def in_view(self, town_id: str) -> bool:
        x, y = self.xy(town_id)
        return 0 <= x <= WIDTH and 0 <= y <= self.height

    def free(self, box: Box) -> bool:
        return box.inside(WIDTH, self.height) and all(box.clear_of(b) for b in self.placed)


def layout(board: RallyMap, focus: set[str]) -> Layout:
    """The box around the ``focus`` towns: a plain equirectangular view, squeezed by the cosine
    of the mean latitude, widened or heightened so a long thin course still fills a
    screen-shaped box."""
    towns = [board.town(i) for i in focus] or list(board.towns)
    lats, lons = [t_.lat for t_ in towns], [t_.lon for t_ in towns]
    squeeze = math.cos(math.radians(sum(lats) / len(lats)))
    pad = 0.45
    west, east = min(lons) - pad / squeeze, max(lons) + pad / squeeze
    south, north = min(lats) - pad, max(lats) + pad
    span_x, span_y = (east - west) * squeeze, north - south
    if span_x < span_y * 0.8:  # too thin: widen around the middle
        grow = (span_y * 0.8 - span_x) / squeeze / 2
        west, span_x = west - grow, span_y * 0.8
    elif span_y < span_x * 0.6:  # too flat: heighten around the middle
        grow = (span_x * 0.6 - span_y) / 2
        north, span_y = north + grow, span_x * 0.6
    scale = WIDTH / span_x
    return Layout(board, west, north, scale * squeeze, scale, span_y * scale, [], {}, [])


def map_html(state: RallyState, lang: str, label: str, stop: str | None = None) -> str:
    """The map around the course and the cars, with ``stop`` (a movement's town) marked."""
    board = state.setup.board
    route = [town for town, _, _ in board.route(state.setup.start, state.setup.goal)]
    focus = set(route) | set(state.towns) | set(state.jams) | ({stop} if stop else set())
    view = layout(board, focus)
    here = state.towns[state.turn]
    parts = [_stop(view, stop), _cars(state, view)]  # the ring under the cars
    marked = [state.setup.goal, state.setup.start, *dict.fromkeys(state.towns)]
    marked += [stop] if stop else []
    marked += sorted(state.jams)
    for town_id in dict.fromkeys(marked):
        parts.append(_label(state, view, town_id, lang, big=True, stop=town_id == stop))
    quiet = [t_.id for t_ in board.towns if t_.id not in marked and view.in_view(t_.id)]
    quiet.sort(key=lambda town_id: (town_id not in route, town_id))
    for town_id in quiet[:MAX_QUIET]:
        parts.append(_label(state, view, town_id, lang, big=False, stop=False))
    picture = _svg(state, view, route, here if stop else None, stop)
    data = base64.b64encode(picture.encode("utf-8")).decode("ascii")
    ratio = WIDTH / view.height
    return (
        f'<div class="rally-map" role="img" aria-label="{html_text(label)}" '
        f'style="width: min(100%, calc(62vh * {ratio:.4f})); aspect-ratio: {WIDTH} / '
        f'{view.height:.1f}"><img src="data:image/svg+xml;base64,{data}" alt="">'
        + "".join(parts)
        + "</div>"
    )


def _pos(view: Layout, x: float, y: float) -> str:
    return f"left:{x / WIDTH * 100:.3f}%;top:{y / view.height * 100:.3f}%"


def _size(units: float) -> str:
    """A length in the picture's units as container units: it scales with the map."""
    return f"{units / WIDTH * 100:.3f}cqw"


def _cars(state: RallyState, view: Layout) -> str:
    """Each car as its coloured numbered disc on its town; cars on one town side by side
    (rows of ``ROW``), the group kept inside the map and over its town."""
    by_town: dict[str, list[int]] = {}
    for seat, town_id in enumerate(state.towns):
        by_town.setdefault(town_id, []).append(seat)
    out = []
    d = 2 * CAR
    for town_id, seats in by_town.items():
        x, y = view.xy(town_id)
        cols, rows = min(len(seats), ROW), -(-len(seats) // ROW)
        left = min(max(x - cols * CAR, 0), WIDTH - cols * d)
        top = min(max(y - rows * CAR, 0), view.height - rows * d)
        at = f"{x / WIDTH:.5f},{y / view.height:.5f}"  # where its town is, for the tests
        view.groups[town_id] = Box(left, top, left + cols * d, top + rows * d)
        view.placed.append(view.groups[town_id])
        for i, seat in enumerate(seats):
            colour = load().colour(state.setup.players[seat].colour)
            fill = colour.hex if colour else "#777777"
            cx, cy = left + (i % ROW) * d, top + (i // ROW) * d
            out.append(
                f'<span class="rally-car" data-town="{html_text(town_id)}" data-at="{at}" '
                f'title="{html_text(car_label(state, seat))}" style="{_pos(view, cx, cy)};'
                f"width:{_size(d)};height:{_size(d)};font-size:{_size(CAR * 1.2)};"
                f'line-height:{_size(d)};background:{fill};color:{ink_on(fill)}">{seat + 1}</span>'
            )
    return "".join(out)


def _stop(view: Layout, stop: str | None) -> str:
    """A ring on the town a movement will stop at."""
    if stop is None:
        return ""
    x, y = view.xy(stop)
    r = CAR + 5
    view.placed.append(Box(x - r, y - r, x + r, y + r))
    return (
        f'<span class="rally-stop" data-town="{html_text(stop)}" style="'
        f'{_pos(view, x - r, y - r)};width:{_size(2 * r)};height:{_size(2 * r)}"></span>'
    )


def _label(
    state: RallyState, view: Layout, town_id: str, lang: str, *, big: bool, stop: bool
) -> str:
    """A town's name at the first free spot around it (right, left, above, below, then the
    corners, then farther out); empty for a quiet town with no free spot."""
    mark = "🏁 " if town_id == state.setup.goal else "⚑ " if town_id == state.setup.start else ""
    jam = "🚧 " if town_id in state.jams else ""
    text = jam + mark + view.board.town_name(town_id, lang)
    size = BIG if big else SMALL
    w, h = text_width(text, size, bold=big) + 2, size + 2
    x, y = view.xy(town_id)
    r = CAR + 5 if stop else 4
    near = view.groups.get(town_id, Box(x - r, y - r, x + r, y + r))  # its cars, ring or dot
    for reach in (GAP, 3 * GAP, 6 * GAP) if big else (GAP,):
        right, left = near.x1 + reach, near.x0 - reach  # the label's near edge
        above, below = near.y0 - reach - h, near.y1 + reach
        spots = (  # (its left edge, its top, the edge it hangs from: the one nearest the town)
            (right, y - h / 2, "left"),
            (left - w, y - h / 2, "right"),
            (x - w / 2, above, "centre"),
            (x - w / 2, below, "centre"),
            (right, above, "left"),
            (right, below, "left"),
            (left - w, above, "right"),
            (left - w, below, "right"),
        )
        for bx, by, edge in spots:
            box = Box(bx, by, bx + w, by + h)
            if view.free(Box(box.x0 - GAP / 2, box.y0 - GAP / 2, box.x1 + GAP / 2, box.y1)):
                view.placed.append(box)
                if reach > GAP:  # away from its town: a thin line leads to it
                    view.leaders.append((x, y, min(max(x, box.x0), box.x1), by + h / 2))
                css = "rally-label big" if big else "rally-label"
                css += " stop" if stop else ""
                top = f"top:{(by + 1) / view.height * 100:.3f}%"
                if edge == "left":
                    where = f"left:{(bx + 1) / WIDTH * 100:.3f}%;{top}"
                elif edge == "right":
                    where = f"right:{(WIDTH - bx - w + 1) / WIDTH * 100:.3f}%;{top}"
                else:
                    where = f"left:{x / WIDTH * 100:.3f}%;{top};transform:translateX(-50%)"
                return (
                    f'<span class="{css}" data-town="{html_text(town_id)}" '
                    f'style="{where};font-size:{_size(size)}">{html_text(text)}</span>'
                )
    return ""


def _svg(
    state: RallyState, view: Layout, route: list[str], here: str | None, stop: str | None
) -> str:
    """The picture under the pieces: roads, the ferry (dashed), the best route (thick), the
    town dots, and a dashed line from the car to act to its stop."""
    board = view.board
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {view.height:.1f}" '
        f'width="{WIDTH}" height="{view.height:.1f}">'
    ]

    def line(a: str, b: str, style: str) -> str:
        (x1, y1), (x2, y2) = view.xy(a), view.xy(b)
        return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {style}/>'

    parts += [line(r.a, r.b, 'stroke="#9aa5b1" stroke-width="1.4"') for r in board.roads]
    dashed = 'stroke="#1565c0" stroke-width="2" stroke-dasharray="6 4"'
    parts += [line(a, b, dashed) for a, b in board.ferries]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in map(view.xy, route))
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="#f9a825" stroke-width="5" '
        'stroke-opacity="0.55" stroke-linejoin="round"/>'
    )
    for x1, y1, x2, y2 in view.leaders:
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#52606d" '
            'stroke-width="0.8"/>'
        )
    if here is not None and stop is not None and stop != here:
        parts.append(line(here, stop, 'stroke="#d84315" stroke-width="3" stroke-dasharray="7 5"'))
    for town in board.towns:
        x, y = view.xy(town.id)
        fill = "#c62828" if town.id in state.jams else "#52606d"
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{fill}"/>')
    parts.append("</svg>")
    return "".join(parts)
