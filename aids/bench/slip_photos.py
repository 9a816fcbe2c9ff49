"""Photos of filled result slips, made from the real slip PDF: seeded and deterministic. The
slip benchmark (``aids.bench.scan``, run by ``aids bench``) and the tests both take theirs
from here (it needs pypdfium2, of the test extras, to render the PDF: imported when a slip is
first rendered, so the benchmark can say it is skipped where it is missing).

``photo(spec, seed)`` renders the slip's PDF page (pypdfium2), fills its bubbles as a player
with a pen would (discs, scribbled strokes, partial fills that still count, of varying ink
and size; now and then a correction: a cross through one circle and another filled; an empty
field; a doubly marked digit), then takes its picture: the slip laid on a table surface,
turned up to 30°, seen in perspective, unevenly lit, shadowed, blurred, with sensor noise,
JPEG-compressed at a phone's resolution. ``Photo.truth`` says what each field is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from aids.bench.slip_bend import photograph_bent
from aids.bench.slip_camera import Image, background, develop, photograph
from aids.print.slips import Bubble, NumberField, SlipSpec, layout, slips_pdf
from aids.scan import Mark

PHONE = (1200, 1600)  # the smallest phone photo (width, height)
FULL = (3000, 4000)
SMALL = (900, 1200)  # smaller than a phone's: most of the tests' photos, to keep them quick
Truth = dict[tuple[int, int | None], tuple[Mark, int | None]]
__all__ = [
    "EVENT", "FULL", "OTHER_EVENT", "PHONE", "SMALL", "Marks", "Photo", "Truth", "background",
    "cross_mark", "develop", "fill_mark", "fill_slip", "hand_mark", "marked", "photo",
    "photograph",
    "rendered", "scene", "specs",
]  # fmt: skip


@dataclass(frozen=True)
class Photo:
    """A generated photo (JPEG bytes) and what each field truly says."""

    jpeg: bytes
    truth: Truth
    notes: tuple[str, ...]  # the marks made: disc, scribble, partial, correct, double, empty
    taken: tuple[str, ...] = ()  # how it was taken: turn, light, shadow, blur, jpeg


@cache
def rendered(spec: SlipSpec, dpi: int) -> Image:
    """The slip's page rendered at ``dpi`` (BGR)."""
    import pypdfium2 as pdfium  # of the test extras: imported when first needed

    pdf = pdfium.PdfDocument(slips_pdf([spec]))
    page = pdf[0].render(scale=dpi / 72).to_numpy()
    pdf.close()
    image = np.ascontiguousarray(page[:, :, :3])
    return cv2.cvtColor(image, cv2.COLOR_RGB2BGR) if page.shape[2] == 3 else image


def _ink(rng: np.random.Generator) -> tuple[int, int, int]:
    """A pen's colour (BGR): black, blue or dark grey, at varying darkness."""
    level = rng.uniform(0.0, 0.45)
    kind = rng.choice(["black", "blue", "blue", "grey"])
    if kind == "blue":
        base = np.array([150.0, 45.0, 15.0])
    elif kind == "grey":
        base = np.array([70.0, 70.0, 70.0])
    else:
        base = np.array([25.0, 25.0, 30.0])
    colour = base + (255 - base) * level * 0.6
    return (int(colour[0]), int(colour[1]), int(colour[2]))


def fill_mark(image: Image, b: Bubble, px: float, rng: np.random.Generator,
              colour: tuple[int, int, int]) -> str:  # fmt: skip
    """Fill bubble ``b`` (slip points; ``px`` pixels per point) as a pen would."""
    cx, cy, r = b.x * px, b.y * px, b.r * px
    cx += rng.normal(0, 0.06 * r)
    cy += rng.normal(0, 0.06 * r)
    style = rng.choice(["disc", "scribble", "scribble", "partial"])
    pen = max(1, round(rng.uniform(0.35, 0.7) * px * 72 / 25.4))  # 0.35-0.7 mm
    s = 16  # sub-pixel drawing
    if style == "disc":
        axes = (round(r * rng.uniform(0.92, 1.18) * s), round(r * rng.uniform(0.92, 1.18) * s))
        cv2.ellipse(image, (round(cx * s), round(cy * s)), axes, float(rng.uniform(0, 180)),
                    0, 360, colour, -1, cv2.LINE_AA, 4)  # fmt: skip
    elif style == "partial":  # a fill that misses an edge of the circle: still a fill
        dx, dy = rng.normal(0, 0.12 * r, 2)
        axes = (round(r * rng.uniform(0.85, 1.0) * s), round(r * rng.uniform(0.8, 0.95) * s))
        cv2.ellipse(image, (round((cx + dx) * s), round((cy + dy) * s)), axes,
                    float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA, 4)  # fmt: skip
    else:  # back-and-forth strokes across the circle
        angle = rng.uniform(0, math.pi)
        ux, uy = math.cos(angle), math.sin(angle)
        step = pen * rng.uniform(0.6, 0.95)
        reach = r * rng.uniform(1.0, 1.2)
        points = []
        offset = -reach
        flip = 1
        while offset <= reach:
            half = math.sqrt(max(reach**2 - offset**2, 0)) * rng.uniform(0.9, 1.15)
            for end in (-flip * half, flip * half):
                x = cx + ux * end - uy * offset
                y = cy + uy * end + ux * offset
                points.append((round(x * s), round(y * s)))
            offset += step
            flip = -flip
        cv2.polylines(image, [np.array(points, dtype=np.int32)], False, colour, pen,
                      cv2.LINE_AA, 4)  # fmt: skip
    return str(style)


def hand_mark(image: Image, b: Bubble, px: float, rng: np.random.Generator,
              kind: str, colour: tuple[int, int, int]) -> str:  # fmt: skip
    """Fill bubble ``b`` as a hurried or a pencil hand does: ``"pencil"``, light HB graphite
    (grey 140-165 of 255, grainy, some paper showing through) in strokes or a disc;
    ``"hurried"``, the pen's strokes covering only 55-85 % of the circle, one side left
    white, with thin gaps between them; ``"smudge"``, a faint grey rub (200-220), no fill.
    Drawn as a coverage mask, then laid on the paper."""
    cx, cy, r = b.x * px, b.y * px, b.r * px
    cx += rng.normal(0, 0.06 * r)
    cy += rng.normal(0, 0.06 * r)
    half = math.ceil(r * 1.5) + 2
    x0, y0 = int(cx) - half, int(cy) - half
    yy, xx = np.mgrid[0 : 2 * half, 0 : 2 * half].astype(np.float32)
    dx, dy = xx + x0 + 0.5 - cx, yy + y0 + 0.5 - cy
    reach = r * rng.uniform(0.95, 1.12)
    mask = np.clip(reach - np.hypot(dx, dy) + 0.5, 0, 1)  # a disc, its edge anti-aliased
    angle = rng.uniform(0, math.pi)
    across = -dx * math.sin(angle) + dy * math.cos(angle)  # across the strokes
    pen = rng.uniform(0.35, 0.6) * px * 72 / 25.4
    if kind == "hurried":
        share = rng.uniform(0.55, 0.85)  # of the circle covered: the chord's distance for it
        t = np.linspace(-1, 1, 401)
        covered = (np.arccos(-t) - (-t) * np.sqrt(1 - t**2)) / math.pi
        cut = float(np.interp(share, covered, t)) * reach
        along = dx * math.cos(angle) + dy * math.sin(angle)
        side = 1 if rng.random() < 0.5 else -1
        mask *= np.clip(cut - side * along + 0.5, 0, 1)
        gaps = np.mod(across, pen * rng.uniform(1.1, 1.5)) < pen * rng.uniform(0.15, 0.35)
        mask *= np.where(gaps, 0.15, 1.0).astype(np.float32)
        level = np.array(colour, dtype=np.float32)
    elif kind == "smudge":  # a rubbed thumb's or a pencil's faint grey, soft-edged
        mask = cv2.GaussianBlur(mask, (0, 0), r * 0.25) * rng.uniform(0.8, 1.0)
        level = np.full(3, rng.uniform(200, 220), dtype=np.float32)
    else:  # pencil: graphite's grain, strokes' lighter edges
        grain = rng.uniform(0.7, 1.0, mask.shape).astype(np.float32)
        grain = cv2.GaussianBlur(grain, (0, 0), 0.6)
        streak = 0.9 + 0.1 * np.cos(2 * math.pi * across / max(pen, 1.0))
        mask *= np.clip(grain * streak * rng.uniform(1.1, 1.3), 0, 1)
        level = np.full(3, rng.uniform(140, 165), dtype=np.float32)
    h, w = image.shape[:2]
    ys, xs = slice(max(y0, 0), min(y0 + 2 * half, h)), slice(max(x0, 0), min(x0 + 2 * half, w))
    m = mask[ys.start - y0 : ys.stop - y0, xs.start - x0 : xs.stop - x0, None]
    patch = image[ys, xs].astype(np.float32)
    image[ys, xs] = np.clip(patch * (1 - m) + np.minimum(patch, level) * m, 0, 255).astype(np.uint8)
    return kind


def cross_mark(image: Image, b: Bubble, px: float, rng: np.random.Generator,
               colour: tuple[int, int, int]) -> None:  # fmt: skip
    """A cross (×) through bubble ``b``: the slip's way to cancel it."""
    cx, cy, r = b.x * px, b.y * px, b.r * px
    pen = max(1, round(rng.uniform(0.35, 0.6) * px * 72 / 25.4))
    s = 16
    for angle in (math.pi / 4, 3 * math.pi / 4):
        a = angle + rng.normal(0, 0.15)
        reach = r * rng.uniform(1.2, 1.7)
        x0, y0 = cx - reach * math.cos(a), cy - reach * math.sin(a)
        x1, y1 = cx + reach * math.cos(a), cy + reach * math.sin(a)
        cv2.line(image, (round(x0 * s), round(y0 * s)), (round(x1 * s), round(y1 * s)),
                 colour, pen, cv2.LINE_AA, 4)  # fmt: skip


def fill_slip(spec: SlipSpec, dpi: int, rng: np.random.Generator, odd: float = 0.06,
              hand: float = 0.0) -> tuple[Image, Truth, list[str]]:  # fmt: skip
    """The rendered slip filled in: each player's place and numbers, each field clean but
    for a share ``odd`` of corrections, empty fields and doubly marked digits; a share
    ``hand`` of the rows filled in light pencil or in a hurry (``hand_mark``), half each."""
    image = rendered(spec, dpi).copy()
    px = dpi / 72
    lay = layout(spec)
    places = rng.permutation(spec.places)[: len(spec.players)] + 1
    if len(spec.players) > spec.places:
        places = rng.integers(1, spec.places + 1, len(spec.players))
    truth: Truth = {}
    notes: list[str] = []
    colour = _ink(rng)
    for player in range(len(spec.players)):
        if rng.random() < 0.3:
            colour = _ink(rng)  # the slip passed round: another pen
        for f in (None, *range(len(spec.fields))):
            rows = [r for r in lay.rows if r.player == player and r.field == f]
            if f is None:
                wanted = [int(places[player])]
                value = int(places[player])
            else:
                digits = [r for r in rows if not r.sign]
                value = int(rng.integers(0, 10 ** len(digits)))
                wanted = [int(d) for d in str(value).zfill(len(digits))]
                if len(digits) < len(rows):  # a sign row first: below zero as often as not
                    sign = 1 if rng.random() < 0.5 else -1
                    value *= sign
                    wanted = [sign, *wanted]
            case = "clean"
            roll = rng.random()
            if roll < odd:
                case = rng.choice(["correct", "correct", "correct", "empty", "double"])
            if case == "empty":
                truth[(player, f)] = (Mark.EMPTY, None)
                notes.append("empty")
                continue
            odd_row = int(rng.integers(0, len(rows)))
            for k, (row, digit) in enumerate(zip(rows, wanted, strict=True)):
                index = row.values.index(digit)
                if hand and rng.random() < hand:
                    how = "pencil" if rng.random() < 0.5 else "hurried"
                    notes.append(hand_mark(image, row.bubbles[index], px, rng, how, colour))
                else:
                    notes.append(fill_mark(image, row.bubbles[index], px, rng, colour))
                if k == odd_row and case in ("correct", "double"):
                    others = [i for i in range(len(row.values)) if i != index]
                    if not others:
                        case = "clean"
                        continue
                    other = int(rng.choice(others))
                    if case == "correct":
                        cross_mark(image, row.bubbles[other], px, rng, colour)
                    else:
                        fill_mark(image, row.bubbles[other], px, rng, colour)
                    notes.append(str(case))
            truth[(player, f)] = (Mark.DOUBLE, None) if case == "double" else (Mark.VALUE, value)
    return image, truth, notes


def photo(spec: SlipSpec, seed: int, size: tuple[int, int] = PHONE, odd: float = 0.06,
          hand: float = 0.0, bent: bool = False, **options: object) -> Photo:  # fmt: skip
    """A filled slip's photo and its truth, from ``seed`` alone (``hand``: see
    ``fill_slip``; ``bent``: the slip bowed and seen at a slant, ``slip_bend``)."""
    rng = np.random.default_rng(seed)
    dpi = 150 if size[1] <= 1200 else 200 if size[1] <= 2000 else 400
    image, truth, notes = fill_slip(spec, dpi, rng, odd, hand)
    options.setdefault("blur", (0.2, 1.1 * size[1] / 1200))  # a blur in pixels grows with them
    log: list[str] = []
    if bent:
        jpeg = photograph_bent(image, size, rng, log=log, **options)  # type: ignore[arg-type]
    else:
        jpeg = photograph(image, size, rng, log=log, **options)  # type: ignore[arg-type]
    return Photo(jpeg, truth, tuple(notes), tuple(log))


def scene(size: tuple[int, int], seed: int) -> bytes:
    """A photo of something else: a table with a few papers and shapes, no slip."""
    rng = np.random.default_rng(seed)
    picture = background(size, int(rng.integers(0, 5))).copy()
    w, h = size
    for _ in range(6):
        x, y = int(rng.integers(0, w - 200)), int(rng.integers(0, h - 200))
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        end = (x + int(rng.integers(40, 400)), y + int(rng.integers(40, 400)))
        cv2.rectangle(picture, (x, y), end, colour, -1)
    ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return bytes(jpeg.tobytes())


EVENT = "EvT0ab3CdEfGhIjKlMnOpQr"
OTHER_EVENT = "OtHeR0ab3CdEfGhIjKlMnOp"


def specs() -> tuple[SlipSpec, ...]:
    """The slips of the campaign: a six-player Japanese slip with three-digit points, a
    four-player English one with four-digit money, a seven-player one with two numbers, and
    the fullest a slip gets: four Grand National stables' money (7 digits) and prize money
    (3 digits), two blocks of eleven rows down the page; and five Ekiden teams' columns,
    below zero as often as not (a sign row, then two digits)."""
    return (
        SlipSpec(EVENT, "金曜レースナイト", "TaBlE3cdEfGhIjKlMnOpQrSt", "3番テーブル", "derby",
                 "ja", ("あき", "ベン", "ちえ", "だい", "えみ", "ふみ"), 6,
                 (NumberField("得点", 3),)),
        SlipSpec(EVENT, "Friday race night", "TaBlE4cdEfGhIjKlMnOpQrSt", "Table 4", "gn", "en",
                 ("Aki", "Ben", "Chie", "Dai"), 4, (NumberField("Money ($1,000)", 4),)),
        SlipSpec(EVENT, "Friday race night", "TaBlE5cdEfGhIjKlMnOpQrSt", "Table 5", "rally",
                 "en", ("Aki", "Ben", "Chie", "Dai", "Emi", "Fumi", "Gen"), 7,
                 (NumberField("Points", 2), NumberField("Stage wins", 1))),
        SlipSpec(EVENT, "金曜レースナイト", "TaBlE6cdEfGhIjKlMnOpQrSt", "6番テーブル", "gn", "ja",
                 ("あき", "ベン", "ちえ", "だい"), 4,
                 (NumberField("所持金（ドル）", 7), NumberField("賞金（千ドル）", 3))),
        SlipSpec(EVENT, "Friday race night", "TaBlE7cdEfGhIjKlMnOpQrSt", "Table 7", "ekiden",
                 "en", ("Aki", "Ben", "Chie", "Dai", "Emi"), 5,
                 (NumberField("Column", 2, signed=True),)),
    )  # fmt: skip


Marks = dict[tuple[int, int | None, int | None], tuple[tuple[int, str], ...]]


def marked(spec: SlipSpec, marks: Marks, seed: int = 0, size: tuple[int, int] = SMALL,
           **options: object) -> bytes:  # fmt: skip
    """A photo of ``spec``'s slip with exactly ``marks``: (player, field, digit) → the
    values marked in that row, each ``"fill"``, ``"cross"``, or one of ``hand_mark``'s
    (``"pencil"``, ``"hurried"``, ``"smudge"``); other rows left blank."""
    rng = np.random.default_rng(seed)
    dpi = 150 if size[1] <= 1200 else 200
    image = rendered(spec, dpi).copy()
    colour = _ink(rng)
    for row in layout(spec).rows:
        for value, how in marks.get((row.player, row.field, row.digit), ()):
            bubble = row.bubbles[row.values.index(value)]
            if how == "fill":
                fill_mark(image, bubble, dpi / 72, rng, colour)
            elif how == "cross":
                cross_mark(image, bubble, dpi / 72, rng, colour)
            else:
                hand_mark(image, bubble, dpi / 72, rng, how, colour)
    return photograph(image, size, rng, **options)  # type: ignore[arg-type]


def docs_images(folder: str) -> None:
    """docs/img/slip-blank.png (the Japanese slip of six players, as printed) and
    docs/img/slip-filled.png (a generated photo of it filled in, corrections included):
    ``python -m aids.bench.slip_photos docs/img``."""
    from pathlib import Path

    from PIL import Image as Picture

    spec = specs()[0]
    blank = cv2.cvtColor(rendered(spec, 110), cv2.COLOR_BGR2GRAY)
    Picture.fromarray(blank).save(Path(folder) / "slip-blank.png", optimize=True)
    shot = photo(spec, 2, size=(900, 1200), odd=0.2)
    picture = cv2.imdecode(np.frombuffer(shot.jpeg, np.uint8), cv2.IMREAD_COLOR)
    picture = cv2.resize(picture, (660, 880), interpolation=cv2.INTER_AREA)  # type: ignore[arg-type]
    rgb = Picture.fromarray(cv2.cvtColor(picture, cv2.COLOR_BGR2RGB))
    rgb.quantize(colors=160).save(Path(folder) / "slip-filled.png", optimize=True)


if __name__ == "__main__":
    import sys

    docs_images(sys.argv[1] if len(sys.argv) > 1 else "docs/img")
