"""The live benchmark's phones in chromium: pages of the live view following a whole Derby race
(issue 27 §4: each write shown within 1 s), one of them closed mid-race and opened again (it
must catch up to the newest position), ``aids.bench.live``.

Each page (390 × 844, a context of its own) gets a script before the page's own that notes the
clock time (``performance.timeOrigin + performance.now()``: the machine's clock, as Python's
``time.time()``) when ``<body data-seq>`` (set by the live view's script on each message) first
shows a newer position; nothing is asked of the pages while the race is written."""

from __future__ import annotations

import asyncio
import contextlib
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aids.bench.crowd_report import latencies, quantile
from aids.bench.live_room import PHONE
from aids.bench.referee import Referee

TARGET_SHOWN_S = 1.0
CLOSE_AT = 20  # the write at which the first page is closed (opened again two writes later)

PROBE = """
(() => {
  if (window.__aids) return;
  const rec = window.__aids = {seen: {}, max: -1, errors: 0};
  const now = () => performance.timeOrigin + performance.now();
  const check = () => {
    const seq = Number(document.body && document.body.dataset.seq);
    if (!Number.isNaN(seq) && seq > rec.max) { rec.max = seq; rec.seen[seq] = now(); }
  };
  new MutationObserver(check).observe(document, {subtree: true, attributes: true,
                                                 attributeFilter: ['data-seq']});
  document.addEventListener('DOMContentLoaded', check);
})();
"""
COLLECT = "() => window.__aids"


@dataclass
class PagesResult:
    pages: int = 0
    writes: int = 0
    pairs: int = 0
    missed: int = 0  # a write a page never showed (its position or a later one)
    late: int = 0  # shown later than TARGET_SHOWN_S
    p50_s: float = math.nan
    p95_s: float = math.nan
    max_s: float = math.nan
    over: bool = False  # the race was written to its end
    reopened_after: int = 0  # the write after which one page was opened again
    caught_up_s: float = math.nan  # from opening it again to showing the newest position
    errors: list[str] = field(default_factory=list)


async def follow_race(
    browser: Any,
    url: str,
    referee: Referee,
    pages: int,
    interval: float,
    *,
    most: int | None = None,
    timeout_s: float = 10.0,
) -> PagesResult:
    """``pages`` pages of the live view at ``url`` while ``referee`` writes its race to the end
    (at most ``most`` writes) every ``interval`` s; the first page closed at the ``CLOSE_AT``th
    write (a third of ``most``) and opened again two writes later."""
    out = PagesResult(pages)
    contexts: list[Any] = []
    opened: list[Any] = []
    # the pages' notes, by page; a page opened again keeps both of its records
    notes: list[list[dict[str, Any]]] = [[] for _ in range(pages)]

    async def open_page(i: int) -> Any:
        context = await browser.new_context(viewport=PHONE)
        await context.add_init_script(PROBE)
        page = await context.new_page()
        page.on("pageerror", lambda exc: out.errors.append(f"page {i}: {exc}"))
        page.on("console", lambda m: out.errors.append(f"page {i}: console: {m.text}")
                if m.type == "error" else None)  # fmt: skip
        await page.goto(url, wait_until="load", timeout=60_000)
        await page.wait_for_function("() => window.__aids && window.__aids.max >= 0",
                                     timeout=60_000, polling=100)  # fmt: skip
        contexts.append(context)
        return page

    try:
        for i in range(pages):
            opened.append(await open_page(i))
        await asyncio.sleep(1)
        closed_at = max(1, most // 3) if most else CLOSE_AT
        reopen_at = closed_at + 2
        away = (math.inf, math.inf)  # when the first page was closed, and opened again
        writes: list[tuple[int, float]] = []
        began, k = time.monotonic(), 0
        while not referee.game.is_over(referee.state) and (most is None or k < most):
            await asyncio.sleep(max(0.0, began + k * interval - time.monotonic()))
            if k == closed_at and pages:
                notes[0].append(await opened[0].evaluate(COLLECT))
                await opened[0].context.close()
                away = (time.time(), math.inf)
            if k == reopen_at and pages:
                opening = time.time()
                away = (away[0], opening)
                opened[0] = await open_page(0)
                shows = await opened[0].evaluate("() => window.__aids.max")
                newest = referee.seq
                await opened[0].wait_for_function(
                    f"() => window.__aids.max >= {newest}", timeout=timeout_s * 1000
                )
                record = await opened[0].evaluate(COLLECT)
                at = min(t for s, t in record["seen"].items() if int(s) >= newest) / 1000
                out.caught_up_s = at - opening
                out.reopened_after = newest
                if shows < newest and out.caught_up_s > TARGET_SHOWN_S:
                    out.errors.append(f"the page opened again showed {shows} of {newest}")
            seq = await asyncio.to_thread(referee.write)
            writes.append((seq, time.time()))
            k += 1
        out.over = referee.game.is_over(referee.state)
        last = writes[-1][0] if writes else 0
        with contextlib.suppress(Exception):
            await asyncio.gather(*(p.wait_for_function(f"() => window.__aids.max >= {last}",
                                                       timeout=timeout_s * 1000)
                                   for p in opened))  # fmt: skip
        for i, page in enumerate(opened):
            notes[i].append(await page.evaluate(COLLECT))
    finally:
        for context in contexts:
            with contextlib.suppress(Exception):
                await context.close()
    _figures(out, writes, notes, away)
    return out


def _figures(
    out: PagesResult,
    writes: Sequence[tuple[int, float]],
    notes: list[list[dict[str, Any]]],
    away: tuple[float, float],
) -> None:
    """The latencies of every (write, page) pair but the first page's writes made while it
    was closed (its catching up is ``caught_up_s``)."""
    seen = []
    for records in notes:
        merged: dict[int, float] = {}
        for record in records:
            for s, t in (record or {}).get("seen", {}).items():
                merged.setdefault(int(s), t / 1000)
        seen.append(merged)
    lat: list[float] = []
    out.writes = len(writes)
    for i, one in enumerate(seen):
        mine = [w for w in writes if i or not away[0] <= w[1] <= away[1]]
        got, missed = latencies(mine, [one], math.inf)
        lat += got
        out.missed += missed
        out.pairs += len(mine)
    out.late = sum(x > TARGET_SHOWN_S for x in lat)
    if lat:
        out.p50_s, out.p95_s, out.max_s = statistics.median(lat), quantile(lat, 0.95), max(lat)
