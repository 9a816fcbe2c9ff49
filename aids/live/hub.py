"""The live view's hub: follows the tables phones are watching and hands every phone the newest
drawing of its table, made once per table, position, figures and language.

One asyncio task (``Hub.run``) looks every ``TICK`` seconds at the tables that have watchers:
their log position as this process knows it (``TableService.seq``: SQLite reads the file;
PostgreSQL answers from its LISTEN/NOTIFY notices, so a write on another tracker process shows
here too) and whether the newest chances are in. A write through this process's own service
wakes it at once (``TableService.on_write``). When something changed it draws the table once
per language being watched, in a worker thread (the event loop keeps serving), and wakes the
phones: each is sent the ready-made bytes, the sections that changed if it holds the previous
drawing, else the whole first screen. A phone that was away is sent the newest position, never
the steps in between. So the cost of a write is one drawing per language plus sending bytes,
however many phones watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable
from dataclasses import dataclass, field

from aids.core.errors import AidsError
from aids.core.i18n import Lang, t
from aids.live.render import Rendering, render
from aids.live.wall import WALL, render_wall, wall_version
from aids.meets import MeetService
from aids.tables import TableService
from aids.tables.attempts import KeyAttempts
from aids.tables.chances import ChanceService

log = logging.getLogger(__name__)

TICK = 0.05  # seconds between looks at the watched tables (a write here, or a PostgreSQL
# notice of one anywhere, wakes it at once)
PING = 15.0  # seconds of quiet before a ping keeps the stream (and any proxy) open
SAME = b"event: same\ndata: \n\n"  # the phone holds the newest drawing already
PING_EVENT = b"event: ping\ndata: \n\n"  # still here (the phone's script times its silence)
# A stream may be compressed (``Accept-Encoding: gzip``) and still be the same bytes for every
# phone: one gzip header, then each event deflated on its own (a fresh compressor, flushed to
# a byte boundary), so any event's bytes follow any other's. A step's message is 1–3 KB so.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
KEEP_ASSETS = 256  # pictures kept for the phones to fetch (a track per table: a few)


def deflated(data: bytes) -> bytes:
    """``data`` as a piece of a deflate stream that needs nothing before or after it."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)


SAME_Z, PING_Z = deflated(SAME), deflated(PING_EVENT)


@dataclass(frozen=True, slots=True)
class Published:
    """A drawing as sent: the whole first screen, and the changes from the one before."""

    rendering: Rendering
    full: bytes
    diff: bytes
    before: str  # the tag of the drawing ``diff`` starts from ("" for none)
    at: float  # when it was drawn (time.time())
    version: Hashable = None  # what it was drawn from (``Hub._version``)
    full_z: bytes = b""  # the same, deflated (``deflated``)
    diff_z: bytes = b""

    def bytes_for(self, held: str | None, *, packed: bool = False) -> bytes:
        """What a phone holding the drawing tagged ``held`` is sent ("" if it has this one),
        deflated for a compressed stream (``packed``)."""
        if held == self.rendering.tag:
            return b""
        if held and held == self.before:
            return self.diff_z if packed else self.diff
        return self.full_z if packed else self.full


@dataclass
class Watched:
    """A table (or an event's wall) being watched: its newest drawing per language and who
    waits for the next."""

    public_id: str  # a table's public id, or ``wall:`` and an event's
    watchers: dict[Lang, int] = field(default_factory=dict)
    published: dict[Lang, Published] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    version: Hashable = None
    error: str = ""  # why the newest look failed (the store away)


def _away(lang: Lang, packed: bool) -> bytes:
    """The event that tells a phone this process cannot read the table now."""
    data = json.dumps({"msg": t("table.store_away", lang)}, ensure_ascii=False)
    chunk = f"event: away\ndata: {data}\n\n".encode()
    return deflated(chunk) if packed else chunk


class Hub:
    """Every table's live drawings in this process. ``tables`` and ``chances`` give the
    services (called in worker threads; the Streamlit server's shared ones)."""

    def __init__(
        self,
        tables: Callable[[], TableService],
        chances: Callable[[], ChanceService | None],
        meets: Callable[[], MeetService] | None = None,
        *,
        tick: float = TICK,
    ) -> None:
        self._tables, self._chances, self.tick = tables, chances, tick
        self._meets = meets or (lambda: MeetService(tables()))
        self._watched: dict[str, Watched] = {}
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._hooked: set[int] = set()
        self._kinds: dict[str, str] = {}
        self._drawing: dict[tuple[str, Lang], asyncio.Future[Published]] = {}
        self._assets: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self.draws = 0  # drawings made (the benchmark reports the cost of one)
        self._lock = threading.Lock()

    # --- the phones' side ---------------------------------------------------------------

    async def follow(
        self, public_id: str, lang: Lang, held: str | None, *, packed: bool = False
    ) -> AsyncIterator[bytes]:
        """The stream of one phone: the newest drawing it lacks now, then each change, and a
        ping after ``PING`` quiet seconds; each event deflated for a compressed stream
        (``packed``: after ``GZIP_HEADER``, which the caller sends). While this process
        cannot read the table (the store away) the phone is told so ("away"), and told
        again once it can. Ends when the phone goes (cancelled)."""
        self._start()
        watched = self._watch(public_id, lang)
        same, ping = (SAME_Z, PING_Z) if packed else (SAME, PING_EVENT)
        away = False
        try:
            first = await self.newest(public_id, lang)
            chunk = first.bytes_for(held, packed=packed)
            held = first.rendering.tag
            yield chunk or same
            while True:
                # what changed while this phone's last event was being sent is sent now: only
                # with nothing new does it wait (else a change in between would be lost)
                if not self._news(watched, lang, held, away):
                    # woken by a change, or by the hub's ping round (one timer for every
                    # phone, not one each)
                    await watched.changed.wait()
                    if not self._news(watched, lang, held, away):
                        yield ping
                        continue
                if watched.error:
                    if not away:
                        away = True
                        yield _away(lang, packed)
                    continue
                published = watched.published.get(lang)
                if published is None:
                    continue
                chunk = published.bytes_for(held, packed=packed)
                held = published.rendering.tag
                if chunk or away:
                    away = False
                    yield chunk or same
        finally:
            self._unwatch(watched, lang)

    @staticmethod
    def _news(watched: Watched, lang: Lang, held: str | None, away: bool) -> bool:
        """Whether a phone holding ``held`` (told "away" or not) has something to be sent."""
        if bool(watched.error) != away:
            return True
        published = watched.published.get(lang)
        return published is not None and published.rendering.tag != held

    async def newest(self, public_id: str, lang: Lang) -> Published:
        """The newest drawing of the table in ``lang`` (drawn now if there is none yet).

        Raises:
            NotFound: no such table (``table/not_found``); StoreError: the store is away.
        """
        watched = self._watched.get(public_id)
        if watched is not None and lang in watched.published:
            return watched.published[lang]
        key = (public_id, lang)
        pending = self._drawing.get(key)
        if pending is None:  # phones arriving together share one drawing
            pending = asyncio.ensure_future(asyncio.to_thread(self._publish, public_id, lang))
            self._drawing[key] = pending
            pending.add_done_callback(lambda _: self._drawing.pop(key, None))
        published = await asyncio.shield(pending)
        watched = self._watched.get(public_id)
        if watched is not None and lang in watched.watchers and lang not in watched.published:
            self._keep(watched, lang, published)
        return published

    def _keep(self, watched: Watched, lang: Lang, published: Published) -> None:
        """``published`` becomes the drawing phones of ``lang`` are sent (loop thread)."""
        watched.published[lang] = published
        watched.version = published.version

    def _watch(self, public_id: str, lang: Lang) -> Watched:
        watched = self._watched.get(public_id)
        if watched is None:
            watched = self._watched[public_id] = Watched(public_id)
        watched.watchers[lang] = watched.watchers.get(lang, 0) + 1
        return watched

    def _unwatch(self, watched: Watched, lang: Lang) -> None:
        left = watched.watchers.get(lang, 1) - 1
        if left > 0:
            watched.watchers[lang] = left
            return
        watched.watchers.pop(lang, None)
        watched.published.pop(lang, None)
        if not watched.watchers:
            self._watched.pop(watched.public_id, None)

    def held(self, key: str, lang: Lang) -> Published | None:
        """The newest drawing of ``key`` in ``lang`` if this process holds one (phones are
        watching it), without asking the store."""
        watched = self._watched.get(key)
        if watched is None:
            return None
        return watched.published.get(lang) or next(iter(watched.published.values()), None)

    def attempts(self) -> KeyAttempts:
        """The budget of wrong links per client: the table service's (one per store)."""
        return self._tables().key_attempts

    @property
    def phones(self) -> int:
        """Phones connected now (every table, every language)."""
        return sum(sum(w.watchers.values()) for w in self._watched.values())

    # --- the loop -----------------------------------------------------------------------

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._loop = asyncio.get_running_loop()
            self._wake = asyncio.Event()
            self._task = self._loop.create_task(self.run(), name="aids-live-hub")

    def wake(self, public_id: str = "", seq: int = 0) -> None:
        """A write in this process (any thread): look at once, not at the next tick."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake.set)

    async def run(self) -> None:
        """Look at the watched tables every tick (or when woken) and publish what changed;
        every ``PING`` seconds wake every phone, which pings when it has nothing new."""
        pinged = time.monotonic()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.tick)
            self._wake.clear()
            if time.monotonic() - pinged >= PING:
                pinged = time.monotonic()
                for each in self._watched.values():
                    event, each.changed = each.changed, asyncio.Event()
                    event.set()
            if not self._watched:
                continue
            # a language not drawn yet is being drawn for its first phone (``newest``)
            wanted = {
                key: ([lang for lang in w.watchers if lang in w.published], w.version)
                for key, w in self._watched.items()
                if w.published
            }
            try:
                fresh = await asyncio.to_thread(self._look, wanted)
            except Exception:  # a bug must not end every phone's stream: said once a tick
                log.exception("the live view's look at the tables failed")
                continue
            for pid, drawn in fresh.items():
                watched = self._watched.get(pid)
                if watched is None:
                    continue
                if isinstance(drawn, str) or drawn is None:
                    error = drawn or ""
                    if error != watched.error:  # the store went away, or came back
                        watched.error = error
                        event, watched.changed = watched.changed, asyncio.Event()
                        event.set()
                    continue
                watched.error = ""
                for lang, published in drawn.items():
                    if lang in watched.watchers:
                        self._keep(watched, lang, published)
                event, watched.changed = watched.changed, asyncio.Event()
                event.set()

    # --- in a worker thread -------------------------------------------------------------

    def _look(
        self, wanted: dict[str, tuple[list[Lang], Hashable]]
    ) -> dict[str, dict[Lang, Published] | str | None]:
        """For each watched table whose position or figures moved on (each wall whose event
        did): its new drawings; None for one unchanged; the error's code for one this
        process could not read."""
        self._hook(self._tables())
        out: dict[str, dict[Lang, Published] | str | None] = {}
        for key, (langs, version) in wanted.items():
            try:
                if self._version(key) == version:
                    out[key] = None
                    continue
                out[key] = {lang: self._publish(key, lang) for lang in langs}
            except AidsError as exc:
                out[key] = exc.code
        return out

    def _version(self, key: str) -> Hashable:
        """What a drawing of ``key`` depends on, cheaply: a table's log position and whether
        its newest figures are in; a wall's tables' positions and its event's paper tables."""
        if key.startswith(WALL):
            return wall_version(self._meets(), key.removeprefix(WALL))
        seq = self._tables().seq(key)
        chances, kind = self._chances(), self._kinds.get(key)
        ready = bool(chances and kind and chances.supported(kind) and chances.ready(key, seq))
        return seq, ready

    def _publish(self, key: str, lang: Lang) -> Published:
        self._hook(self._tables())
        version = self._version(key)
        if key.startswith(WALL):
            rendering = render_wall(self._meets(), key.removeprefix(WALL), lang, version)
        else:
            rendering = self._draw_table(key, lang)
        with self._lock:
            self.draws += 1
        return self._published(key, lang, rendering, version)

    def _draw_table(self, public_id: str, lang: Lang) -> Rendering:
        tables = self._tables()
        snapshot = tables.snapshot(public_id)  # the viewer's: every read filtered
        game = tables.game(snapshot.info.kind)
        self._kinds[public_id] = snapshot.info.kind
        chances = self._chances()
        figures = None
        if chances is not None and chances.supported(snapshot.info.kind):
            figures = chances.latest(public_id)
        return render(snapshot, game, lang, figures)

    def _published(
        self, key: str, lang: Lang, rendering: Rendering, version: Hashable
    ) -> Published:
        watched = self._watched.get(key)
        before = watched.published.get(lang) if watched is not None else None
        previous = before.rendering if before is not None else None
        full, diff = rendering.message(None), rendering.message(previous)
        with self._lock:
            for name, body in rendering.assets.items():
                self._assets[(key, name)] = body
                self._assets.move_to_end((key, name))
            while len(self._assets) > KEEP_ASSETS:
                self._assets.popitem(last=False)
        return Published(
            rendering,
            full,
            diff,
            previous.tag if previous is not None else "",
            time.time(),
            version,
            deflated(full),
            deflated(diff),
        )

    def asset(self, key: str, name: str) -> bytes | None:
        """A picture of ``key``'s drawings (``render``'s assets), if this process holds it."""
        with self._lock:
            return self._assets.get((key, name))

    def _hook(self, tables: TableService) -> None:
        """Be woken by writes through ``tables`` and, on PostgreSQL, by the notices of
        writes anywhere (another tracker, the CLI, a second device)."""
        if id(tables) not in self._hooked:
            self._hooked.add(id(tables))
            tables.on_write(self.wake)
            on_notice = getattr(tables.store, "on_notice", None)
            if callable(on_notice):
                on_notice(self.wake)
