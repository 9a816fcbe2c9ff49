"""A real tracker server on a free local port and Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
    Stopped afterwards."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, AIDS_PUBLIC_URL=base, AIDS_CHANCE_PLAYOUTS="2000",
               AIDS_CHANCE_SECONDS="0.5", **env)  # fmt: skip
    command = [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        # a test server never reloads code: a file saved mid-run would re-import some modules
        # and leave cached states holding the old classes
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    proc = subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 60
        while True:  # poll the health endpoint, as Streamlit's own e2e tests do
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the tracker did not start")
            time.sleep(0.3)
        yield base
    finally:
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


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: the test command installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def wait_ready(page: object) -> None:
    page.wait_for_selector(  # type: ignore[attr-defined]
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=30000
    )
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=30000)  # type: ignore[attr-defined]
