"""Page helpers for the browser tests: readiness, boxes on screen, screenshots, axe-core."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from aids.tables import TableService
from tests.e2e.conftest import ROOT, wait_ready

# Screenshots are artifacts a person looks at (output/ is git-ignored); AIDS_SHOTS moves them.
SHOTS = Path(os.environ.get("AIDS_SHOTS", ROOT / "output" / "screenshots"))
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def shot(page: Any, name: str, *, full_page: bool = False) -> Path:
    """Save what the page shows; ``full_page``: all of it (Streamlit scrolls its main block, not
    the document, so the viewport is stretched to the block's height for the picture)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    view = page.viewport_size
    if full_page:
        height = page.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
        page.set_viewport_size({"width": view["width"], "height": max(height, view["height"])})
        page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    if full_page:
        page.set_viewport_size(view)
    return path


def settle(page: Any, ms: int = 400) -> None:
    """Ready (connected, script done, the page's fonts loaded), then a moment for the browser
    to lay the page out. (A font that arrives late rewraps headings: on a loaded machine a box
    measured before it is one line higher than the referee will see.)"""
    wait_ready(page)
    page.evaluate("document.fonts.ready.then(() => true)")
    page.wait_for_timeout(ms)


def still_box(locator: Any, *, gap_ms: int = 150, within_s: float = 10.0) -> dict[str, float]:
    """The element's box once two reads ``gap_ms`` apart agree (to 0.5 px): where it stays,
    not where it is while the page is still drawing. After ``within_s`` the last read is
    returned, so a box that never holds still fails the caller's own comparison."""
    box = locator.bounding_box(timeout=30000)
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        locator.page.wait_for_timeout(gap_ms)
        again = locator.bounding_box(timeout=30000)
        if (
            box is not None
            and again is not None
            and all(abs(box[k] - again[k]) <= 0.5 for k in ("x", "y", "width", "height"))
        ):
            return dict(again)
        box = again
    assert box is not None, "not drawn"
    return dict(box)


def tap(page: Any, locator: Any) -> None:
    """Click once the element is there, then wait for the run it starts."""
    locator.click(timeout=30000)
    settle(page)


def on_screen(page: Any, locator: Any) -> dict[str, float]:
    """The element's box once it holds still, asserted wholly inside the viewport (not below
    the fold)."""
    box = still_box(locator)
    view = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], (box, view)
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], (box, view)
    return dict(box)


def axe_violations(page: Any) -> list[str]:
    """axe-core's WCAG 2 A/AA violations on the page, one line per rule and element.

    axe-core comes from PyPI (``axe-playwright-python`` bundles axe.min.js)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.fail("axe-playwright-python is missing: the test extras install it")
    options = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]}
    results = Axe().run(page, options=options)
    return [
        f"{v['id']}: {', '.join(map(str, n['target']))}: {n.get('failureSummary', '')}"
        for v in results.response["violations"]
        for n in v["nodes"]
    ]


class Reruns:
    """The reruns a page asks its server for, counted from the browser's websocket frames
    (a tap on a widget that waits for the server sends one; the page's own ticks are left
    out: they are automatic fragment runs)."""

    def __init__(self, page: Any) -> None:
        self.count = 0
        page.on("websocket", lambda ws: ws.on("framesent", self._frame))

    def _frame(self, payload: Any) -> None:
        if not isinstance(payload, bytes):
            return
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        try:
            msg.ParseFromString(payload)
        except Exception:  # not a BackMsg: not a rerun
            return
        if msg.WhichOneof("type") == "rerun_script":
            run = msg.rerun_script
            if not run.is_auto_rerun and not run.fragment_id:
                self.count += 1


def wait_seq(page: Any, service: TableService, pid: str, seq: int) -> None:
    """Until the table holds ``seq`` steps and the page is drawn from its newest."""
    for _ in range(300):
        if service.snapshot(pid).seq >= seq:
            break
        page.wait_for_timeout(100)
    assert service.snapshot(pid).seq >= seq, "the action was not recorded"
    now = service.snapshot(pid).seq
    page.locator(f".aids-seq[data-seq='{now}']").wait_for(state="attached", timeout=30000)
    settle(page)


def open_home_for(page: Any, base: str, lang: str, kind: str) -> None:
    """The home page with ``kind`` chosen for a new table (as a rule card's link opens it)."""
    page.goto(f"{base}/?lang={lang}&game={kind}")
    settle(page, 800)


def fill_new_table(page: Any, lang: str, title: str, names: list[str], name_key: str) -> int:
    """On the home page, the New table form's tab opened, its title and the seats' names
    (boxes ``.st-key-<name_key>_<i>``) typed: the taps it took (typing is part of a box's
    tap)."""
    from aids.core.i18n import t

    page.get_by_role("tab", name=t("table.new_table", lang)).click()
    title_box = page.locator(".st-key-new_title input")
    title_box.click()
    title_box.fill(title)
    for i, name in enumerate(names):
        box = page.locator(f".st-key-{name_key}_{i} input")
        box.click()
        box.fill(name)
    return 2 + len(names)


def create_table(page: Any, lang: str) -> str:
    """Tap the form's Create and wait for the referee link's dialog: the new table's id."""
    from aids.core.i18n import t

    tap(page, page.get_by_role("button", name=t("table.create", lang)))
    page.get_by_role("dialog").wait_for(timeout=30000)
    return str(page.url.split("table=")[1].split("&")[0])
