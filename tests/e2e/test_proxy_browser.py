"""Two trackers on one PostgreSQL database behind Debian's nginx, configured by the very file
the venue guide shows (``docs/venue/nginx-site.conf``): Streamlit's websocket and the live
view's event stream pass through it, a write reaches phones on both trackers, and
``X-Forwarded-For`` is believed from the configured proxy only (issue 27 §3)."""

from __future__ import annotations

import http.client
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from aids.bench.live_room import nginx_conf
from aids.registry import engines
from aids.store.postgres import PostgresStore
from aids.store.throwaway import create_schema, with_schema
from aids.tables import TableService
from tests.e2e.conftest import free_port, tracker, wait_ready
from tests.e2e.scenes import new_table, record
from tests.games.derby.test_full_race import RACE

pytestmark = pytest.mark.e2e
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def room(
    pg_server: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str, str, str]]:
    """(database URL, the proxy's base URL, tracker A's, tracker B's)."""
    if not Path(NGINX).exists():
        pytest.fail(f"{NGINX} is missing: the test command installs Debian's nginx")
    create_schema(pg_server, "e2e_proxy")
    url = with_schema(pg_server, "e2e_proxy")
    trust = {"AIDS_DATABASE_URL": url, "FORWARDED_ALLOW_IPS": "127.0.0.1"}
    with tracker(**trust) as a, tracker(**trust) as b:
        listen = free_port()
        ports = (int(a.rsplit(":", 1)[1]), int(b.rsplit(":", 1)[1]))
        # the benchmark's nginx.conf around the venue guide's site file (its ports replaced)
        conf = nginx_conf(tmp_path_factory.mktemp("nginx"), listen, ports, connections=64)
        proc = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(conf.parent)])
        try:
            deadline = time.monotonic() + 20
            while not _answers(listen):
                assert time.monotonic() < deadline and proc.poll() is None, "nginx did not start"
                time.sleep(0.2)
            yield url, f"http://127.0.0.1:{listen}", a, b
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def _answers(port: int) -> bool:
    try:
        get(port, "/_stcore/health")
    except OSError:
        return False
    return True


def get(
    port: int, path: str, *, source: str = "127.0.0.1", headers: dict[str, str] | None = None
) -> http.client.HTTPResponse:
    """GET from a chosen loopback address (127.0.0.2, …: another device in the room)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    conn.request("GET", path, headers=headers or {})
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer


def test_forwarded_addresses_are_believed_from_the_proxy_only(
    room: tuple[str, str, str, str],
) -> None:
    """Wrong links are limited per client. Behind the proxy each device has its own budget
    (the address nginx forwards), and a header a device sends itself changes nothing: through
    nginx it is replaced, straight to a tracker it is ignored."""
    _url, proxy, a, _b = room
    via, direct = int(proxy.rsplit(":", 1)[1]), int(a.rsplit(":", 1)[1])
    for i in range(10):
        assert get(via, f"/live/Made{i:02d}upTable00000000000000", source="127.0.0.2").status == 404
    # the budget refills one link every 3 s: on a slow machine a few more may pass first
    paused = [get(via, f"/live/Made{i}upTable00000000000000", source="127.0.0.2").status
              for i in range(10, 16)]  # fmt: skip
    assert 429 in paused and set(paused) <= {404, 429}
    # another device behind the same proxy is not held up, even claiming to be the first
    spoof = {"X-Forwarded-For": "127.0.0.2"}
    other = get(via, "/live/Made11upTable00000000000000", source="127.0.0.3", headers=spoof)
    assert other.status == 404
    # straight to the tracker the header is ignored: 127.0.0.2 is still 127.0.0.2
    fresh = {"X-Forwarded-For": "127.0.0.9"}
    spent = get(direct, "/live/Made12upTable00000000000000", source="127.0.0.2", headers=fresh)
    assert spent.status == 429


def test_pages_and_the_live_view_pass_through_the_proxy_and_both_trackers_push(
    room: tuple[str, str, str, str], browser: Any
) -> None:
    """Streamlit's page connects its websocket through nginx; phones on the proxy and on
    each tracker follow a write made by another device on the database within seconds."""
    url, proxy, a, b = room
    service = TableService(PostgresStore(url), engines())
    try:
        pid, key = new_table(service, "Behind nginx", 3)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{proxy}/?table={pid}&lang=en")
        wait_ready(page)  # the websocket is up, through nginx
        assert "Behind nginx" in page.inner_text("body")
        page.close()
        phones = []
        for base in (proxy, a, b):
            phone = browser.new_page(viewport=PHONE)
            phone.goto(f"{base}/live/{pid}?lang=en")
            phone.wait_for_function("document.body.dataset.seq === '0'", timeout=15000)
            phones.append(phone)
        for step in RACE[:3]:  # a bet and a card each: one write or two
            record(service, pid, key, [step])
            seq = service.seq(pid)
            for phone in phones:
                phone.wait_for_function(f"document.body.dataset.seq === '{seq}'", timeout=10000)
        for phone in phones:
            phone.close()
    finally:
        service.store.close()
