"""Take the README's screenshots: a tracker mid-race (laptop and 390 px phone) and the sheet.

Usage: start the tracker (``aids serve``), then
    python scripts/screenshots.py --referee-link '<referee link>'
Needs Debian's chromium (/usr/bin/chromium) and the test extras (playwright, pypdfium2).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
OUT = Path(__file__).resolve().parent.parent / "docs" / "img"


def wait_ready(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']")
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=30000)
    page.wait_for_timeout(800)


def whole_page(page, path: Path) -> None:  # type: ignore[no-untyped-def]
    """All of the page: Streamlit scrolls its main block, not the document, so the viewport
    is stretched to the block's height for the picture."""
    view = page.viewport_size
    height = page.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": view["width"], "height": max(height, view["height"])})
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    page.set_viewport_size(view)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--referee-link", required=True)
    args = parser.parse_args()
    viewer = args.referee_link.split("&key=")[0]
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        # the referee's laptop as the referee sees it: the record controls above the fold
        laptop = browser.new_page(viewport={"width": 1280, "height": 800})
        laptop.goto(args.referee_link + "&lang=en")
        wait_ready(laptop)
        laptop.screenshot(path=str(OUT / "tracker-referee.png"))
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto(viewer + "&lang=ja")
        wait_ready(phone)
        whole_page(phone, OUT / "tracker-viewer-phone.png")
        browser.close()


if __name__ == "__main__":
    main()
