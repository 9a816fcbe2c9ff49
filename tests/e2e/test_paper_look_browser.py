"""Paper tables that never break a night, in chromium (issue 26 §1, §3): the event page opened
on a store holding a result today's rules refuse (a Derby 20 + 20 stored before the points
check) and one imported with string numbers renders for the viewer on a phone and for the
organiser on a laptop; the table says what is wrong and the organiser corrects it on the
page. A paper table's title is text in the "slip was read" message and the remove warning,
and an upload larger than the slip reader takes is refused by the uploader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.inputs import MAX_PHOTO_MB
from aids.core.links import meet_url, organiser_url
from aids.meets import Scoring
from tests.e2e.helpers import settle, shot, tap
from tests.e2e.test_paper_browser import LAPTOP, PHONE, meets_of
from tests.meets.test_papers import stored_as_is
from tests.ui.hostile import HOST, IMAGE, LINK

pytestmark = pytest.mark.e2e
HOSTILE = f"{LINK} {IMAGE}"[:80]
BROKEN = ("Traceback", "StreamlitAPIException", "StreamlitDefaultNotInOptionsError")


def no_crash(page: Any) -> None:
    text = page.locator("[data-testid=stMain]").inner_text()
    assert not any(word in text for word in BROKEN), text[:2000]
    assert page.locator("[data-testid=stException]").count() == 0


def test_an_odd_stored_result_renders_says_what_is_wrong_and_is_corrected(
    server: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    from aids.print.meet_slips import slip_spec
    from tests.scan.test_meet_slips import photo_of

    meets = meets_of(server)
    info, key = meets.create("Look night", "2026-12-04", Scoring("score"))
    game = meets.tables.game("derby")
    setup = game.setup_to_dict(game.default_setup(["Aki", "Ben"], "en"))
    refused = meets.new_paper(info.public_id, key, "derby", "Twenty twenty", setup)
    stored_as_is(meets, (info.public_id, key), refused, {"places": [1, 1], "points": [20, 20]})
    strings = meets.new_paper(info.public_id, key, "derby", "Strings", setup)
    stored_as_is(meets, (info.public_id, key), strings,
                 {"places": ["2", "1"], "points": ["3", "4"]})  # fmt: skip
    rally = meets.tables.game("rally")
    two = rally.setup_to_dict(rally.default_setup(["Cy", "Di"], "en"))
    hostile = meets.new_paper(info.public_id, key, "rally", HOSTILE, two)

    phone = browser.new_page(viewport=PHONE)
    phone.goto(meet_url(server[0], info.public_id, "en"))
    settle(phone, 1200)
    phone.get_by_text("needs a look").first.wait_for(timeout=30000)
    no_crash(phone)
    assert phone.get_by_text("Stored: places 1, 1 · points 20, 20").count() >= 1
    shot(phone, "paper-look-viewer-390", full_page=True)
    phone.close()

    page = browser.new_page(viewport=LAPTOP)
    page.goto(organiser_url(server[0], info.public_id, key, "en"))
    settle(page, 1200)
    no_crash(page)
    tap(page, page.get_by_role("tab", name="Paper tables"))
    no_crash(page)
    form = page.locator(f"[class*='st-key-meet_paper_{refused.public_id}_1']").first
    form.wait_for(timeout=30000)
    assert page.get_by_text("Points rule").count() >= 1  # the rule it breaks, above its form
    shot(page, "paper-look-organiser-1280")
    for seat, (place, points) in enumerate(((1, 12), (2, 3))):
        prefix = f"meet_paper_{refused.public_id}_1"
        option = page.locator(f".st-key-{prefix}_place_{seat}").get_by_role(
            "radio", name=str(place), exact=True
        )
        if option.get_attribute("aria-checked") != "true":  # a tap on a chosen one clears it
            option.click()
        box = page.locator(f".st-key-{prefix}_points_{seat} input")
        box.fill(str(points))
        box.press("Tab")
    tap(page, page.get_by_role("button", name="Save the result"))
    deadline = 60
    while meets.paper(info.public_id, refused.public_id).problem is not None and deadline:
        page.wait_for_timeout(500)
        deadline -= 1
    fixed = meets.paper(info.public_id, refused.public_id)
    assert fixed.problem is None and fixed.finished and fixed.places() == (1, 2)

    # a hostile title stays text: in the "slip was read" message and the remove warning
    shot(page, "paper-look-fixed-1280")
    page.locator(".st-key-meet_paper_which").click()
    page.get_by_role("option", name=f"{HOSTILE} · Japan Rally").click()
    settle(page)
    spec = slip_spec(meets.info(info.public_id), meets.paper(info.public_id, hostile.public_id),
                     "en")  # fmt: skip
    upload = page.locator("[class*='st-key-meet_scan_upload'] input[type='file']")
    jpeg = photo_of(spec, [1, 2], [[], []], seed=5)
    upload.set_input_files({"name": "slip.jpg", "mimeType": "image/jpeg", "buffer": jpeg})
    page.get_by_text("was read").wait_for(timeout=60000)
    page.get_by_role("button", name="Remove this paper table").click()
    page.get_by_text("This cannot be undone").wait_for(timeout=30000)
    shown = page.evaluate("document.body.innerText").replace("\u2060", "")  # md_text's joiners
    assert shown.count(HOSTILE) >= 3  # as typed: its card, the read message, the warning
    assert page.locator(f"a[href*='{HOST}']").count() == 0
    assert page.locator(f"img[src*='{HOST}']").count() == 0
    shot(page, "paper-look-hostile-1280")
    page.keyboard.press("Escape")

    # an upload bigger than the reader takes is refused before it is sent whole (a sparse file
    # given by its path: the browser reads it from disk, where a buffer of that size would
    # cross the driver's pipe, 20 s of a loaded machine's time)
    big = tmp_path / "huge.jpg"
    with big.open("wb") as out:
        out.write(b"\xff\xd8\xff")
        out.truncate(MAX_PHOTO_MB * 1024 * 1024 + 4)
    upload.set_input_files(str(big))
    refusal = page.locator("[class*='st-key-meet_scan_upload']").get_by_text(f"{MAX_PHOTO_MB}.0MB")
    refusal.first.wait_for(timeout=30000)  # Streamlit's "File must be 40.0MB or smaller."
    assert "must be" in refusal.first.inner_text()
    shot(page, "paper-look-too-big-1280")
    no_crash(page)
    page.close()
