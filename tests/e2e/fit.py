"""What "fits at the table" means, measured in the browser: the checks every game's page test
asks at 1280 × 800 (laptop), 768 × 1024 (tablet) and 390 × 844 (phone).

- the next action's controls are inside the first screen (``in_first_screen``);
- nothing is wider than the screen except a marked horizontal scroller (``too_wide``; mark a
  scroller with the class ``aids-scroll-x``: its content may be wider, it is not);
- every piece is inside its board's box (``outside``);
- no two labels of a map or strip overlap (``overlaps``);
- a tap does not move the page (``scroll_top`` before and after);
- the phone's first screen holds the standings (``first_screen_text``);
- an English page holds no Japanese outside the names (``japanese``).
"""

from __future__ import annotations

import re
from typing import Any

LAPTOP = {"width": 1280, "height": 800}
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}
SCROLLER = "aids-scroll-x"  # the class of a box that scrolls sideways on purpose
SLACK = 1.0  # px of rounding

_TOO_WIDE = """([scroller, slack]) => {
  const width = document.documentElement.clientWidth;
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  const out = [];
  for (const el of main.querySelectorAll('*')) {
    if (el.closest('.' + scroller)) continue;  // inside a marked scroller: may be wider
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    // clipped by an ancestor that hides what overflows: not seen, not wider on screen
    let clipped = false;
    for (let a = el.parentElement; a && a !== main; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'hidden' || o === 'clip') {
        const b = a.getBoundingClientRect();
        if (b.right <= width + slack && b.left >= -slack) { clipped = true; break; }
      }
    }
    if (clipped) continue;
    if (box.right > width + slack || box.left < -slack) {
      const name = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
        ? '.' + el.className.trim().split(/\\s+/).slice(0, 2).join('.') : '');
      out.push(`${name} [${Math.round(box.left)}, ${Math.round(box.right)}] > ${width}`);
    }
  }
  return out;
}"""

_BOXES = """(selector) => [...document.querySelectorAll(selector)]
  .filter(el => { const b = el.getBoundingClientRect(); return b.width > 0 && b.height > 0; })
  .map(el => { const b = el.getBoundingClientRect();
    const text = el.textContent || el.getAttribute('aria-label') || '';
    return {x: b.left, y: b.top, w: b.width, h: b.height, text: text.trim().slice(0, 40)}; })"""

_FIRST_SCREEN = """() => {
  const height = window.innerHeight, out = [];
  const walker = document.createTreeWalker(
    document.querySelector('[data-testid="stMain"]') || document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (!text || !node.parentElement) continue;
    const style = getComputedStyle(node.parentElement);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const b = range.getBoundingClientRect();
    if (b.height > 0 && b.top >= 0 && b.bottom <= height) out.push(text);
  }
  return out.join(' ');
}"""

_PAGE_TEXT = """() => {
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  const texts = [main.innerText];
  for (const el of main.querySelectorAll('[aria-label], [title], svg text, img[alt]'))
    texts.push(el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent
               || el.getAttribute('alt') || '');
  return texts.join('\\n');
}"""

_SCROLL_TOP = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  return (main ? main.scrollTop : 0) + window.scrollY;
}"""

# Hiragana, katakana, CJK ideographs, full-width forms and CJK punctuation
_JAPANESE = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]+")


def too_wide(page: Any) -> list[str]:
    """Elements reaching past the screen's edge outside a marked scroller (empty: fits)."""
    return list(page.evaluate(_TOO_WIDE, [SCROLLER, SLACK]))


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    """The drawn boxes (x, y, w, h, text) of every visible element matching ``selector``."""
    return list(page.evaluate(_BOXES, selector))


def in_first_screen(page: Any, selector: str, *, first: bool = False) -> list[str]:
    """Elements of ``selector`` not wholly inside the first screen, the page scrolled to its
    top (empty: all there); ``first``: only the first drawn one. At least one must match."""
    page.evaluate(
        "() => { document.querySelector('[data-testid=\"stMain\"]')?.scrollTo(0, 0);"
        " window.scrollTo(0, 0); }"
    )
    view = page.viewport_size
    found = boxes(page, selector)
    assert found, f"nothing matches {selector}"
    if first:
        found = found[:1]
    return [
        f"{b['text']!r} at ({b['x']:.0f}, {b['y']:.0f}, {b['w']:.0f}×{b['h']:.0f})"
        for b in found
        if b["y"] < -SLACK
        or b["x"] < -SLACK
        or b["y"] + b["h"] > view["height"] + SLACK
        or b["x"] + b["w"] > view["width"] + SLACK
    ]


def outside(page: Any, board: str, pieces: str) -> list[str]:
    """Pieces (``pieces``, inside ``board``) drawn outside the board's box (empty: none)."""
    [box] = boxes(page, board)[:1] or [None]
    assert box is not None, f"no board {board}"
    return [
        f"{p['text']!r} at ({p['x']:.0f}, {p['y']:.0f})"
        for p in boxes(page, f"{board} {pieces}")
        if p["x"] < box["x"] - SLACK
        or p["y"] < box["y"] - SLACK
        or p["x"] + p["w"] > box["x"] + box["w"] + SLACK
        or p["y"] + p["h"] > box["y"] + box["h"] + SLACK
    ]


def overlaps(page: Any, labels: str, *, tolerance: float = 1.0) -> list[str]:
    """Pairs of labels whose boxes overlap by more than ``tolerance`` px each way."""
    found = boxes(page, labels)
    out = []
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if dx > tolerance and dy > tolerance:
                out.append(f"{a['text']!r} × {b['text']!r}")
    return out


def scroll_top(page: Any) -> float:
    """How far the page is scrolled (Streamlit scrolls its main block, not the document)."""
    return float(page.evaluate(_SCROLL_TOP))


def first_screen_text(page: Any) -> str:
    """The text wholly inside the first screen, the page as it stands."""
    return str(page.evaluate(_FIRST_SCREEN))


def japanese(page: Any, names: list[str]) -> list[str]:
    """Japanese runs on the page (text, labels, titles, SVG text) once the given names (what
    players typed, horses' and towns' own names where a game keeps them) are taken out."""
    text = str(page.evaluate(_PAGE_TEXT))
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return sorted(set(_JAPANESE.findall(text)))
