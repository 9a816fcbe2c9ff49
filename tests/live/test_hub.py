"""The live view's hub and routes (``aids.live.hub``, ``aids.live.routes``): one drawing per
table, position and language whatever the phones' count; a phone that was away is sent the
newest position; the page, the stream and the shipped files over ASGI."""

from __future__ import annotations

import asyncio
import json
import re
import zlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from urllib.parse import urljoin

import pytest

from aids.bench.referee import Referee
from aids.core.errors import StoreError
from aids.live.hub import GZIP_HEADER, Hub
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.live.conftest import app_of, asgi_get


def events(chunk: bytes) -> list[dict[str, str]]:
    """The Server-Sent Events in ``chunk``: each one's fields."""
    out = []
    for block in chunk.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if fields:
            out.append(fields)
    return out


async def next_chunk(stream: AsyncIterator[bytes], timeout: float = 10.0) -> bytes:
    return await asyncio.wait_for(anext(stream), timeout)


def test_one_drawing_per_language_however_many_phones_watch(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """Issue 27 §1 "the cost of a write must not grow with the phones' count": 60 phones in
    English and 40 in Japanese on one table; each write is drawn twice (once per language)
    and every phone is sent the same bytes as the others of its language."""
    ref = referee("rally")
    hub = Hub(lambda: tables, lambda: None, tick=0.02)

    async def run() -> None:
        phones = [
            hub.follow(ref.public_id, "en" if i < 60 else "ja", None).__aiter__()
            for i in range(100)
        ]
        firsts = await asyncio.gather(*(next_chunk(p) for p in phones))
        assert len(set(firsts[:60])) == 1 and len(set(firsts[60:])) == 1
        assert hub.phones == 100
        for _ in range(3):
            drawn = hub.draws
            await asyncio.to_thread(ref.write)
            news = await asyncio.gather(*(next_chunk(p) for p in phones))
            assert hub.draws - drawn == 2
            assert len(set(news[:60])) == 1 and len(set(news[60:])) == 1
            assert json.loads(events(news[0])[0]["data"])["seq"] == ref.seq
        for phone in phones:
            await phone.aclose()  # type: ignore[attr-defined]
        assert hub.phones == 0

    asyncio.run(run())


def test_a_phone_that_was_away_is_sent_the_newest_position_only(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """Issue 27 §1 "catches up to the newest position (not every step in between)": a phone
    holding step 2 while the table moved on to step 7 is sent step 7 in full, once; one holding
    the previous drawing is sent only what changed; one up to date is told so."""
    ref = referee("derby")
    hub = Hub(lambda: tables, lambda: None, tick=0.02)
    for _ in range(2):
        ref.write()

    async def run() -> None:
        away = hub.follow(ref.public_id, "en", None).__aiter__()
        held = events(await next_chunk(away))[0]["id"]
        await away.aclose()  # type: ignore[attr-defined]
        for _ in range(5):
            await asyncio.to_thread(ref.write)
        back = hub.follow(ref.public_id, "en", held).__aiter__()
        sent = events(await next_chunk(back))
        body = json.loads(sent[0]["data"])
        assert len(sent) == 1 and body["seq"] == 7 and sent[0]["id"].startswith("7.")
        assert set(body["s"]) >= {"head", "last", "next", "standings", "board", "log"}
        newest = sent[0]["id"]
        await asyncio.to_thread(ref.write)
        step = json.loads(events(await next_chunk(back))[0]["data"])
        assert step["seq"] == 8 and "head" in step["s"] and len(step["s"]) < 9
        await back.aclose()  # type: ignore[attr-defined]
        current = hub.follow(ref.public_id, "en", None).__aiter__()
        newest = events(await next_chunk(current))[0]["id"]
        await current.aclose()  # type: ignore[attr-defined]
        same = hub.follow(ref.public_id, "en", newest).__aiter__()
        assert events(await next_chunk(same)) == [{"event": "same", "data": ""}]
        await same.aclose()  # type: ignore[attr-defined]

    asyncio.run(run())


def test_a_write_by_another_process_reaches_the_phones(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """A write the hub's own service never saw (the referee's device through another service
    on the same file, as a second process is) reaches the phones at the hub's next look."""
    ref = referee("ekiden")
    hub = Hub(lambda: tables, lambda: None, tick=0.02)

    async def run() -> None:
        phone = hub.follow(ref.public_id, "ja", None).__aiter__()
        await next_chunk(phone)
        for _ in range(4):
            await asyncio.to_thread(ref.write)
            body = json.loads(events(await next_chunk(phone))[0]["data"])
            assert body["seq"] == ref.seq
        await phone.aclose()  # type: ignore[attr-defined]

    asyncio.run(run())


def test_the_page_speaks_the_phones_language_and_ships_its_own_script(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """Issue 27 §1: the page in the phone's language (``Accept-Language``, ``?lang=`` first),
    a switch to the other, a link to the full page, a refresh without JavaScript, and its
    script and styles from this server (versioned, cached; nothing from a CDN)."""
    ref = referee("derby")
    ref.write()
    app = app_of(Hub(lambda: tables, lambda: None))

    async def run() -> None:
        path = f"/live/{ref.public_id}"
        ja = await asgi_get(app, path, {"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.8"})
        en = await asgi_get(app, path, {"Accept-Language": "fr;q=1,en-GB;q=0.7,ja;q=0.5"})
        chosen = await asgi_get(app, path + "?lang=en", {"Accept-Language": "ja"})
        assert ja.status == en.status == chosen.status == 200
        assert '<html lang="ja">' in ja.text and "詳細ページ" in ja.text
        assert '<html lang="en">' in en.text and "Full page" in en.text
        assert '<html lang="en">' in chosen.text
        assert 'href="?lang=en"' in ja.text and f"../?table={ref.public_id}&amp;lang=ja" in ja.text
        assert '<meta http-equiv="refresh"' in ja.text.split("<noscript>")[1]
        assert "http://" not in ja.text and "https://" not in ja.text  # no CDN, no remote font
        script = ja.text.split('<script src="')[1].split('"')[0]
        style = ja.text.split('<link rel="stylesheet" href="')[1].split('"')[0]
        for file in (urljoin(path, script), urljoin(path, style)):
            assert file.startswith("/live/static/")
            got = await asgi_get(app, file)
            assert got.status == 200 and "immutable" in got.headers["cache-control"]
            again = await asgi_get(app, file, {"If-None-Match": got.headers["etag"]})
            assert again.status == 304 and not again.body
        assert (await asgi_get(app, "/live/static/other.js")).status == 404

    asyncio.run(run())


def test_the_stream_is_unbuffered_and_starts_with_what_the_phone_lacks(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """The event stream: ``text/event-stream``, not cached, not buffered by a proxy
    (``X-Accel-Buffering: no``); a retry delay, then the drawing, or "same" for a phone that
    says (``Last-Event-ID``) it holds the newest; an unknown table is a 404 in the phone's
    language."""
    ref = referee("rally")
    ref.write()
    app = app_of(Hub(lambda: tables, lambda: None))

    async def run() -> None:
        path = f"/live/{ref.public_id}/events?lang=en"
        first = await asgi_get(app, path, chunks=2)
        assert first.status == 200
        assert first.headers["content-type"].startswith("text/event-stream")
        assert first.headers["x-accel-buffering"] == "no"
        assert "no-store" in first.headers["cache-control"]
        assert first.chunks[0].startswith(b"retry: ")
        tag = events(first.chunks[1])[0]["id"]
        again = await asgi_get(app, path, {"Last-Event-ID": tag}, chunks=2)
        assert events(again.chunks[1]) == [{"event": "same", "data": ""}]
        missing = await asgi_get(app, "/live/NoSuchTable0000000000000?lang=ja")
        assert missing.status == 404 and "見つかりません" in missing.text
        odd = await asgi_get(app, "/live/..%2Fetc/events")
        assert odd.status == 404

    asyncio.run(run())


def test_links_to_tables_that_do_not_exist_are_limited_per_client(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """A flood of made-up links costs whoever sends it (the table service's budget of wrong
    keys, per client address): ten are answered "not found", then the client waits (429 with
    Retry-After, in its language) while another client is not held up; a table phones are
    watching still opens for the flooding client."""
    ref = referee("derby")
    ref.write()
    hub = Hub(lambda: tables, lambda: None, tick=0.02)
    app = app_of(hub)

    async def run() -> None:
        watching = hub.follow(ref.public_id, "en", None).__aiter__()
        await next_chunk(watching)
        for i in range(10):
            miss = await asgi_get(app, f"/live/Made{i:02d}upTable000000000000?lang=en")
            assert miss.status == 404
        paused = await asgi_get(app, "/live/Made99upTable000000000000?lang=ja")
        assert paused.status == 429 and "秒後" in paused.text
        assert int(paused.headers["retry-after"]) >= 1
        stream = await asgi_get(app, "/live/Made98upTable000000000000/events")
        assert stream.status == 429
        assert (await asgi_get(app, f"/live/{ref.public_id}?lang=en")).status == 200
        other = await asgi_get(app, "/live/Made97upTable000000000000", client="10.0.0.7")
        assert other.status == 404
        await watching.aclose()  # type: ignore[attr-defined]

    asyncio.run(run())


def unpacked(chunks: list[bytes]) -> bytes:
    """A compressed stream's bytes as the phone's browser reads them, chunk by chunk."""
    reader = zlib.decompressobj(16 + zlib.MAX_WBITS)
    return b"".join(reader.decompress(chunk) for chunk in chunks)


@pytest.mark.parametrize("kind", ["derby", "ekiden", "rally", "gn"])
def test_a_compressed_stream_is_the_same_events_in_a_few_kilobytes_a_step(
    tables: TableService, referee: Callable[[str], Referee], kind: str
) -> None:
    """Issue 27 §4 "≤ 4 KB per write per phone": a phone that accepts gzip is sent the same
    events, each deflated once for every phone (any event's bytes follow any other's); a
    step's message stays under 4 KB in every game over 40 random steps, the pictures (the
    track) fetched once by their own address, never inside a step."""
    ref = referee(kind)
    hub = Hub(lambda: tables, lambda: None, tick=0.02)
    app = app_of(hub)

    async def run() -> None:
        plain = hub.follow(ref.public_id, "en", None).__aiter__()
        packed = hub.follow(ref.public_id, "en", None, packed=True).__aiter__()
        chunks = [GZIP_HEADER, await next_chunk(packed)]
        assert unpacked(chunks) == await next_chunk(plain)
        for _ in range(40):
            await asyncio.to_thread(ref.write)
            step, raw = await next_chunk(packed), await next_chunk(plain)
            chunks.append(step)
            assert len(step) <= 4096, f"{kind}: a step's message is {len(step)} bytes"
            assert b"data:image" not in raw
        assert unpacked(chunks).endswith(raw)
        for stream in (plain, packed):
            await stream.aclose()  # type: ignore[attr-defined]
        answer = await asgi_get(
            app, f"/live/{ref.public_id}/events", {"Accept-Encoding": "gzip, br"}, chunks=2
        )
        assert answer.headers["content-encoding"] == "gzip"
        assert b"retry: " in unpacked(answer.chunks) and b"id: " in unpacked(answer.chunks)

    asyncio.run(run())


def test_the_tracks_picture_is_served_by_its_own_address_by_any_tracker(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """The Grand National's track is a picture of its own (``<table>/asset/<name>``), kept by
    the phone for good; a tracker that has not drawn the table yet (another process behind
    the proxy) draws it and serves the picture too; a name it never drew is a 404."""
    ref = referee("gn")
    ref.write()

    async def run() -> None:
        page = await asgi_get(app_of(Hub(lambda: tables, lambda: None)), f"/live/{ref.public_id}")
        names = re.findall(rf'src="{re.escape(ref.public_id)}/asset/([0-9a-f]+\.svg)"', page.text)
        assert names
        other = app_of(Hub(lambda: tables, lambda: None))  # a second process
        picture = await asgi_get(other, f"/live/{ref.public_id}/asset/{names[0]}")
        assert picture.status == 200 and picture.headers["content-type"] == "image/svg+xml"
        assert picture.body.startswith(b"<svg") and "immutable" in picture.headers["cache-control"]
        missing = await asgi_get(other, f"/live/{ref.public_id}/asset/0000000000000000.svg")
        assert missing.status == 404

    asyncio.run(run())


class AwayStore(SqliteStore):
    """A SQLite store that can be made unreachable, as a database server going down is."""

    away = False

    def last_seq(self, table_id: int) -> int:
        if self.away:
            raise StoreError("store/io", path="test.sqlite3", detail="disk gone")
        return super().last_seq(table_id)


def test_phones_are_told_when_the_tracker_cannot_read_the_table_and_when_it_can_again(
    db: Path, referee: Callable[[str], Referee]
) -> None:
    """Issue 27 §1 "it never shows an old position as current": while the tracker cannot
    reach its data the phones are told so (an "away" event in their language); once it can,
    they are sent what they lack."""
    ref = referee("rally")
    ref.write()
    store = AwayStore(db)
    tables = TableService(store, engines())
    hub = Hub(lambda: tables, lambda: None, tick=0.02)

    async def run() -> None:
        phone = hub.follow(ref.public_id, "ja", None).__aiter__()
        await next_chunk(phone)
        store.away = True
        told = events(await next_chunk(phone))
        assert told[0]["event"] == "away" and "データ" in json.loads(told[0]["data"])["msg"]
        await asyncio.to_thread(ref.write)  # written by another device meanwhile
        store.away = False
        back = events(await next_chunk(phone))
        assert json.loads(back[0]["data"])["seq"] == ref.seq
        await phone.aclose()  # type: ignore[attr-defined]

    asyncio.run(run())
