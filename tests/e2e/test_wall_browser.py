"""The wall in Debian's chromium at 1920 × 1080 (issue 27 §2): an event of eight tables shows
its standings and six table cards at a time, every word at least 28 px, pages on to the rest,
and follows a write; one table's wall shows the board large, the last action and the
standings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.bench.referee import Referee
from aids.meets import MeetService
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import axe_violations, shot

pytestmark = pytest.mark.e2e
TV = {"width": 1920, "height": 1080}
SMALL_TEXT = """(root) => {
  const out = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const el = walk.currentNode.parentElement;
    if (!walk.currentNode.textContent.trim() || el.closest("[hidden], #s-style")) continue;
    if (!el.getBoundingClientRect().width) continue;
    let zoom = 1;
    for (let e = el; e; e = e.parentElement) zoom *= parseFloat(getComputedStyle(e).zoom || 1);
    const px = parseFloat(getComputedStyle(el).fontSize) * zoom;
    if (px < 28) out.push(walk.currentNode.textContent.trim().slice(0, 30) + " " + px);
  }
  return out;
}"""


def test_an_events_wall_is_readable_from_five_metres_and_pages_through_its_tables(
    server: tuple[str, Path], browser: Any
) -> None:
    base, db = server
    tables = TableService(SqliteStore(db), engines())
    meets = MeetService(tables)
    info, _key = meets.create("Spring league", "2026-12-06")
    refs = []
    for i, kind in enumerate(["derby", "ekiden", "rally", "gn"] * 2):
        ref = Referee(db, kind, i)
        for _ in range(4):
            ref.write()
        meets.add_table(info.public_id, None, ref.public_id, host=True)
        refs.append(ref)
    try:
        page = browser.new_page(viewport=TV)
        page.goto(f"{base}/wall/{info.public_id}?lang=en")
        page.wait_for_selector("#s-tables .card")
        shot(page, "wall_event_en_1920")
        shown = page.locator("#s-tables .card:not([hidden])")
        assert shown.count() == 6 and page.inner_text("#pager") == "Tables 1 of 2"
        for i in range(6):
            box = shown.nth(i).bounding_box()
            assert box is not None and box["y"] + box["height"] <= TV["height"]
        assert page.evaluate(SMALL_TEXT, page.locator("body").element_handle()) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= TV["width"]
        assert axe_violations(page) == []
        # the next page of tables after its time (12 s)
        page.wait_for_function("document.getElementById('pager').textContent.startsWith("
                               "'Tables 2')", timeout=20000)  # fmt: skip
        assert page.locator("#s-tables .card:not([hidden])").count() == 2
        # a write on a table shows on its card
        seq = refs[7].write()
        page.wait_for_function(
            f"document.querySelector('#s-tables .card[data-i=\"7\"]').textContent"
            f".includes('step {seq}')",
            timeout=10000,
        )
        page.close()
        one = browser.new_page(viewport=TV)
        one.goto(f"{base}/wall/table/{refs[0].public_id}?lang=ja")
        one.wait_for_selector("#s-board table")
        shot(one, "wall_table_ja_1920")
        board = one.locator("#s-board").bounding_box()
        assert board is not None and board["width"] > 900  # the board large
        words = one.locator("#s-last, #s-next, #s-standings, #s-head").element_handles()
        for handle in words:
            assert one.evaluate(SMALL_TEXT, handle) == []
        one.close()
    finally:
        for ref in refs:
            ref.close()
