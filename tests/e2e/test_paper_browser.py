"""A table played on paper, end to end in chromium (issue 21 §4): an event with two tracked
tables and one paper table; the organiser uploads a photo of its filled result slip (made
from the real slip PDF), sees the result read, saves it confirmed, and the standings are
updated on the event page and on the standings sheet it downloads — on a laptop in English
and on the organiser's phone in Japanese. Screenshots are saved (``helpers.SHOTS``)."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from aids.core.links import organiser_url
from aids.meets import MeetService
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import settle, shot, tap
from tests.e2e.scenes import mid_race
from tests.print.tables import hand_worked

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WORDS = {
    "en": {"tab": "Paper tables", "read": "was read", "save": "Save the result",
           "print": "Print and export", "sheet": "Standings sheet (PDF)",
           "paper": "Played on paper"},
    "ja": {"tab": "紙の卓", "read": "読み取れました", "save": "結果を保存",
           "print": "印刷とエクスポート", "sheet": "順位表シート（PDF）", "paper": "紙で対戦"},
}  # fmt: skip


def meets_of(server: tuple[str, Path]) -> MeetService:
    return MeetService(TableService(SqliteStore(server[1]), engines()))


@pytest.fixture(scope="module")
def night(server: tuple[str, Path]) -> tuple[str, str]:
    """An event with a finished Derby (A, B, C) and one mid-race: (event id, organiser key)."""
    meets = meets_of(server)
    info, key = meets.create("Paper night · 紙の夜", "2025-03-07")
    done = hand_worked(meets.tables, title="Heat 1")
    meets.add_table(info.public_id, None, done.info.public_id, host=True)
    pid, referee = mid_race(meets.tables)
    meets.add_table(info.public_id, key, pid, table_key=referee)
    return info.public_id, key


@pytest.mark.parametrize(("lang", "viewport"), [("en", LAPTOP), ("ja", PHONE)])
def test_a_slips_photo_uploaded_and_confirmed_updates_the_page_and_the_sheet(
    server: tuple[str, Path], browser: Any, night: tuple[str, str], lang: str,
    viewport: dict[str, int],
) -> None:  # fmt: skip
    from aids.print.meet_slips import slip_spec
    from tests.scan.test_meet_slips import photo_of

    words = WORDS[lang]
    meets = meets_of(server)
    game = meets.tables.game("rally")
    names = ["A", "Dora", "Eiji"] if lang == "en" else ["A", "ふみ", "ごう"]
    setup = game.setup_to_dict(game.default_setup(names, lang))
    paper = meets.new_paper(night[0], night[1], "rally", f"Paper {lang}", setup)
    spec = slip_spec(meets.info(night[0]), paper, lang)  # type: ignore[arg-type]
    jpeg = photo_of(spec, [2, 1, 3], [[], [], []], seed=7)

    page = browser.new_page(viewport=viewport)
    page.goto(organiser_url(server[0], night[0], night[1], lang))
    settle(page, 1200)
    tap(page, page.get_by_role("tab", name=words["tab"]))
    upload = page.locator("[class*='st-key-meet_scan_upload'] input[type='file']")
    upload.set_input_files({"name": "slip.jpg", "mimeType": "image/jpeg", "buffer": jpeg})
    page.get_by_text(words["read"]).wait_for(timeout=60000)
    shot(page, f"paper-read-{lang}-{viewport['width']}")
    tap(page, page.get_by_role("button", name=words["save"]))
    deadline = 60
    while not meets.paper(night[0], paper.public_id).confirmed and deadline:
        page.wait_for_timeout(500)
        deadline -= 1
    saved = meets.paper(night[0], paper.public_id)
    assert saved.confirmed and saved.places() == (2, 1, 3)
    assert saved.entries[0].photo == hashlib.sha256(jpeg).hexdigest()

    standings = page.locator(".st-key-meet_standings table.aids-standings")
    row = standings.locator("tr", has_text=names[1]).first
    row.wait_for(timeout=30000)
    page.wait_for_function(
        "([n]) => [...document.querySelectorAll('table.aids-standings tr')]"
        ".some(r => r.innerText.includes(n) && /\\b10\\b/.test(r.innerText))",
        arg=[names[1]],
        timeout=30000,
    )  # the paper table's winner: 10 placing points
    assert page.get_by_text(words["paper"]).count() >= 1

    tap(page, page.get_by_role("tab", name=words["print"]))
    with page.expect_download(timeout=60000) as caught:
        page.get_by_role("button", name=words["sheet"]).click()
    text = PdfReader(io.BytesIO(Path(caught.value.path()).read_bytes())).pages[0].extract_text()
    assert f"Paper {lang}" in text and names[1] in text
    page.set_viewport_size({"width": viewport["width"], "height": 2600})
    page.wait_for_timeout(500)
    shot(page, f"paper-saved-{lang}-{viewport['width']}")
    page.close()


def test_the_organisers_phone_reads_slip_after_slip_without_scrolling_or_clearing(
    server: tuple[str, Path], browser: Any, night: tuple[str, str]
) -> None:
    """Reading slips on the organiser's phone (issue 28 §5): after a photo is read, its
    proposal and Save are brought on screen; the photo with its unclear fields outlined fits
    the phone's width (nothing scrolls sideways); saving empties the photo box for the next
    slip (no tap to clear it); the box speaks Japanese only (no "Upload", no "per file")."""
    from aids.bench.slip_photos import SMALL, marked
    from aids.print.meet_slips import slip_spec

    meets = meets_of(server)
    game = meets.tables.game("rally")
    setup = game.setup_to_dict(game.default_setup(["A", "ふみ", "ごう"], "ja"))
    paper = meets.new_paper(night[0], night[1], "rally", "Phone slip", setup)
    spec = slip_spec(meets.info(night[0]), paper, "ja")  # type: ignore[arg-type]
    marks = {(0, None, None): ((2, "fill"),), (1, None, None): ((1, "fill"),)}
    jpeg = marked(spec, marks, seed=3, size=SMALL)  # the third seat's place left blank

    page = browser.new_page(viewport=PHONE)
    page.goto(organiser_url(server[0], night[0], night[1], "ja"))
    settle(page, 1200)
    tap(page, page.get_by_role("tab", name=WORDS["ja"]["tab"]))
    box = page.locator("[class*='st-key-meet_scan_upload']").first
    box.wait_for(timeout=30000)
    button = page.evaluate(
        "() => getComputedStyle(document.querySelector(\"[class*='st-key-meet_scan_upload'] "
        "button [data-testid='stMarkdownContainer']\"), '::after').content"
    )
    assert "ファイルを選ぶ" in button  # the box's button, in our words
    shown = page.evaluate("document.body.innerText")
    assert "MBまで" in shown  # its limits, in our words
    assert "Upload" not in shown and "per file" not in shown  # Streamlit's, hidden

    box.locator("input[type='file']").set_input_files(
        {"name": "slip.jpg", "mimeType": "image/jpeg", "buffer": jpeg}
    )
    outlined = page.locator("[data-testid='stImage'] img").first
    outlined.wait_for(timeout=60000)  # a field to check: the photo, outlined
    page.wait_for_timeout(1200)  # drawn, then scrolled
    save = page.get_by_role("button", name=WORDS["ja"]["save"])
    place = save.bounding_box()
    assert place is not None and place["y"] >= 0 and place["y"] + place["height"] <= 844
    assert outlined.bounding_box()["width"] <= 390  # type: ignore[index]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "paper-phone-read-ja-390")

    form = page.locator(".st-key-meet_paper_result")
    form.get_by_role("radio", name="3", exact=True).last.click()  # the blank place, typed
    tap(page, save)
    deadline = 60
    while not meets.paper(night[0], paper.public_id).confirmed and deadline:
        page.wait_for_timeout(500)
        deadline -= 1
    assert meets.paper(night[0], paper.public_id).places() == (2, 1, 3)
    page.wait_for_function(
        "() => !document.querySelector(\"[class*='st-key-meet_scan_upload'] "
        "[data-testid='stFileChip']\")",
        timeout=30000,
    )  # the box is empty: the next slip's photo goes straight in
    fresh = page.locator("[class*='st-key-meet_scan_upload']").first
    assert fresh.locator("[data-testid='stFileChip']").count() == 0
    shot(page, "paper-phone-saved-ja-390")
    page.close()
