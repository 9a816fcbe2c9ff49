"""What keeps printing cheap — running text, the card, blank grid cells — and the print
benchmark's baseline, each rendered to a real PDF and read back: the fast parts must draw what
the slower ReportLab layout drew, and the baseline must draw the same pages it is compared with.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import pypdfium2 as pdfium
import pytest
from reportlab.lib.pagesizes import A4
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Table, TableStyle

from aids.print import bare, cards
from aids.print.cells import Grid, Prose, ruled
from aids.print.fonts import CLOSING, OPENING, register
from aids.print.pack import render_pack
from aids.registry import entry, sheet_module
from tests.print.pdf_layout import Box, Text, texts

JAPANESE = (
    "区間順位は申告走力の高い順（同じ値なら下のマーカーが上位）。「アップ」の印なら前へ、"
    "「ダウン」なら後ろへ進みます。走った選手は戻りません。"
)


def render(flowables: Sequence[Flowable], frame: tuple[float, float, float, float]) -> bytes:
    """``flowables`` in one frame (x, y, width, height) of an A4 page, as our sheets are saved."""
    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=A4, invariant=1, initialFontName=register())
    x, y, w, h = frame
    body = Frame(x, y, w, h, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate(frames=[body])])
    doc.build(list(flowables))
    return buffer.getvalue()


def bitmap(pdf: bytes) -> bytes:
    document = pdfium.PdfDocument(pdf)
    try:
        return bytes(document[0].render(scale=2).to_pil().convert("L").tobytes())
    finally:
        document.close()


def test_running_text_breaks_with_kinsoku_inside_its_width() -> None:
    """Rule (print frame): no line starts with closing punctuation or ends on an opening
    bracket, and no line is wider than the text's column."""
    width = 150.0
    pdf = render([Prose(JAPANESE, 9.4, 13.6)], (100, 100, width, 600))
    lines = texts(pdf)
    assert len(lines) >= 4
    for line in lines:
        assert line.box.x1 - line.box.x0 <= width + 0.5, line
        assert line.text[0] not in CLOSING and line.text[-1] not in OPENING, line.text
    assert "".join(line.text for line in lines) == JAPANESE


def test_a_bullet_hangs_left_of_the_first_line_and_the_text_keeps_its_indent() -> None:
    pdf = render([cards.BULLET(JAPANESE, bullet=True)], (100, 100, 150, 600))
    found = texts(pdf)
    bullet = [t for t in found if t.text == "•"]
    words = [t for t in found if t.text != "•"]
    assert len(bullet) == 1 and len(words) >= 4
    assert bullet[0].box.x0 == pytest.approx(100, abs=0.5)
    assert all(t.box.x0 == pytest.approx(109, abs=0.5) for t in words)  # every line indented
    assert bullet[0].box.y0 == pytest.approx(max(t.box.y0 for t in words), abs=0.5)


def _card_texts(flow: list[Flowable]) -> tuple[list[Text], Box]:
    w, h = cards.CARD_W - 2 * cards.PAD, cards.CARD_H - 2 * cards.PAD
    pdf = render([cards.Card(flow)], (cards.PAD, cards.PAD, w, h))
    return texts(pdf), Box(cards.PAD, cards.PAD, cards.PAD + w, cards.PAD + h)


def test_a_card_with_too_much_text_is_set_smaller_and_stays_above_its_foot() -> None:
    """Rule (cards): nothing runs past the cut; the QR foot keeps its place at the bottom."""
    body = [cards.BODY(f"{i}. {JAPANESE}") for i in range(12)]
    found, card = _card_texts([cards.HEADING("見出し"), *body, cards.Foot("http://x/?a=1", "QR")])
    foot_top = card.y0 + cards.QR
    text = [t for t in found if t.box.x0 < card.x0 + cards.QR + 1]  # the foot's lines are right
    assert all(t.box.inside(card) for t in found)
    assert all(t.box.y0 >= foot_top - 0.5 for t in text), min(t.box.y0 for t in text)
    assert max(t.size for t in text if t.text.startswith("11.")) < cards.BODY.size
    assert any(t.text.startswith("11.") for t in text)  # the last paragraph is still there


def test_a_card_whose_text_fits_keeps_its_sizes() -> None:
    found, _ = _card_texts([cards.HEADING("見出し"), cards.BODY(JAPANESE), cards.Foot("u", "l")])
    sizes = {t.text: t.size for t in found}
    assert sizes["見出し"] == pytest.approx(cards.HEADING.size)
    assert any(size == pytest.approx(cards.BODY.size) for size in sizes.values())


def test_blank_cells_of_fixed_rows_print_exactly_as_reportlabs_table() -> None:
    rows = [["区間", "選手", "走力"], *[[str(i), "", ""] for i in range(1, 8)]]

    def grid(kind: type[Table]) -> Table:
        table = kind(rows, colWidths=[40, 120, 50], rowHeights=[18] * len(rows))
        table.setStyle(TableStyle(ruled(1)))
        return table

    frame = (60, 400, 300, 300)
    assert bitmap(render([grid(Grid)], frame)) == bitmap(render([grid(Table)], frame))


def test_a_grid_row_sized_by_its_contents_keeps_a_blank_cells_height() -> None:
    rows = [["", ""], ["a", ""]]
    ours, theirs = Grid(rows, colWidths=[40, 40]), Table(rows, colWidths=[40, 40])
    assert ours.wrap(300, 300) == theirs.wrap(300, 300)


def test_the_benchmarks_bare_canvas_draws_the_same_pages() -> None:
    """The print benchmark's baseline (``print.bare``) redraws a pack's every text run and
    path; read back, the redrawn pages hold the same marks in the same places."""
    game = entry("gn").game
    pdf = render_pack(game, sheet_module("gn"), None, "http://192.168.10.5:8501", ("ja", "en"))
    original = bare.read(pdf)
    again = bare.read(bare.draw(original))
    assert len(again) == len(original) > 4

    def marks(page: bare.Page) -> list[tuple[object, ...]]:
        out: list[tuple[object, ...]] = []
        for m in page.marks:
            if isinstance(m, bare.Text):
                out.append((m.text, m.font, round(m.size, 1), round(m.x, 1), round(m.y, 1)))
            else:
                points = tuple(round(v, 1) for _, p in m.segments for v in p)
                width = round(m.width, 2) if m.stroke else None  # a fill has no line width
                out.append((len(m.segments), points, m.fill, m.stroke, width))
        return sorted(out, key=repr)

    for before, after in zip(original, again, strict=True):
        assert (before.width, before.height) == (after.width, after.height)
        assert marks(after) == marks(before)
    assert sum(isinstance(m, bare.Text) for p in original for m in p.marks) > 300
