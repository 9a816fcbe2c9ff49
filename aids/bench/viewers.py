"""The crowd benchmark's viewers: a chromium page, or Streamlit's websocket driven directly,
each noting when the table page's hidden marker first shows a new log position
(``aids.bench.crowd``)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from typing import Any

PHONE = {"width": 390, "height": 844}

# Installed in every page before Streamlit's scripts: notes when the marker first shows each
# new log position, the connection and script state changes, and what the websocket carries.
PAGE_PROBE = """
(() => {
  if (window.top !== window || window.__aids) return;
  const now = () => performance.timeOrigin + performance.now();
  const rec = window.__aids = {seen: {}, max: -1, states: [], conn: null,
                               frames: 0, bytes: 0, closes: 0, marks: 0};
  const latin1 = new TextDecoder('latin1');
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        rec.frames += 1;
        const d = e.data;
        rec.bytes += d.byteLength ?? d.size ?? d.length ?? 0;
        // one marker per run of the viewer's fragment: the server's reruns, counted exactly
        if (d instanceof ArrayBuffer && latin1.decode(d).includes('aids-seq')) rec.marks += 1;
      });
      this.addEventListener('close', () => { rec.closes += 1; });
    }
  };
  const check = () => {
    const mark = document.querySelector('span.aids-seq');
    if (mark) {
      const seq = Number(mark.getAttribute('data-seq'));
      if (seq > rec.max) { rec.max = seq; rec.seen[seq] = now(); }
    }
    const app = document.querySelector('[data-testid="stApp"]');
    if (app) {
      const conn = app.getAttribute('data-test-connection-state');
      if (conn !== rec.conn) { rec.conn = conn; rec.states.push([conn, now()]); }
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true, childList: true, attributes: true,
    attributeFilter: ['data-seq', 'data-test-connection-state'],
  });
})();
"""
COLLECT = "() => window.__aids"
MARK = re.compile(rb'class="aids-seq" data-seq="(\d+)"')
FIGURES = re.compile(rb'class="aids-figures" data-seq="(\d+)"')  # the chances shown are for N
ERRORS_ON_PAGE = "() => document.querySelectorAll('[data-testid=\"stException\"]').length"


# --- the viewers ----------------------------------------------------------------------------


class Viewer:
    """One viewer of the table. ``probe()`` answers what it noted (without disturbing it):
    ``seen`` (sequence → clock time in ms when it first showed), ``max``, ``marks`` (viewer
    fragment runs received), ``bytes``, and ``errors`` seen so far."""

    index: int
    load_s: float = float("nan")  # from opening to the first marker
    errors: list[str]

    async def probe(self) -> dict[str, Any]:
        raise NotImplementedError

    async def finish(self) -> None:
        """Look for errors on the viewer at the end of the run."""

    async def close(self) -> None:
        raise NotImplementedError


class PageViewer(Viewer):
    """A viewer page in its own headless chromium context (a phone's window size)."""

    def __init__(self, index: int) -> None:
        self.index, self.errors = index, []
        self.context: Any = None
        self.page: Any = None

    async def open(self, browser: Any, url: str, timeout_s: float) -> None:
        self.context = await browser.new_context(viewport=PHONE)
        await self.context.add_init_script(PAGE_PROBE)
        page = self.page = await self.context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )
        start = time.monotonic()
        await page.goto(url, wait_until="domcontentloaded", timeout=timeout_s * 1000)
        await page.wait_for_function(
            "() => window.__aids && window.__aids.max >= 0", timeout=timeout_s * 1000, polling=200
        )
        self.load_s = time.monotonic() - start

    async def probe(self) -> dict[str, Any]:
        return dict(await self.page.evaluate(COLLECT) or {})

    async def finish(self) -> None:
        try:
            record = await self.probe()
            boxes = await self.page.evaluate(ERRORS_ON_PAGE)
        except Exception as exc:  # a crashed page
            self.errors.append(f"page lost: {exc}")
            return
        if boxes:
            self.errors.append(f"{boxes} Streamlit exception box(es) on the page")
        if record.get("closes"):
            self.errors.append(f"websocket closed {record['closes']}×")
        states = [state for state, _ in record.get("states", [])]
        if "CONNECTED" in states:  # any other state once connected is a lost connection
            lost = [s for s in states[states.index("CONNECTED") :] if s != "CONNECTED"]
            if lost:
                self.errors.append(f"connection lost: {', '.join(lost)}")

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.context.close()


def _is_exception(delta: Any) -> bool:
    """Whether a delta draws a Streamlit exception box."""
    return bool(
        delta.WhichOneof("type") == "new_element"
        and delta.new_element.WhichOneof("type") == "exception"
    )


class SocketViewer(Viewer):
    """Streamlit's websocket driven directly, as the viewer page drives it: the page's first
    run (its URL's query), then a rerun of each live fragment every ``run_every`` seconds on
    the timer the server asks for (``auto_rerun``), whether the last run is done or not, as
    the browser's ``setInterval`` does; as the browser, a full run's ``new_session`` clears
    the timers (that run asks for its own), an ``auto_rerun`` with a new interval replaces
    its fragment's, and ``stop_auto_rerun`` ends those named. No page is drawn: the client
    costs little, so the server's limit shows on a machine that cannot also run that many
    browsers."""

    def __init__(self, index: int) -> None:
        self.index, self.errors = index, []
        self.record: dict[str, Any] = {
            "seen": {},
            "max": -1,
            "marks": 0,
            "bytes": 0,
            "figures": {},  # sequence → clock time in ms when its chances first showed
            "ticks": [],  # the intervals the server asked for, in order (``auto_rerun``)
        }
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._closing = False

    async def open(self, base: str, query: str, timeout_s: float) -> None:
        start = time.monotonic()
        self._task = asyncio.create_task(self._run(base, query))
        done = asyncio.ensure_future(self._ready.wait())
        await asyncio.wait({done, self._task}, timeout=timeout_s,
                           return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
        if not self._ready.is_set():
            done.cancel()
            await self.close()
            raise RuntimeError(f"no marker within {timeout_s:.0f} s; {self.errors[:1]}")
        self.load_s = time.monotonic() - start

    async def _run(self, base: str, query: str) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
        from websockets.asyncio.client import connect

        rec = self.record
        timers: dict[str, tuple[float, asyncio.Task[None]]] = {}  # fragment → interval, timer

        def stop(fragments: Any) -> None:
            for fragment in list(fragments):
                if fragment in timers:
                    timers.pop(fragment)[1].cancel()

        try:
            stream = base.replace("http", "ws", 1) + "/_stcore/stream"
            async with connect(stream, subprotocols=["streamlit"],  # type: ignore[list-item]
                               origin=base, max_size=None) as ws:  # type: ignore[arg-type]  # fmt: skip
                first = BackMsg()
                first.rerun_script.query_string = query
                await ws.send(first.SerializeToString())
                page = ""

                async def tick(fragment: str, every: float) -> None:
                    while True:
                        await asyncio.sleep(every)
                        rerun = BackMsg()
                        state = rerun.rerun_script
                        state.query_string, state.page_script_hash = query, page
                        state.fragment_id, state.is_auto_rerun = fragment, True
                        await ws.send(rerun.SerializeToString())

                async for data in ws:
                    at = time.time() * 1000
                    raw = data if isinstance(data, bytes) else data.encode()
                    rec["bytes"] += len(raw)
                    msg = ForwardMsg()
                    msg.ParseFromString(raw)
                    kind = msg.WhichOneof("type")
                    if kind == "new_session":
                        page = msg.new_session.page_script_hash
                        if not msg.metadata.run.fragment_ids:  # a full run
                            stop(timers)
                    elif kind == "auto_rerun" and msg.auto_rerun.fragment_id:
                        fragment, every = msg.auto_rerun.fragment_id, msg.auto_rerun.interval
                        rec["ticks"].append(every)
                        if timers.get(fragment, (None,))[0] != every:
                            stop([fragment])
                            timers[fragment] = (every, asyncio.create_task(tick(fragment, every)))
                    elif kind == "stop_auto_rerun":
                        stop(msg.stop_auto_rerun.fragment_ids)
                    elif kind == "delta" and _is_exception(msg.delta):
                        self.errors.append(f"exception: {msg.delta.new_element.exception.message}")
                    if b"aids-seq" in raw and (mark := MARK.search(raw)):
                        rec["marks"] += 1
                        seq = int(mark.group(1))
                        if seq > rec["max"]:
                            rec["max"], rec["seen"][str(seq)] = seq, at
                        self._ready.set()
                    if b"aids-figures" in raw and (shown := FIGURES.search(raw)):
                        rec["figures"].setdefault(shown.group(1).decode(), at)
                if not self._closing:
                    self.errors.append("websocket closed by the server")
        except Exception as exc:
            if not self._closing:
                self.errors.append(f"websocket: {exc!r}")
        finally:
            stop(timers)

    async def probe(self) -> dict[str, Any]:
        return dict(
            self.record,
            seen=dict(self.record["seen"]),
            figures=dict(self.record["figures"]),
            ticks=list(self.record["ticks"]),
        )

    async def close(self) -> None:
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
