"""A real tracker server on a free local port and Debian's chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("AIDS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


# A browser test that fails is run once more before it counts as failed (AIDS_E2E_RERUNS=0:
# never), as Playwright's own test runner does on CI. Every rerun is listed in the summary
# ("RERUN"), so a test that needs one is seen; a real fault fails both runs.
E2E_RERUNS = int(os.environ.get("AIDS_E2E_RERUNS", "1"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") and not item.get_closest_marker("flaky"):
            item.add_marker(pytest.mark.flaky(reruns=E2E_RERUNS, reruns_delay=1))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def tracker(script: Path = ROOT / "streamlit_app.py", **env: str) -> Iterator[str]:
    """A running ``streamlit run streamlit_app.py`` (or another ``script``) on a free port
    with ``env`` added (the store: ``AIDS_DB`` or ``AIDS_DATABASE_URL``); its base URL.
    Stopped afterwards. The tests run in parallel (pytest-xdist), so a port found free can be
    taken by another worker's server before this one binds it: a server that exits before it
    answers is started again on another port (twice at most)."""
    for attempt in range(3):
        port = free_port()
        with tempfile.TemporaryFile() as log:
            proc = _start(script, port, env, log)
            try:
                if _healthy(proc, port):
                    yield f"http://127.0.0.1:{port}"
                    return
            finally:
                _stop(proc)
            log.seek(0)
            said = log.read().decode(errors="replace")
        if attempt == 2 or "already in use" not in said:
            raise RuntimeError(f"the tracker did not start:\n{said[-2000:]}")


def _start(script: Path, port: int, env: dict[str, str], log: IO[bytes]) -> subprocess.Popen[bytes]:
    base = f"http://127.0.0.1:{port}"
    full = dict(os.environ, AIDS_PUBLIC_URL=base, AIDS_CHANCE_PLAYOUTS="2000",
                AIDS_CHANCE_SECONDS="0.5", **env)  # fmt: skip
    command = [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        # a test server never reloads code: a file saved mid-run would re-import some modules
        # and leave cached states holding the old classes
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    return subprocess.Popen(command, env=full, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def _healthy(proc: subprocess.Popen[bytes], port: int) -> bool:
    """Polls the health endpoint, as Streamlit's own e2e tests do: True once it answers,
    False if the server exited first; raises if it neither answers nor exits in 60 s."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return True
        except OSError:
            pass
        if proc.poll() is not None:
            return False
        if time.monotonic() > deadline:
            raise RuntimeError("the tracker did not start")
        time.sleep(0.3)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """(base URL, SQLite path) of a running tracker on its own SQLite file."""
    db = tmp_path_factory.mktemp("e2e") / "aids.sqlite3"
    with tracker(AIDS_DB=str(db)) as base:
        yield base, db


# A tab keeps what these leave on it (a route, a script run at every load, emulated media or
# headers) for whoever uses it next: a tab given one is closed, never lent again. Listeners
# (``on``, ``once``) are taken off when it is given back.
KEEPS_STATE = (
    "add_init_script", "route", "route_from_har", "expose_function",
    "expose_binding", "emulate_media", "set_extra_http_headers", "add_locator_handler",
    "set_default_timeout", "set_default_navigation_timeout",
)  # fmt: skip
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}  # Playwright's own


class Chromium:
    """Debian's chromium for one test file, asked as a Playwright ``Browser`` is.

    A page asked with a viewport only opens in one profile on disk, shared by the file's pages
    as a referee's browser is: its cache keeps the tracker's scripts compiled, so every page
    after the first loads in about 60 % of the processor time (1.1 s of chromium's instead of
    1.9 s for the home page, measured), most of what a browser test costs. A page closed is
    not closed but taken back to ``about:blank`` (its tracker session ends, as on closing)
    and lent again for the next page asked, as a referee's tab is reused (measured once, A/B
    on three browser files run alone: 293 → 209 s of processor time, every process; loops
    of single page loads gave no steady difference either way, so where chromium saves is
    not pinned down). Its listeners are taken off; a tab a test left something else on
    (``KEEPS_STATE``) is closed for good. A page or context asked with other options (no
    JavaScript, downloads) gets a fresh context of its own from a second chromium, started
    the first time one is asked."""

    def __init__(self, playwright: Any, profile: Path) -> None:
        self._playwright = playwright
        self._shared = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        self._fresh: Any = None
        self._lent: list[Any] = []
        self._spare: list[Any] = [self._lendable(page) for page in self._shared.pages]
        self._kept_state: set[Any] = set()
        self._listeners: dict[Any, list[tuple[str, Any]]] = {}

    def new_page(self, *, viewport: dict[str, int] | None = None, **options: Any) -> Any:
        if options:
            return self.new_context(viewport=viewport, **options).new_page()
        page = self._spare.pop() if self._spare else self._lendable(self._shared.new_page())
        self._lent.append(page)
        page.set_viewport_size(viewport or DEFAULT_VIEWPORT)
        return page

    def _lendable(self, page: Any) -> Any:
        """``page`` with its ``close`` giving it back, and the calls that leave something on
        it marking it as not to be lent again."""
        close = page.close
        page.close = lambda **_: self._give_back(page, close)
        for name in KEEPS_STATE:
            page.__dict__[name] = self._marking(page, getattr(page, name))
        for name in ("on", "once"):
            page.__dict__[name] = self._listening(page, getattr(page, name))
        return page

    def _listening(self, page: Any, method: Any) -> Any:
        def call(event: str, handler: Any) -> None:
            self._listeners.setdefault(page, []).append((event, handler))
            method(event, handler)

        return call

    def _marking(self, page: Any, method: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self._kept_state.add(page)
            return method(*args, **kwargs)

        return call

    def _give_back(self, page: Any, close: Any) -> None:
        if page not in self._lent:
            return  # given back already
        self._lent.remove(page)
        for event, handler in self._listeners.pop(page, []):
            with contextlib.suppress(KeyError):  # a ``once`` listener that has run
                page.remove_listener(event, handler)
        if page not in self._kept_state:
            try:
                page.goto("about:blank")
            except Exception:  # a crashed or closing tab: not lent again
                pass
            else:
                self._spare.append(page)
                return
        self._kept_state.discard(page)
        if not page.is_closed():
            close()

    def new_context(self, **options: Any) -> Any:
        if self._fresh is None:
            self._fresh = self._playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
        return self._fresh.new_context(**options)

    def close_pages(self) -> None:
        """Give back every page a test left open, and close any other it opened (a link's
        new tab): a page left open keeps its session on the tracker, and a phone's page
        keeps redrawing, for the rest of the file."""
        for page in list(self._lent):
            page.close()
        spare = set(self._spare)
        for page in self._shared.pages:
            if page not in spare:
                page.close()
        if self._fresh is not None:
            for context in self._fresh.contexts:
                context.close()

    def close(self) -> None:
        self._shared.close()
        if self._fresh is not None:
            self._fresh.close()


@pytest.fixture(scope="session")
def chromium_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The browser profile of this worker's test files (one file's chromium at a time)."""
    return tmp_path_factory.mktemp("chromium-profile")


@pytest.fixture(scope="module")
def browser(chromium_profile: Path) -> Iterator[Chromium]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: the test command installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = Chromium(p, chromium_profile)
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def _pages_close_with_their_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each browser test, the pages it left open are closed (measured: two files kept
    14 and 17 open, their sessions redrawing, a fifth of those files' browser work)."""
    yield
    if "browser" in request.fixturenames:
        request.getfixturevalue("browser").close_pages()


def wait_ready(page: object) -> None:
    page.wait_for_selector(  # type: ignore[attr-defined]
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=30000
    )
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=30000)  # type: ignore[attr-defined]
