"""``md_text``: user text for what Streamlit reads as Markdown shows as typed (issue 18 §3).

Streamlit reads Markdown in two passes: the parser (CommonMark + GFM, math, directives), where a
backslash makes any ASCII punctuation mark a literal; then plugins that rewrite the parsed
text, where the backslashes are gone (emoji short codes, its logo and icons, GFM's bare links
and e-mail addresses, arrows). The patterns below are those plugins' own, read from
Streamlit 1.67's frontend (``StreamlitMarkdown``, ``remark-emoji``,
``mdast-util-gfm-autolink-literal``). The browser test
(``tests/e2e/test_user_text_browser.py``) shows the same names on every page."""

from __future__ import annotations

import re

import pytest

from aids.ui.common import WORD_JOINER, html_text, md_text
from tests.ui.hostile import CORPUS, JAPANESE

MORE = (
    ":material/home:", ":+1:", "a--b", "x <= y", "p >= q", "x ~= y", "<- back", "[^1]",
    "<!-- c -->", "&amp;", "&#42;", "back\\slash", "*", "a_b_c", "~x~", "==mark==", "^sup^",
    "[[wiki]]", "{curly}", "HTTP://EVIL.EXAMPLE", "WWW.EVIL.EXAMPLE", "ftp://evil.example",
    "12:30", "a: b", "- item", "> quote", "+ plus", "=== ", "---", "    four spaces",
)  # fmt: skip
HOSTILE = CORPUS + MORE
ASCII_PUNCTUATION = r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"""

# What Streamlit's plugins rewrite in the parsed text (the backslashes gone).
EMOJI = re.compile(r":\+1:|:-1:|:[\w-]+:|:[\w+-][\w_+-]*:", re.ASCII)
ICONS = re.compile(r":material/|:streamlit:")
LINK = re.compile(r"(https?://|www(?=\.))([-.\w]+)([^ \t\r\n]*)", re.IGNORECASE)
EMAIL = re.compile(r"([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)")
ARROWS = re.compile(r"(^|\s)(<->|->|<-|--|>=|<=|~=)(\s|$)")


def parsed(markdown: str) -> str:
    """The text the parser leaves of ``markdown`` when it is only escapes and text: each
    backslash-escaped punctuation mark stands for itself."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


@pytest.mark.parametrize("name", HOSTILE)
def test_every_punctuation_mark_is_escaped(name: str) -> None:
    """The parser meets no syntax: every ASCII punctuation mark comes after a backslash (no
    link, image, code, emphasis, formula, directive, heading, list, table, HTML or entity)."""
    out = md_text(name)
    bare = re.sub(r"\\[!-/:-@\[-`{-~]", "", out)
    assert not any(c in ASCII_PUNCTUATION for c in bare), (name, out)


@pytest.mark.parametrize("name", HOSTILE)
def test_the_reader_sees_the_name_as_typed(name: str) -> None:
    """Escapes undone and the invisible joiners left out, the text is the name."""
    assert parsed(md_text(name)).replace(WORD_JOINER, "") == name


@pytest.mark.parametrize("name", HOSTILE)
def test_nothing_is_left_for_streamlit_to_rewrite(name: str) -> None:
    """No emoji, logo or icon, no bare link or e-mail address, no arrow in the parsed text."""
    text = parsed(md_text(name))
    for pattern in (EMOJI, ICONS, LINK, EMAIL, ARROWS):
        assert not pattern.search(text), (name, pattern.pattern, text)


def test_the_hostile_names_would_be_rewritten_unescaped() -> None:
    """The patterns above do catch the corpus as typed (the test above tests something)."""
    caught = [n for n in HOSTILE if any(p.search(n) for p in (EMOJI, ICONS, LINK, EMAIL, ARROWS))]
    assert len(caught) >= 12, caught


@pytest.mark.parametrize(
    "name", [JAPANESE, "あき", "ちえ 第１区", "Ｒｅｄ　Ｒｕｍ", "José", "Ben 3", "日本語テキスト"]
)
def test_text_without_ascii_marks_is_unchanged(name: str) -> None:
    """Japanese, full-width and accented text (and plain words) stay exactly as typed."""
    assert md_text(name) == name


def test_joiners_only_where_streamlit_rewrites() -> None:
    assert WORD_JOINER not in md_text("12:30 a: b 1-2 <b> x@ @y")
    assert md_text(":smile:").count(WORD_JOINER) == 1
    assert md_text("a:b:c:").count(WORD_JOINER) == 2  # :b: and, after it, :c:


@pytest.mark.parametrize("name", HOSTILE)
def test_html_text_leaves_no_tag_or_entity(name: str) -> None:
    out = html_text(name)
    assert "<" not in out and ">" not in out and '"' not in out and "'" not in out
    assert re.sub(r"&(lt|gt|amp|quot|#x27);", "", out).count("&") == 0
