"""Where everything on a result slip is, and what its QR code says: the one source of truth
the drawer (``aids.print.slips``) and the reader (``aids.scan``) share.

``layout(spec)`` gives every bubble's centre and radius in slip points (from the page's top
left, y down). It depends only on the slip's ``Shape`` (players, places and the digits of each
number field), which the QR code carries with the table's id, the event's tag and a check
value; names and labels are drawn into fixed boxes and never move a bubble. No ReportLab here:
the reader imports it too.

>>> spec = SlipSpec("E" * 24, "Friday night", "T" * 24, "Table 3", "toy", "en",
...                 ("Aki", "Ben"), 2, (NumberField("Points", 3),))
>>> parse_payload(payload(spec)).shape == spec.shape
True
>>> len(layout(spec).rows)  # per player: the place row, then one row per digit
8
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from aids.core.errors import InvalidAction

mm = 72 / 25.4  # points per millimetre (as reportlab.lib.units.mm)
PAGE = (148 * mm, 210 * mm)  # A5 portrait, in points
MAX_PLAYERS, MAX_PLACES, MAX_FIELDS, MAX_TOTAL_DIGITS = 8, 10, 3, 10
MAX_DIGITS = 7  # a number's digits: the Grand National's money in dollars (up to $9,999,999)
ID_RE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9_-]{21,63}\Z")  # a public id (tables.keys)
PREFIX = "aids-slip:1:"
PAYLOAD_RE = re.compile(
    r"\Aaids-slip:1:(?P<table>[A-Za-z0-9][A-Za-z0-9_-]{21,63}):"
    r"(?P<event>[A-Z2-7]{6}):(?P<check>[A-Z2-7]{6}):"
    r"(?P<players>[1-8])\.(?P<places>10|[1-9])\.(?P<digits>(?:-?[1-7](?:,-?[1-7]){0,2})?)\Z"
)

# --- geometry (millimetres on the A5 page; the layout turns them into points, y down) -------
MARKER = 9.0  # the ArUco markers' side: 6 × 6 cells of 1.5 mm
MARKER_INSET = 6.0  # from the paper's edge: inside what office printers can print
QUIET = 4.5  # white around a marker: text nearer merges with it in a blurred photo
MARKER_IDS = (0, 1, 2, 3)  # top left, top right, bottom right, bottom left (ArUco 4x4_50)
QR_SIDE = 30.0  # ≥ 20 mm (DESIGN.md); 60 characters are version 4 (M): 0.73 mm modules
BODY_TOP, BODY_BOTTOM = 52.0, 192.0
COLUMN_X = (8.0, 76.0)  # two columns of players, 64 mm wide
LABEL_W = 13.0  # the row labels left of the bubbles
PITCH = 5.1  # between bubble centres, across and down
RADIUS = 1.9  # a 3.8 mm circle: a pen's fill covers it in two or three strokes
NAME_H, FIELD_H, BLOCK_GAP = 5.5, 3.4, 2.5  # a player's name line, a field's label line


@dataclass(frozen=True, slots=True)
class NumberField:
    """One number each player writes (their score, their money), as ``digits`` digits, led by
    a row of two circles, + and −, where it may be below zero (``signed``: a team's column
    behind the start)."""

    label: str
    digits: int
    signed: bool = False


@dataclass(frozen=True, slots=True)
class Shape:
    """What fixes the bubbles' places: players, places, each number field's digits, and which
    fields have a sign row (``signed``: their indexes, ascending; none by default).

    >>> Shape(5, 5, (2,), (0,)).code(), Shape(4, 4, (7, 3)).code()
    ('5.5.-2', '4.4.7,3')
    """

    players: int
    places: int
    digits: tuple[int, ...]
    signed: tuple[int, ...] = ()

    def code(self) -> str:
        """The shape as the QR code carries it: ``4.4.3,4``; a signed field's digits led by
        ``-`` (``5.5.-2``). A shape without a sign row has the code it always had."""
        fields = ",".join(("-" if f in self.signed else "") + str(d)
                          for f, d in enumerate(self.digits))  # fmt: skip
        return f"{self.players}.{self.places}.{fields}"


@dataclass(frozen=True, slots=True)
class SlipSpec:
    """What a slip prints: the event and table (ids and words), the game's kind (its printed
    name), the language, the players' names in seat order, the places (1..``places``), the
    number fields each player fills in, and a line saying what the result asks that the slip
    has no room for (``off_slip``, printed under the check value so players tell the
    organiser). Checked when made (``InvalidAction`` ``scan/slip_*``).
    """

    event_id: str
    event_title: str
    table_id: str
    table_label: str
    kind: str
    lang: Literal["ja", "en"]
    players: tuple[str, ...]
    places: int
    fields: tuple[NumberField, ...] = ()
    off_slip: str = ""  # what the slip leaves out, said on it (worded by the caller)

    def __post_init__(self) -> None:
        if not (ID_RE.match(self.event_id) and ID_RE.match(self.table_id)):
            raise InvalidAction("scan/slip_ids")
        names_ok = all(isinstance(n, str) and 0 < len(n.strip()) <= 40 for n in self.players)
        if not (1 <= len(self.players) <= MAX_PLAYERS and names_ok):
            raise InvalidAction("scan/slip_players", max=MAX_PLAYERS)
        if not (isinstance(self.places, int) and 1 <= self.places <= MAX_PLACES):
            raise InvalidAction("scan/slip_places", max=MAX_PLACES)
        fields_ok = all(
            isinstance(f.digits, int)
            and 1 <= f.digits <= MAX_DIGITS
            and 0 < len(f.label.strip()) <= 24
            for f in self.fields
        )
        total = sum(f.digits for f in self.fields) if fields_ok else 0
        if not (len(self.fields) <= MAX_FIELDS and fields_ok and total <= MAX_TOTAL_DIGITS):
            raise InvalidAction("scan/slip_fields", max=MAX_FIELDS, digits=MAX_DIGITS)
        if not fits(self.shape):
            raise InvalidAction("scan/slip_too_big")

    @property
    def shape(self) -> Shape:
        signed = tuple(n for n, f in enumerate(self.fields) if f.signed)
        return Shape(len(self.players), self.places, tuple(f.digits for f in self.fields), signed)


def _tag(*parts: str) -> str:
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return base64.b32encode(digest).decode("ascii")[:6]


def event_tag(event_id: str) -> str:
    """Six letters naming the event in a slip's QR code (its id would make the code denser:
    the table's id already names the table, and through it the event)."""
    return _tag("aids-event", event_id)


def slip_check(spec: SlipSpec) -> str:
    """Six letters from the event, the table, the names and the shape: a slip printed for
    other players, or another table's, does not match (a checksum, not a secret).

    >>> spec = SlipSpec("E" * 24, "x", "T" * 24, "y", "toy", "en", ("Aki",), 1)
    >>> slip_check(spec)
    'KIYCPW'
    """
    return _tag(spec.event_id, spec.table_id, spec.shape.code(), *spec.players)


@dataclass(frozen=True, slots=True)
class Payload:
    """What a slip's QR code says: which table, its event's tag, its check value and its
    shape."""

    table_id: str
    event_tag: str
    check: str
    shape: Shape


def payload(spec: SlipSpec) -> str:
    """``aids-slip:1:<table>:<event tag>:<check>:<shape>``: about 60 characters, so the
    code's modules are 0.73 mm and a phone reads them from a 1200 × 1600 photo."""
    tag = event_tag(spec.event_id)
    return f"{PREFIX}{spec.table_id}:{tag}:{slip_check(spec)}:{spec.shape.code()}"


def parse_payload(text: object) -> Payload:
    """The payload read from a QR code, or ``InvalidAction("scan/payload")`` for anything
    else (a table's link, another program's code, a shape no slip has).

    >>> parse_payload("https://example.org/?table=x")
    Traceback (most recent call last):
    ...
    aids.core.errors.InvalidAction: scan/payload: ...
    """
    found = PAYLOAD_RE.match(text) if isinstance(text, str) else None
    if found is None:
        raise InvalidAction("scan/payload")
    parts = [d for d in found["digits"].split(",") if d]
    digits = tuple(abs(int(d)) for d in parts)
    signed = tuple(n for n, d in enumerate(parts) if d.startswith("-"))
    shape = Shape(int(found["players"]), int(found["places"]), digits, signed)
    if sum(digits) > MAX_TOTAL_DIGITS or not fits(shape):
        raise InvalidAction("scan/payload")
    return Payload(found["table"], found["event"], found["check"], shape)


# --- the layout: every bubble's centre and radius, in points from the page's top left -----


@dataclass(frozen=True, slots=True)
class Bubble:
    """A circle to fill: centre and radius in slip points (y down from the top)."""

    x: float
    y: float
    r: float


@dataclass(frozen=True, slots=True)
class Row:
    """One choice: a player's place (``field`` None; values 1..places), one digit of a
    number field (``digit`` 0 = the most significant; values 0-9), or a signed field's sign
    (``digit`` None, ``sign`` True; values +1 and −1, its circles marked + and −)."""

    player: int
    field: int | None
    digit: int | None
    values: tuple[int, ...]
    bubbles: tuple[Bubble, ...]
    sign: bool = False

    def box(self) -> tuple[float, float, float, float]:
        """The row's bubbles' bounding box (x0, y0, x1, y1) with a little room around."""
        r = self.bubbles[0].r * 1.5
        return (self.bubbles[0].x - r, self.bubbles[0].y - r,
                self.bubbles[-1].x + r, self.bubbles[-1].y + r)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Marker:
    """A corner marker: its ArUco id and its top-left corner and side in slip points."""

    id: int
    x: float
    y: float
    side: float

    def corners(self) -> tuple[tuple[float, float], ...]:
        """Its four corners clockwise from top left, as OpenCV's ArUco detector lists them."""
        x, y, s = self.x, self.y, self.side
        return ((x, y), (x + s, y), (x + s, y + s), (x, y + s))

    def square(self) -> tuple[float, float, float]:
        """Its top-left corner and side (x, y, side)."""
        return (self.x, self.y, self.side)


@dataclass(frozen=True, slots=True)
class Block:
    """A player's box: top left corner, width and height in slip points."""

    player: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything on a slip is, in points from the page's top left (y down)."""

    width: float
    height: float
    markers: tuple[Marker, ...]
    qr: tuple[float, float, float]  # top left x, y and side
    blocks: tuple[Block, ...]
    rows: tuple[Row, ...] = field(repr=False)


def layout(spec: SlipSpec) -> Layout:
    """The slip's layout (the same for every slip of this shape)."""
    return layout_of(spec.shape)


def _block_height(shape: Shape) -> float:
    rows = 1 + sum(shape.digits) + len(shape.signed)
    return NAME_H + PITCH * rows + FIELD_H * len(shape.digits) + BLOCK_GAP


def fits(shape: Shape) -> bool:
    """Whether a slip of ``shape`` fits on the A5 page (players two to a line)."""
    rows_of_blocks = (shape.players + 1) // 2
    return BODY_TOP + rows_of_blocks * _block_height(shape) <= BODY_BOTTOM + BLOCK_GAP


@cache
def layout_of(shape: Shape) -> Layout:
    """The layout of every slip of ``shape``: players two to a line, each a name line, a
    row of place bubbles, then for each number field a label line, its sign row (+ and −)
    if it is signed, and a row of 0-9 bubbles per digit."""
    w, h = PAGE
    inset, side = MARKER_INSET * mm, MARKER * mm
    markers = (
        Marker(0, inset, inset, side),
        Marker(1, w - inset - side, inset, side),
        Marker(2, w - inset - side, h - inset - side, side),
        Marker(3, inset, h - inset - side, side),
    )
    qr_side = QR_SIDE * mm
    qr = (w - inset - side - QUIET * mm - qr_side, 6 * mm, qr_side)
    blocks, rows = [], []
    height = _block_height(shape) * mm
    for player in range(shape.players):
        x = COLUMN_X[player % 2] * mm
        y = BODY_TOP * mm + (player // 2) * height
        blocks.append(Block(player, x, y, (LABEL_W + 10 * PITCH) * mm, height - BLOCK_GAP * mm))
        line = y + NAME_H * mm
        rows.append(_row(player, None, None, tuple(range(1, shape.places + 1)), x, line))
        for f, digits in enumerate(shape.digits):
            line += FIELD_H * mm
            if f in shape.signed:
                line += PITCH * mm
                rows.append(_row(player, f, None, (1, -1), x, line, sign=True))
            for d in range(digits):
                line += PITCH * mm
                rows.append(_row(player, f, d, tuple(range(10)), x, line))
    return Layout(w, h, markers, qr, tuple(blocks), tuple(rows))


def _row(
    player: int,
    f: int | None,
    d: int | None,
    values: tuple[int, ...],
    x: float,
    top: float,
    sign: bool = False,
) -> Row:
    y = top + PITCH * mm / 2
    first = x + (LABEL_W + PITCH / 2) * mm
    bubbles = tuple(Bubble(first + i * PITCH * mm, y, RADIUS * mm) for i in range(len(values)))
    return Row(player, f, d, values, bubbles, sign)


@cache
def marker_cells(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The 6 × 6 cells (border included; True = black) of ArUco 4x4_50 marker ``marker_id``."""
    import cv2  # the printing side needs only the cells; OpenCV makes them (as it reads them)

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
    return tuple(tuple(bool(v < 128) for v in row) for row in image)
