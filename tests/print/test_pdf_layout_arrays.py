"""The layout checks' array forms (``crossings``, ``overlaps`` in ``tests/print/pdf_layout``)
give what the plain per-pair comparisons (``Segment.crosses``, ``Box.overlaps``) give, on
random boxes and ruled lines: horizontal, vertical, slanted, a point, boxes thinner than the
tolerance, edges that only touch."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.print.pdf_layout import Box, Segment, Text, crossings, overlaps

# coordinates on a coarse grid, so edges meet and touch as often as they cross
COORD = st.integers(0, 40).map(lambda v: v / 4)


@st.composite
def boxes(draw: st.DrawFn) -> Text:
    x0, y0 = draw(COORD), draw(COORD)
    box = Box(x0, y0, x0 + draw(COORD), y0 + draw(COORD))
    return Text("x", box, 10.0)


@st.composite
def segments(draw: st.DrawFn) -> Segment:
    x0, y0, length = draw(COORD), draw(COORD), draw(COORD)
    shape = draw(st.sampled_from(["across", "down", "slant", "point"]))
    if shape == "across":
        return Segment(x0, y0, x0 + draw(st.sampled_from([1, -1])) * length, y0)
    if shape == "down":
        return Segment(x0, y0, x0, y0 + draw(st.sampled_from([1, -1])) * length)
    if shape == "slant":
        return Segment(x0, y0, x0 + length + 1, y0 + draw(COORD) + 1)
    return Segment(x0, y0, x0, y0)


@settings(max_examples=300, deadline=None)
@given(st.lists(boxes(), max_size=12), st.lists(segments(), max_size=12))
def test_a_text_is_crossed_where_a_line_crosses_its_box(
    found: list[Text], rules: list[Segment]
) -> None:
    assert crossings(found, rules) == [any(r.crosses(t.box) for r in rules) for t in found]


@settings(max_examples=300, deadline=None)
@given(st.lists(boxes(), max_size=14))
def test_two_texts_overlap_where_their_boxes_do(found: list[Text]) -> None:
    plain = [
        (i, j)
        for i, a in enumerate(found)
        for j in range(i + 1, len(found))
        if a.box.overlaps(found[j].box)
    ]
    assert overlaps(found) == plain
