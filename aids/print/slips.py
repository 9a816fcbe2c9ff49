"""The result slip of a table played on paper: printed names, bubbles for each player's place
and for each digit of their numbers, a QR code naming the table, and four corner markers, so
a phone photo of the filled slip can be read back (``aids.scan``).

One slip per A5 portrait page: a slip is a page is a photo, and an A5 sheet is what a player
holds at the table (print two pages on one A4 sheet and cut it, or on A5 paper). The reader
needs no paper size: it works in the slip's own coordinates between the corner markers, so a
slip printed smaller or larger reads the same.

``layout(spec)`` is the one source of truth for where every bubble is: the drawer draws it and
the reader measures it. The layout depends only on the slip's ``Shape`` (players, places and
the digits of each number field), which the QR code carries with the ids and a check value;
names and labels are drawn into fixed boxes and never move a bubble. Names no game: the caller
gives the kind (for the printed game name), the names and the numbers' labels and digits.

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
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from reportlab.lib import colors
from reportlab.lib.pagesizes import A5
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from aids.core.errors import InvalidAction
from aids.core.i18n import t
from aids.print.fonts import ASCENT, fit, printable, register
from aids.print.qr import draw_qr

PAGE = (float(A5[0]), float(A5[1]))  # points, portrait
MAX_PLAYERS, MAX_PLACES, MAX_FIELDS, MAX_DIGITS, MAX_TOTAL_DIGITS = 8, 10, 3, 6, 8
ID_RE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9_-]{21,63}\Z")  # a public id (tables.keys)
PREFIX = "aids-slip:1:"
PAYLOAD_RE = re.compile(
    r"\Aaids-slip:1:(?P<table>[A-Za-z0-9][A-Za-z0-9_-]{21,63}):"
    r"(?P<event>[A-Z2-7]{6}):(?P<check>[A-Z2-7]{6}):"
    r"(?P<players>[1-8])\.(?P<places>10|[1-9])\.(?P<digits>(?:[1-6](?:,[1-6]){0,2})?)\Z"
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
INK = colors.HexColor("#505050")  # the circles: visible, but lighter than any pen
FAINT = colors.HexColor("#b8b8b8")  # the numbers inside the circles
GREY = colors.HexColor("#707070")


@dataclass(frozen=True, slots=True)
class NumberField:
    """One number each player writes (their score, their money), as ``digits`` digits."""

    label: str
    digits: int


@dataclass(frozen=True, slots=True)
class Shape:
    """What fixes the bubbles' places: players, places, and each number field's digits."""

    players: int
    places: int
    digits: tuple[int, ...]

    def code(self) -> str:
        """The shape as the QR code carries it: ``4.4.3,4``."""
        return f"{self.players}.{self.places}.{','.join(map(str, self.digits))}"


@dataclass(frozen=True, slots=True)
class SlipSpec:
    """What a slip prints: the event and table (ids and words), the game's kind (its printed
    name), the language, the players' names in seat order, the places (1..``places``) and the
    number fields each player fills in. Checked when made (``InvalidAction`` ``scan/slip_*``).
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
        if not _fits(self.shape):
            raise InvalidAction("scan/slip_too_big")

    @property
    def shape(self) -> Shape:
        return Shape(len(self.players), self.places, tuple(f.digits for f in self.fields))


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
    digits = tuple(int(d) for d in found["digits"].split(",") if d)
    shape = Shape(int(found["players"]), int(found["places"]), digits)
    if sum(digits) > MAX_TOTAL_DIGITS or not _fits(shape):
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
    """One choice: a player's place (``field`` None; values 1..places) or one digit of a
    number field (``digit`` 0 = the most significant; values 0-9)."""

    player: int
    field: int | None
    digit: int | None
    values: tuple[int, ...]
    bubbles: tuple[Bubble, ...]

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
    return NAME_H + PITCH * (1 + sum(shape.digits)) + FIELD_H * len(shape.digits) + BLOCK_GAP


def _fits(shape: Shape) -> bool:
    rows_of_blocks = (shape.players + 1) // 2
    return BODY_TOP + rows_of_blocks * _block_height(shape) <= BODY_BOTTOM + BLOCK_GAP


@cache
def layout_of(shape: Shape) -> Layout:
    """The layout of every slip of ``shape``: players two to a line, each a name line, a
    row of place bubbles, then for each number field a label line and a row of 0-9
    bubbles per digit."""
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
            for d in range(digits):
                line += PITCH * mm
                rows.append(_row(player, f, d, tuple(range(10)), x, line))
    return Layout(w, h, markers, qr, tuple(blocks), tuple(rows))


def _row(
    player: int, f: int | None, d: int | None, values: tuple[int, ...], x: float, top: float
) -> Row:
    y = top + PITCH * mm / 2
    first = x + (LABEL_W + PITCH / 2) * mm
    bubbles = tuple(Bubble(first + i * PITCH * mm, y, RADIUS * mm) for i in range(len(values)))
    return Row(player, f, d, values, bubbles)


@cache
def marker_cells(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The 6 × 6 cells (border included; True = black) of ArUco 4x4_50 marker ``marker_id``."""
    import cv2  # the printing side needs only the cells; OpenCV makes them (as it reads them)

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
    return tuple(tuple(bool(v < 128) for v in row) for row in image)


# --- drawing --------------------------------------------------------------------------------


def draw_slip(canvas: Canvas, spec: SlipSpec) -> None:
    """Draw ``spec``'s slip on the current page of ``canvas`` (A5 portrait)."""
    font = register()
    lay = layout(spec)
    h = lay.height

    def text(x: float, top: float, words: str, size: float, width: float,
             height: float | None = None, colour: colors.Color = colors.black,
             lines: int | None = None) -> None:  # fmt: skip
        fitted = fit(printable(words, spec.lang), size, width, height, min_size=4.5,
                     max_lines=lines)  # fmt: skip
        canvas.setFillColor(colour)
        canvas.setFont(font, fitted.size)
        for n, line in enumerate(fitted.lines):
            canvas.drawString(x, h - top - fitted.size * ASCENT - n * fitted.leading, line)

    canvas.saveState()
    for marker in lay.markers:
        _draw_marker(canvas, marker, h)
    qx, qy, qs = lay.qr
    draw_qr(canvas, payload(spec), qx, h - qy - qs, qs)
    left = (MARKER_INSET + MARKER + QUIET) * mm
    width = qx - left - 2 * mm
    lang = spec.lang
    text(left, 7 * mm, t("scan.slip.title", lang), 8, width, colour=GREY)
    title = fit(printable(spec.event_title, lang), 13, width, 12 * mm, min_size=4.5)
    text(left, 11 * mm, spec.event_title, 13, width, 12 * mm, lines=2)
    below = 11 * mm + title.height + 2.5 * mm
    game = t(f"{spec.kind}.name", lang)
    subtitle = t("scan.slip.subtitle", lang, game=game, table=spec.table_label)
    text(left, below, subtitle, 10, width, 8 * mm, lines=2)
    below += fit(printable(subtitle, lang), 10, width, 8 * mm, min_size=4.5).height + 2.5 * mm
    text(left, below, t("scan.slip.check", lang, check=slip_check(spec)), 7, width, colour=GREY)
    _draw_instruction(canvas, spec, text, h)
    for block in lay.blocks:
        _draw_block(canvas, spec, lay, block, text, h)
    foot = t("scan.slip.footer", lang, event=spec.event_title)
    footer_left = (MARKER_INSET + MARKER + QUIET) * mm
    text(footer_left, h - 13 * mm, foot, 6, lay.width - 2 * footer_left, 6 * mm,
         colour=GREY, lines=2)  # fmt: skip
    canvas.restoreState()


def _draw_marker(canvas: Canvas, marker: Marker, h: float) -> None:
    cells = marker_cells(marker.id)
    cell = marker.side / len(cells)
    canvas.setFillColor(colors.black)
    path = canvas.beginPath()
    for r, line in enumerate(cells):
        for c, black in enumerate(line):
            if black:
                path.rect(marker.x + c * cell, h - marker.y - (r + 1) * cell, cell, cell)
    canvas.drawPath(path, stroke=0, fill=1)


def _circle(canvas: Canvas, bubble: Bubble, h: float, label: str = "") -> None:
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.5)
    canvas.circle(bubble.x, h - bubble.y, bubble.r, stroke=1, fill=0)
    if label:
        canvas.setFillColor(FAINT)
        canvas.setFont(register(), 5.2)
        canvas.drawCentredString(bubble.x, h - bubble.y - 5.2 * 0.35, label)


def _draw_instruction(canvas: Canvas, spec: SlipSpec, text: Any, h: float) -> None:
    """The instruction line, with a filled and a cancelled circle as examples."""
    top = 40.0 * mm
    left = 10 * mm
    samples = 40 * mm
    text(left, top, t("scan.slip.instruction", spec.lang), 7.5,
         PAGE[0] - 2 * left - samples, 10 * mm, lines=3)  # fmt: skip
    x = PAGE[0] - left - samples + 4 * mm
    y = top + 3 * mm
    filled = Bubble(x, y, RADIUS * mm)
    canvas.setFillColor(colors.black)
    canvas.circle(filled.x, h - filled.y, filled.r * 1.05, stroke=0, fill=1)
    text(x + 3 * mm, top + 1.4 * mm, t("scan.slip.sample_fill", spec.lang), 7, 14 * mm)
    crossed = Bubble(x + 19 * mm, y, RADIUS * mm)
    _circle(canvas, crossed, h)
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(1.2)
    d = crossed.r * 1.5
    canvas.line(crossed.x - d, h - crossed.y - d, crossed.x + d, h - crossed.y + d)
    canvas.line(crossed.x - d, h - crossed.y + d, crossed.x + d, h - crossed.y - d)
    text(crossed.x + 3 * mm, top + 1.4 * mm, t("scan.slip.sample_cross", spec.lang), 7,
         15 * mm)  # fmt: skip


def _draw_block(
    canvas: Canvas, spec: SlipSpec, lay: Layout, block: Block, text: Any, h: float
) -> None:
    """A player's name line, place row and digit rows."""
    lang = spec.lang
    name = t("scan.slip.player", lang, n=block.player + 1, name=spec.players[block.player])
    text(block.x, block.y + 0.6 * mm, name, 9.5, block.width, NAME_H * mm - 0.6 * mm)
    canvas.setStrokeColor(FAINT)
    canvas.setLineWidth(0.4)
    canvas.line(block.x, h - block.y, block.x + block.width, h - block.y)
    rows = [r for r in lay.rows if r.player == block.player]
    for row in rows:
        top = row.bubbles[0].y - PITCH * mm / 2
        if row.field is None:
            text(block.x, top + 1.2 * mm, t("scan.slip.place", lang), 7, LABEL_W * mm - 1 * mm,
                 PITCH * mm)  # fmt: skip
        else:
            digits = spec.fields[row.field].digits
            digit = row.digit or 0
            if digit == 0:
                text(block.x, top - FIELD_H * mm + 0.6 * mm, spec.fields[row.field].label, 7,
                     block.width, FIELD_H * mm)  # fmt: skip
            power = f"×{10 ** (digits - 1 - digit):,}"
            canvas.setFillColor(GREY)
            canvas.setFont(register(), 6)
            canvas.drawRightString(block.x + (LABEL_W - 1.2) * mm, h - row.bubbles[0].y - 2.1,
                                   power)  # fmt: skip
        for value, bubble in zip(row.values, row.bubbles, strict=True):
            _circle(canvas, bubble, h, str(value))


def slips_pdf(specs: Sequence[SlipSpec]) -> bytes:
    """One slip per A5 page, in the order given (byte-identical for the same specs)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=PAGE, invariant=1, pageCompression=1)
    canvas.setTitle(t("scan.slip.title", specs[0].lang) if specs else "")
    for spec in specs:
        draw_slip(canvas, spec)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
