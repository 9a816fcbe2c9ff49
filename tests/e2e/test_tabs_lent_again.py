"""The browser tests' tabs (``tests/e2e/conftest.Chromium``): a page closed is lent again as
the next page asked, blank, at the viewport asked, with none of its listeners; a page given
a route (something a tab would keep for its next user) is closed for good."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}
PAGE = "data:text/html,<title>first</title><p>first page</p>"


def test_a_closed_page_is_lent_again_blank_without_its_listeners(browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    heard: list[str] = []
    page.on("console", lambda message: heard.append(message.text))
    page.goto(PAGE)
    page.evaluate("console.log('before')")
    assert heard == ["before"]
    page.close()
    again = browser.new_page(viewport={"width": 1280, "height": 800})
    assert again is page, "the closed tab is lent again"
    assert again.url == "about:blank"
    assert again.viewport_size == {"width": 1280, "height": 800}
    again.evaluate("console.log('after')")
    assert heard == ["before"], "the first test's listener was taken off"
    again.close()


def test_a_page_given_a_route_is_closed_for_good(browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    page.route("**/*", lambda route: route.continue_())
    page.close()
    assert page.is_closed()
    assert browser.new_page(viewport=PHONE) is not page
