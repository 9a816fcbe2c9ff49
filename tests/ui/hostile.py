"""Names that are Markdown, HTML or something Streamlit rewrites, for the tests that check user
text stays text (``test_md_text``, ``tests/e2e/test_user_text_browser``). Every one is a
valid name (at most 40 characters) and a valid title.

``MARKS`` says what each would become if it were read as Markdown: the words of an element
made from it (``<strong>bold</strong>``); links and images are found by their host."""

from __future__ import annotations

HOST = "evil.example"  # no page may link to it or load anything from it

LINK = "[lnk](http://evil.example/l)"
IMAGE = "![pic](http://evil.example/i.png)"
AUTOLINK = "<http://evil.example/a>"
BARE = "http://evil.example/b"
WWW = "www.evil.example"
EMAIL = "me@evil.example"
IMG_TAG = "<img src=http://evil.example/x.png>"
A_TAG = '<a href="http://evil.example/t">atag</a>'
CODE = "`code`"
MATH = "$x^2$"
BOLD = "**bold**"
EM = "_emph_"
STRIKE = "~~gone~~"
EMOJI = ":smile:"
ICON = ":streamlit:"
COLOUR = ":red[rouge]"
HEADING = "# hdg"
LIST = "1. itm"
TABLE = "|tda|tdb|"
ARROW = "a -> b"
ENTITY = "&lt;b&gt;"
JAPANESE = "あき・ＡＫＩ（走）"

CORPUS = (LINK, IMAGE, AUTOLINK, BARE, WWW, EMAIL, IMG_TAG, A_TAG, CODE, MATH, BOLD, EM,
          STRIKE, EMOJI, ICON, COLOUR, HEADING, LIST, TABLE, ARROW, ENTITY, JAPANESE)  # fmt: skip

# The words an element would hold if a name were read as Markdown (or HTML).
MARKS = ("lnk", "atag", "code", "bold", "emph", "gone", "rouge", "hdg", "itm", "tda", "tdb")
# What Streamlit would draw in place of a name: an emoji, an arrow, the HTML a name spells out.
REWRITTEN = ("😄", "a → b", "<b>")
