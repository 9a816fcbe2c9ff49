"""One language on every page (issue 28 §3): each page of the tracker, read in chromium in
English and in Japanese, holds no word of the other language, and no raw message key.

The pages: home, print, an event's organiser page, the referee page and the live view of a
table of every game part-way through (the Derby and the Rally set up from the Japanese page
and from the English one) and finished. What is allowed in the other script is named here,
each for a reason: the names people typed and the names printed on the game's own pieces
(the tables' setups: players, horses, titles), the language switch's other label (each
language named in itself), the Grand National spinner's printed words that the Japanese
going names quote, the words printed on the games' cards and road (TOP SPEED, S), and
technical tokens (PDF, QR, km…; commands and addresses shown as code). Everything else a
reader sees is checked: the page's visible text, the values in its inputs (not a
checkbox's "on"), and an empty input's placeholder.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from aids.core.i18n import catalogue
from aids.core.links import home_url, organiser_url, referee_url, viewer_url
from aids.meets import MeetService
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e import frame_scenes
from tests.e2e.helpers import settle

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]+")
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_'’-]*[A-Za-z0-9]|[A-Za-z]")
RAW_KEY = re.compile(r"\b[a-z_]+\.(?:ui|sheet|report|charts|status|scan|paper|field)\.[a-z_.]+\b")
# Latin words a Japanese page may show: units, file and code formats, the switch's label.
TECHNICAL = {
    "PDF", "QR", "JSON", "CSV", "URL", "TOML", "JPG", "JPEG", "PNG", "MB", "KB", "km", "A4",
    "A3", "A5", "SHA", "English", "http", "https", "localhost", "AIDS_PUBLIC_URL", "AIDS",
    "PUBLIC", "K", "x", "vs", "A6",
    "aids", "export",  # the host's command a message names: aids export
}  # fmt: skip
# Printed on the games' own pieces, so a Japanese page names them as the table shows them:
# the Rally's TOP SPEED cards, the Ekiden road's start mark S; and the Grand National cards'
# effect notation (±N lengths, odds N/M).
PRINTED = {"TOP", "SPEED", "S", "N", "M"}
LANG_LABELS = {"en": {"日本語"}, "ja": set()}

# Every text a reader sees: text nodes drawn on screen (not an icon's ligature, not a link
# kept off screen until a keyboard reaches it), inputs' values (a checkbox's is "on"), the
# placeholder of an empty box.
SEEN = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!el || el.closest('[data-testid=stIconMaterial], script, style, noscript, code')) {
      continue;  // an icon's ligature; a command or an address shown as code
    }
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    if (r.width < 2 || r.height < 2 || r.right < 0 || s.visibility === 'hidden') continue;
    out.push(node.textContent);
  }
  for (const e of document.querySelectorAll('input, textarea')) {
    if (['checkbox', 'radio', 'file', 'hidden'].includes(e.type)) continue;
    out.push(e.value || e.placeholder || '');
  }
  return out.join('\\n');
}"""


def service_of(server: tuple[str, Path]) -> TableService:
    return TableService(SqliteStore(server[1]), engines())


def _spinner_words() -> set[str]:
    """The spinner's printed words that the Japanese going names quote: 重（Soft）."""
    words: set[str] = set()
    for key, value in catalogue("ja").items():
        if key.startswith("gn.going."):
            words |= set(LATIN.findall(value))
    return words


def _names(service: TableService, pid: str) -> set[str]:
    """The words people typed for a table (its title, its players' names) and the names
    printed on its cards (a Grand National horse dealt from the deck, not one the quick
    set-up named after its stable and cap): the words allowed in either script."""
    table = service.export(pid)["table"]
    texts = [table["title"], *service.snapshot(pid).seats]
    for stable in table["setup"].get("stables", []):
        texts += [h["name"] for h in stable["horses"] if not h["name"].startswith(stable["name"])]
    found: set[str] = set()
    for text in texts:
        found |= set(LATIN.findall(text)) | set(JAPANESE.findall(text))
    return found


@pytest.fixture(scope="module")
def room(server: tuple[str, Path]) -> dict[str, Any]:
    """A table of every game part-way through and finished, and an event: the pages' URLs
    (by language) and the words people typed for them."""
    service = service_of(server)
    tables: list[tuple[str, str, str, set[str]]] = []
    for kind in frame_scenes.KINDS:
        made = ("ja", "en") if kind in ("derby", "rally") else ("en",)
        for lang in made:
            pid, key = frame_scenes.mid_game(service, kind, lang)
            tables.append((f"{kind}-{lang}", pid, key, _names(service, pid)))
        pid, key = frame_scenes.finished(service, kind)
        tables.append((f"{kind}-over", pid, key, _names(service, pid)))
    meets = MeetService(service)
    info, mkey = meets.create("Night 夜", "2025-03-07")
    meets.add_table(info.public_id, mkey, tables[0][1], table_key=tables[0][2])
    typed = {"Night", "夜"}
    for *_, names in tables:
        typed |= names
    return {"tables": tables, "event": (info.public_id, mkey), "typed": typed}


def _pages(base: str, room: dict[str, Any], lang: str) -> list[tuple[str, str, set[str]]]:
    """Each page's name, URL and the typed words it may show (a table's page: its own)."""
    event, key = room["event"]
    every = room["typed"]
    pages = [
        ("home", home_url(base, lang), every),
        ("print", f"{base}/print?lang={lang}", every),
        ("event", organiser_url(base, event, key, lang), every),
    ]
    for name, pid, referee, names in room["tables"]:
        pages.append((name, referee_url(base, pid, referee, lang), names))
        pages.append((f"{name}-live", viewer_url(base, pid, lang), names))
    return pages


def _foreign(text: str, lang: str, allowed: set[str]) -> set[str]:
    text = re.sub(r"https?://\S+", " ", text)
    found = set(JAPANESE.findall(text)) if lang == "en" else set(LATIN.findall(text))
    return {w for w in found if w not in allowed and not w.isdigit()}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_page_speaks_one_language_and_shows_no_raw_key(
    server: tuple[str, Path], browser: Any, room: dict[str, Any], lang: str
) -> None:
    """Issue 28 §3: navigation, default names (horses named by colour, towns), form options,
    paper sizes, money and Streamlit's own uploader words all follow the reader's language;
    only names people typed (and the games' printed names) stay as they are."""
    allowed = LANG_LABELS[lang] | (
        TECHNICAL | PRINTED | _spinner_words() if lang == "ja" else set()
    )
    problems: dict[str, list[str]] = {}
    for name, url, typed in _pages(server[0], room, lang):
        page = browser.new_page(viewport=LAPTOP)
        page.goto(url)
        if "/live/" in url:
            page.wait_for_selector("#s-head", timeout=30000)
        else:
            settle(page, 1200)
        text = page.evaluate(SEEN)
        page.close()
        wrong = sorted(_foreign(text, lang, allowed | typed)) + sorted(set(RAW_KEY.findall(text)))
        if wrong:
            problems[name] = wrong
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in problems.items())
