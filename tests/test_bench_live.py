"""The live benchmark (``aids bench live``): its phones' stream reader, its figures, its help in
both languages, and a tiny run end to end (a real tracker, 20 phones in another process)."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from aids.bench.crowd import CHROMIUM
from aids.bench.live import run
from aids.bench.live_clients import Notes, SseClient
from aids.bench.live_report import Phase, phase_figures, report
from tests.test_cli_help import english_words, fits
from tests.test_cli_help import run as aids


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.sent, self.closed = b"", False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += bytes(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


def _chunk(text: bytes) -> bytes:
    return f"{len(text):x}\r\n".encode() + text + b"\r\n"


def test_the_phones_read_chunked_events_split_anywhere() -> None:
    """Headers, chunk framing and events arrive cut at any byte: each event is noted once,
    with its position, its bytes on the wire, and only newer positions count as arrivals."""
    loop = asyncio.new_event_loop()
    try:
        notes = Notes(0, 8501)
        client = SseClient(notes, b"GET / HTTP/1.1\r\n\r\n", loop.create_future())
        client.connection_made(_Transport())
        stream = (
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
            + _chunk(b"retry: 2000\n\n")
            + _chunk(b'id: 3.-1.en\ndata: {"seq":3,"over":false,"s":{}}\n\n')
            + _chunk(b"event: ping\ndata: \n\n")
            + _chunk(b'id: 5.4.en\ndata: {"seq":5,"s":{"last":"x"}}\n\nid: 4.4.en\n')
            + _chunk(b'data: {"seq":4,"s":{}}\n\n')
        )
        for at in range(0, len(stream), 7):
            client.data_received(stream[at : at + 7])
        assert client.first.done() and notes.status == 200 and notes.errors == []
        assert [e[0] for e in notes.events] == [3, 5, 4]
        assert [e[3] for e in notes.events] == ["3.-1.en", "5.4.en", "4.4.en"]
        assert sorted(notes.seen) == [3, 5] and notes.max == 5  # 4 came after 5: not new
        assert sum(e[1] for e in notes.events) == notes.bytes == len(stream)
        assert notes.others == {"ping": 1}
        client.data_received(_chunk(b""))  # the server ends the stream: said, not hidden
        assert notes.errors == ["the server ended the stream"]
    finally:
        loop.close()


def test_a_phone_sent_a_newer_position_has_not_missed_a_write() -> None:
    """Two writes within one of the hub's looks are drawn once: the phone that got position 3
    straight after 1 has seen write 2 at that time; a phone that never got 3 missed it."""
    writes = [(1, 10.0), (2, 12.0), (3, 12.05)]
    notes = [
        {"seen": {"1": 10.05, "3": 12.2}, "events": [[1, 900, 10.05, "1.0.en"],
                                                    [3, 1100, 12.2, "3.0.en"]]},
        {"seen": {"1": 10.1}, "events": [[1, 900, 10.1, "1.0.en"]]},
    ]  # fmt: skip
    phase = Phase()
    phase_figures(phase, writes, notes, [2000, 900], wall_s=4.0)
    assert (phase.pairs, phase.missed) == (6, 2)
    assert phase.p50_s == pytest.approx(0.125) and phase.max_s == pytest.approx(0.2)
    assert phase.bytes_per_write == pytest.approx(2900 / 3 / 2)
    assert phase.bytes_per_write_max == 1100 and phase.drawings == 2


def test_aids_bench_live_help_speaks_japanese_and_english() -> None:
    out = aids("--lang", "ja", "bench", "live", "--help", COLUMNS="72")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("使い方: aids bench live ")
    allowed = {
        "aids",
        "bench",
        "live",
        "derby",
        "ekiden",
        "gn",
        "rally",
        "chromium",
        "nginx",
        "cProfile",
    }
    assert english_words(out.stdout, allowed | {"Streamlit", "PostgreSQL"}) == [], out.stdout
    assert fits(out.stdout, 72), out.stdout
    en = aids("--lang", "en", "bench", "live", "--help")
    assert "live-view phones" in en.stdout and "--compare-streamlit M" in en.stdout


@pytest.mark.e2e
def test_twenty_phones_follow_every_write() -> None:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: the test command installs Debian's chromium")
    result = asyncio.run(
        run(20, 6.0, 2.0, idle_s=1.0, playouts=500, compare_streamlit=2, compare_seconds=4.0,
            verbose=False, baseline_writes=3, pages=2, pages_interval=0.3, race_writes=9)
    )  # fmt: skip
    text = report(result)
    assert result.errors == [] and not result.stopped_early, text
    assert result.opened == 20 and result.open_files["clients"] >= 1024, text
    main = result.main
    assert main.writes >= 3 and main.pairs == 20 * main.writes and main.missed == 0, text
    assert 0 < main.p50_s <= main.p95_s <= main.max_s < 10, text
    assert main.bytes_per_write > 0 and main.bytes_per_write_max > 0 and main.drawings > 0
    assert result.one.pairs >= 3 and result.one.missed == 0, text
    for figure in (result.idle0["server_cpu"], result.idle["server_cpu"], main.cpu_ms_per_write,
                   result.rss_with_mb, result.draw_ms, result.first_bytes):  # fmt: skip
        assert not math.isnan(figure), text
    live, streamlit = result.compare["live"], result.compare["streamlit"]
    assert live.clients == streamlit.clients == 2 and live.missed == streamlit.missed == 0
    assert live.bytes_per_s > 0 and streamlit.bytes_per_s > 0, text
    first = result.first_load
    assert first["live"]["requests"] >= 3 and first["live"]["bytes"] > 0, text
    assert first["streamlit"]["requests"] > first["live"]["requests"], text
    pages = result.pages
    assert pages is not None and pages.pages == 2 and pages.writes == 9, text
    assert pages.missed == 0 and pages.pairs == 9 + 7 and pages.reopened_after == 5, text
    assert 0 < pages.p50_s <= pages.max_s < 10 and 0 < pages.caught_up_s < 10, text
    for row in ("missed (write, phone) pairs", "write → received p95", "bytes per write",
                "server CPU per idle phone", "server CPU per write", "server RSS per phone",
                "first load 390 px, live", "2 live vs 2 Streamlit", "2 chromium pages",
                "a page closed, opened again"):  # fmt: skip
        assert row in text, text
