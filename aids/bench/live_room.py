"""The live benchmark's surroundings: the clients' process and its commands, the first load of
a page in chromium (bytes and requests, as the browser's network log counts them), nginx in
front of several trackers from the venue guide's site file, and which tracker holds each
connection (``/proc/net/tcp``) (``aids.bench.live``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from aids.bench.procs import free_port
from aids.paths import ROOT

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SITE = ROOT / "docs" / "venue" / "nginx-site.conf"
PHONE = {"width": 390, "height": 844}


class ClientProcess:
    """``python -m aids.bench.live_clients``: the phones, in a process of their own."""

    def __init__(self, proc: asyncio.subprocess.Process, open_files: int) -> None:
        self.proc, self.open_files = proc, open_files
        self.pid = proc.pid

    @classmethod
    async def start(cls) -> ClientProcess:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "aids.bench.live_clients",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT,
            limit=2**24,
        )  # fmt: skip
        assert proc.stdout is not None
        hello = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
        return cls(proc, int(hello["open_files"]))

    async def ask(self, cmd: str, **args: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps({"cmd": cmd, **args}) + "\n").encode())
        await self.proc.stdin.drain()
        line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the clients' process ended (exit {await self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def records(self, folder: Path) -> list[dict[str, Any]]:
        path = folder / "clients.json"
        await self.ask("records", path=str(path))
        notes: list[dict[str, Any]] = json.loads(path.read_text())
        return notes

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ask("exit"), 30)
        with contextlib.suppress(ProcessLookupError):
            if self.proc.returncode is None:
                self.proc.terminate()
        await self.proc.wait()


# --- the first load in chromium -------------------------------------------------------------


async def first_loads(base: str, public_id: str, chromium: str, args: Sequence[str],
                      settle_s: float = 3.0) -> dict[str, dict[str, Any]]:  # fmt: skip
    """The live view's first load and the Streamlit viewer page's, each in a fresh context
    (nothing cached) at 390 × 844: the requests the page made and the bytes it received
    (headers included, as the network log counts them: finished requests' encoded length,
    the open event stream's and websocket's data so far), ``settle_s`` after it shows the
    table."""
    from playwright.async_api import async_playwright

    pages = {
        "live": (f"{base}/live/{public_id}?lang=en",
                 "() => !!document.body && document.body.dataset.seq !== undefined"),
        "streamlit": (f"{base}/?table={public_id}&lang=en",
                      "() => !!document.querySelector('span.aids-seq')"),
    }  # fmt: skip
    out: dict[str, dict[str, Any]] = {}
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=chromium, args=list(args))
        try:
            for name, (url, ready) in pages.items():
                try:
                    out[name] = await _first_load(browser, url, ready, settle_s)
                except Exception as exc:
                    out[name] = {"error": f"{type(exc).__name__}: {exc}"[:200]}
        finally:
            await browser.close()
    return out


async def _first_load(browser: Any, url: str, ready: str, settle_s: float) -> dict[str, Any]:
    context = await browser.new_context(viewport=PHONE)
    try:
        page = await context.new_page()
        cdp = await context.new_cdp_session(page)
        requests: dict[str, dict[str, Any]] = {}

        def sent(e: dict[str, Any]) -> None:
            requests.setdefault(e["requestId"], {"url": e["request"]["url"], "data": 0,
                                                 "done": None})  # fmt: skip

        def data(e: dict[str, Any]) -> None:
            if e["requestId"] in requests:
                requests[e["requestId"]]["data"] += e.get("encodedDataLength", 0)

        def finished(e: dict[str, Any]) -> None:
            if e["requestId"] in requests:
                requests[e["requestId"]]["done"] = e.get("encodedDataLength", 0)

        def socket(e: dict[str, Any]) -> None:
            requests.setdefault(e["requestId"], {"url": e["url"], "data": 0, "done": None})

        def frame(e: dict[str, Any]) -> None:
            if e["requestId"] in requests:  # binary frames are base64 in the log
                payload = e["response"].get("payloadData", "")
                size = len(payload) * 3 // 4 if e["response"].get("opcode") == 2 else len(payload)
                requests[e["requestId"]]["data"] += size

        cdp.on("Network.requestWillBeSent", sent)
        cdp.on("Network.dataReceived", data)
        cdp.on("Network.loadingFinished", finished)
        cdp.on("Network.webSocketCreated", socket)
        cdp.on("Network.webSocketFrameReceived", frame)
        await cdp.send("Network.enable")
        await page.goto(url, wait_until="load", timeout=120_000)
        await page.wait_for_function(ready, timeout=120_000, polling=100)
        await asyncio.sleep(settle_s)
        total = sum(r["done"] if r["done"] is not None else r["data"] for r in requests.values())
        return {
            "bytes": total,
            "requests": len(requests),
            "urls": sorted({r["url"].split("?")[0].rsplit("/", 1)[-1] for r in requests.values()}),
        }
    finally:
        await context.close()


# --- nginx ------------------------------------------------------------------------------------


def nginx_conf(folder: Path, listen: int, ports: Sequence[int], connections: int) -> Path:
    """A whole nginx.conf around the venue guide's site file, its ports replaced (as
    ``tests/e2e/test_proxy_browser.py`` does), with room for ``connections`` connections."""
    site = SITE.read_text()
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen} backlog=4096;")
    site = site.replace("127.0.0.1:8501", f"127.0.0.1:{ports[0]}")
    site = site.replace("127.0.0.1:8502", f"127.0.0.1:{ports[1]}")
    conf = folder / "nginx.conf"
    temp = folder / "nginx-tmp"
    temp.mkdir(exist_ok=True)
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\n"
        f"worker_rlimit_nofile {4 * connections + 1024};\n"
        f"error_log {folder}/nginx-error.log warn;\n"
        f"events {{ worker_connections {2 * connections + 1024}; }}\n"
        f"http {{\naccess_log off;\nclient_body_temp_path {temp}/body;\n"
        f"proxy_temp_path {temp}/proxy;\nfastcgi_temp_path {temp}/fcgi;\n"
        f"uwsgi_temp_path {temp}/uwsgi;\nscgi_temp_path {temp}/scgi;\n{site}\n}}\n"
    )
    return conf


@contextlib.contextmanager
def nginx(folder: Path, ports: Sequence[int], connections: int) -> Iterator[tuple[int, int]]:
    """Debian's nginx in front of the trackers at ``ports``: (its port, its pid)."""
    if len(ports) != 2:
        raise ValueError("the venue guide's site file names two trackers")
    if not Path(NGINX).exists():
        raise RuntimeError(f"{NGINX} is missing (apt-get install nginx)")
    listen = free_port()
    conf = nginx_conf(folder, listen, ports, connections)
    proc = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(folder)],
                            stderr=(folder / "nginx.out").open("wb"))  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while not _answers(listen):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"nginx did not start; see {folder / 'nginx.out'}")
            time.sleep(0.2)
        yield listen, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _answers(port: int) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
            return True
    except OSError:
        return False


def established(ports: Sequence[int]) -> dict[int, int]:
    """How many connections each local listening port holds now (``/proc/net/tcp``, the
    server's side of each: state ESTABLISHED)."""
    wanted = {f"{p:04X}": p for p in ports}
    out = dict.fromkeys(ports, 0)
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                parts = line.split()
                port = parts[1].rsplit(":", 1)[1]
                if parts[3] == "01" and port in wanted:
                    out[wanted[port]] += 1
    return out
