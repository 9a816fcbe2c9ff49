"""Where ``md_text`` is right, in chromium: every hostile name on every Streamlit surface the
pages use (``md_surfaces_app``). Through ``md_text`` on the surfaces Streamlit reads as
Markdown (text, captions, alerts, labels, options of radios, pills and segmented controls,
expanders, tabs, popovers, the toast, a dialog's title), as it is on those that show text as
it is (selectbox and multiselect options, ``st.text``, ``st.code``): either way no markup is
made of a name, nothing is fetched from its host, and the name reads as typed (so no
backslash shows: the two lists are right)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import tracker
from tests.e2e.helpers import settle
from tests.e2e.md_surfaces_app import MARKDOWN_SURFACES, NAMES, PLAIN_SURFACES
from tests.e2e.test_user_text_browser import JOINER, LAPTOP, fetches, text_only
from tests.ui.hostile import HOST

pytestmark = pytest.mark.e2e
# What a box shows: its text, and the values its inputs show (a selectbox shows its choice so)
SHOWN = """e => [e.textContent, ...[...e.querySelectorAll("input")].map(i => i.value)].join(" ")"""


@pytest.fixture(scope="module")
def surfaces() -> Iterator[str]:
    with tracker(Path(__file__).with_name("md_surfaces_app.py")) as base:
        yield base


def test_names_read_as_typed_on_every_surface(surfaces: str, browser: Any) -> None:
    page = browser.new_page(viewport=LAPTOP)
    asked = fetches(page)
    page.goto(surfaces)
    settle(page, 1500)
    page.wait_for_selector("[data-testid='stToast']")
    wrong = text_only(page, [], "the page")
    for name in (*MARKDOWN_SURFACES, *PLAIN_SURFACES):
        box = page.locator(f".st-key-surface_{name}")
        if box.count() == 0:
            wrong.append(f"{name}: not drawn")
            continue
        text = box.first.evaluate(SHOWN).replace(JOINER, "")
        wrong += [f"{name}: not as typed: {n!r}" for n in NAMES if n not in text]
    for what, selector in (("toast", "[data-testid='stToast']"), ("dialog", "[role='dialog']")):
        text = page.locator(selector).first.evaluate("e => e.textContent").replace(JOINER, "")
        wrong += [f"{what}: not as typed: {n!r}" for n in NAMES if n not in text]
    wrong += [f"asked for {url}" for url in asked if HOST in url]
    page.close()
    assert wrong == [], "\n".join(wrong)
