"""Take the README's screenshots: a tracker mid-race (laptop and 390 px phone) and the sheet.

Usage: start the tracker (``aids serve``), then
    python scripts/screenshots.py --url http://localhost:8501 --referee-link '<referee link>'
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--referee-link", required=True)
    args = parser.parse_args()
    viewer = args.referee_link.split("&key=")[0]
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        laptop = browser.new_page(viewport={"width": 1280, "height": 1300})
        laptop.goto(args.referee_link + "&lang=en")
        wait_ready(laptop)
        laptop.screenshot(path=str(OUT / "tracker-referee.png"), full_page=True)
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto(viewer + "&lang=ja")
        wait_ready(phone)
        phone.screenshot(path=str(OUT / "tracker-viewer-phone.png"), full_page=True)
        browser.close()


if __name__ == "__main__":
    main()
