"""Text fitted to a box (``aids.print.fonts``): kinsoku when wrapping, then shrink, wrap, cut.

Every Japanese message of the catalogues is wrapped at widths from very narrow to wide: no line
may end on an opening bracket or start with closing punctuation, and no character is lost.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aids.core.i18n import catalogue
from aids.print.fonts import CLOSING, ELLIPSIS, OPENING, fit, measure, wrap

SIZE = 9
WIDTHS = [SIZE * n + 0.5 * n for n in range(3, 40, 2)]  # 3 to 39 characters wide
JAPANESE = sorted({text for text in catalogue("ja").values() if "（" in text or "「" in text})


def squeeze(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("text", JAPANESE)
def test_no_wrapped_line_ends_with_an_opening_bracket(text: str) -> None:
    for width in WIDTHS:
        lines = wrap(text, width, SIZE)
        assert [line for line in lines if line[-1] in OPENING] == [], width


@pytest.mark.parametrize("text", JAPANESE)
def test_no_wrapped_line_starts_with_closing_punctuation(text: str) -> None:
    for width in WIDTHS:
        lines = wrap(text, width, SIZE)
        assert [line for line in lines[1:] if line[0] in CLOSING] == [], width


def test_the_score_header_that_broke_keeps_its_bracket_with_what_it_opens() -> None:
    for width in WIDTHS:
        for line in wrap("第1柵の賭け（×4）", width, SIZE):
            assert line[-1] != "（" and line[0] != "）"


def test_wrapping_keeps_a_latin_word_whole_when_it_fits() -> None:
    assert wrap("Christopher Johnson", measure("Christopher", SIZE) + 1, SIZE) == [
        "Christopher",
        "Johnson",
    ]


def test_wrapping_cuts_a_word_longer_than_the_line() -> None:
    lines = wrap("W" * 40, 50, SIZE)
    assert len(lines) > 1 and "".join(lines) == "W" * 40
    assert all(measure(line, SIZE) <= 50 for line in lines)


def test_fit_shrinks_a_little_before_it_wraps() -> None:
    text = "Christopher Johnson"
    fitted = fit(text, 10, measure(text, 9), 40)
    assert fitted.lines == (text,) and fitted.size == 9


def test_fit_wraps_before_it_cuts_with_an_ellipsis() -> None:
    fitted = fit("長" * 40, 10, 150, 40)
    assert len(fitted.lines) > 1 and ELLIPSIS not in "".join(fitted.lines)
    assert "".join(fitted.lines) == "長" * 40


def test_fit_cuts_with_an_ellipsis_only_at_its_smallest_size() -> None:
    fitted = fit("長" * 400, 10, 100, 20, min_size=6)
    assert fitted.size == 6 and fitted.lines[-1].endswith(ELLIPSIS)
    assert fitted.height <= 20


@given(
    text=st.text(alphabet="ab W長漢（）「」、。・×4 -/", min_size=1, max_size=120),
    chars=st.integers(min_value=4, max_value=60),
    lines=st.integers(min_value=1, max_value=4),
)
def test_fitted_text_never_leaves_its_box(text: str, chars: int, lines: int) -> None:
    width = chars * 10.0
    height = 10 + (lines - 1) * 11.5
    fitted = fit(text, 10, width, height, min_size=6)
    assert fitted.height <= height + 0.01
    assert all(measure(line, fitted.size) <= width + 0.01 for line in fitted.lines)
    shown = "".join(fitted.lines)
    if not shown.endswith(ELLIPSIS):
        assert squeeze(shown) == squeeze(text)  # nothing lost unless cut with an ellipsis
