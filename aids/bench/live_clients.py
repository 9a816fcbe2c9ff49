"""The live benchmark's phones: many live-view clients in one process of their own, each a raw
HTTP/1.1 socket on ``GET /live/<table>/events`` reading the Server-Sent Events as a phone's
``EventSource`` does, noting the clock time (``time.time()``) each new log position first
arrives and the bytes on the wire (headers and chunk framing included) each event took.

Run by ``aids.bench.live`` as ``python -m aids.bench.live_clients``, driven by one JSON line per
command on its standard input, each answered by one JSON line on its standard output:

- ``{"cmd": "open", "clients": [{"port": P, "path": "/live/…/events?lang=en", "host": H,
  "source": A}, …], "at_once": 50, "timeout": 120}``: opens them (``source``: the loopback
  address to connect from, so a proxy sees several devices), answers when each has its first
  event (``opened``, ``errors``, ``load_p50_s``, ``load_max_s``);
- ``{"cmd": "wait", "seq": S, "timeout": T}``: until every open client holds ``S`` or later
  (``reached``, ``of``);
- ``{"cmd": "counters"}``: the bytes each client has received so far (``bytes``) and the
  connections still open (``open``);
- ``{"cmd": "records", "path": F}``: every client's notes written to ``F`` as JSON;
- ``{"cmd": "close"}``: every client closed; ``{"cmd": "exit"}``.

One asyncio loop, ``asyncio.Protocol`` clients (no stream objects, no library): the clients'
process stays light, so a thousand of them fit beside the server on a small machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import statistics
import sys
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

SEQ = re.compile(rb'^\{"seq":(\d+)')


@dataclass
class Notes:
    """What one client saw: ``seen`` (log position → clock time it first arrived, only ever
    increasing: a position overtaken before the hub drew it never arrives), ``events``
    (``[seq, bytes, time, id]`` per data event: the bytes since the previous event, so the
    pings' and the framing's count too), the other events by name, the bytes in all."""

    index: int
    port: int
    tracker: int = 0  # which tracker serves it (behind a proxy: found by the benchmark)
    seen: dict[int, float] = field(default_factory=dict)
    events: list[list[Any]] = field(default_factory=list)
    others: dict[str, int] = field(default_factory=dict)
    bytes: int = 0
    status: int = 0
    load_s: float = float("nan")
    errors: list[str] = field(default_factory=list)
    max: int = -1
    bodies: list[str] = field(default_factory=list)  # each data event's text, if kept


class SseClient(asyncio.Protocol):
    """One phone's event stream over a raw socket: HTTP/1.1, chunked or not, then SSE."""

    def __init__(
        self, notes: Notes, request: bytes, first: asyncio.Future[None], *, keep: bool = False
    ) -> None:
        self.notes, self.request, self.first, self.keep = notes, request, first, keep
        self.transport: asyncio.Transport | None = None
        self.head = b""
        self.body = b""  # chunked framing not yet decoded
        self.sse = b""  # decoded event text not yet split into events
        self.chunked: bool | None = None  # None: the headers are not in yet
        self.unzip: Any = None  # a gzip reader when the stream is compressed
        self.pending = 0  # bytes received since the last event
        self.closing = False
        self.started = time.monotonic()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.notes.bytes += len(data)
        self.pending += len(data)
        if self.chunked is None:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            head, data = self.head[:end].decode("latin-1"), self.head[end + 4 :]
            self.head = b""
            lines = head.split("\r\n")
            self.notes.status = int(lines[0].split()[1])
            headers = {
                k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])
            }
            self.chunked = "chunked" in headers.get("transfer-encoding", "").lower()
            if headers.get("content-encoding") == "gzip":  # as a browser, it accepted gzip
                self.unzip = zlib.decompressobj(16 + zlib.MAX_WBITS)
            if self.notes.status != 200:
                self._fail(f"HTTP {self.notes.status}")
                return
        if self.chunked:
            self.body += data
            self._unchunk()
        else:
            self.sse += self.unzip.decompress(data) if self.unzip else data
        self._events(now)

    def _unchunk(self) -> None:
        body, at = self.body, 0
        while True:
            line = body.find(b"\r\n", at)
            if line < 0:
                break
            size = int(body[at:line].split(b";")[0], 16)
            if size == 0:  # the server ended the stream
                self._fail("the server ended the stream")
                at = len(body)
                break
            if len(body) < line + 2 + size + 2:
                break
            piece = body[line + 2 : line + 2 + size]
            self.sse += self.unzip.decompress(piece) if self.unzip else piece
            at = line + 2 + size + 2
        self.body = body[at:]

    def _events(self, now: float) -> None:
        while (end := self.sse.find(b"\n\n")) >= 0:
            block, self.sse = self.sse[:end], self.sse[end + 2 :]
            name, data, ident = "message", b"", ""
            for line in block.split(b"\n"):
                if line.startswith(b"data:"):
                    data = line[5:].lstrip(b" ")
                elif line.startswith(b"event:"):
                    name = line[6:].strip().decode()
                elif line.startswith(b"id:"):
                    ident = line[3:].strip().decode()
            if name != "message":  # "same" (it holds the newest already) or "ping"
                self.notes.others[name] = self.notes.others.get(name, 0) + 1
                if name == "same":
                    self._arrived(now)
                continue
            if not data:  # the "retry:" block
                continue
            found = SEQ.match(data)
            if found is None:
                self.notes.errors.append(f"an event without its position: {data[:60]!r}")
                continue
            seq = int(found.group(1))
            if self.keep:
                self.notes.bodies.append(data.decode())
            self.notes.events.append([seq, self.pending, now, ident])
            self.pending = 0
            if seq > self.notes.max:
                self.notes.max = seq
                self.notes.seen[seq] = now
            self._arrived(now)

    def _arrived(self, now: float) -> None:
        if not self.first.done():
            self.notes.load_s = time.monotonic() - self.started
            self.first.set_result(None)

    def _fail(self, why: str) -> None:
        if not self.closing:
            self.notes.errors.append(why)
        if not self.first.done():
            self.first.set_exception(RuntimeError(why))
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closing:
            self._fail(f"connection lost: {exc!r}" if exc else "connection closed by the server")

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()


def request_for(host: str, port: int, path: str) -> bytes:
    """A phone's request for its event stream, as ``EventSource`` makes it."""
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
        "Accept: text/event-stream\r\nAccept-Encoding: gzip, deflate, br\r\n"
        "Cache-Control: no-store\r\n\r\n"
    ).encode()


async def watch(host: str, port: int, path: str, timeout: float = 60) -> SseClient:
    """One more phone, in the caller's loop, keeping every event's text (``Notes.bodies``):
    what the sections of each message weigh."""
    loop = asyncio.get_running_loop()
    first: asyncio.Future[None] = loop.create_future()
    notes = Notes(-1, port)
    _, client = await loop.create_connection(
        lambda: SseClient(notes, request_for(host, port, path), first, keep=True), host, port
    )
    await asyncio.wait_for(first, timeout)
    return client


class Clients:
    """Every client of this process, and the commands that drive them."""

    def __init__(self) -> None:
        self.notes: list[Notes] = []
        self.open: list[SseClient] = []

    async def start(
        self, spec: list[dict[str, Any]], at_once: int, timeout: float
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        gate = asyncio.Semaphore(at_once)
        errors: list[str] = []
        base = len(self.notes)

        async def one(i: int, target: dict[str, Any]) -> None:
            notes = Notes(base + i, int(target["port"]), int(target.get("tracker", 0)))
            self.notes.append(notes)
            host = target.get("host", "127.0.0.1")
            request = request_for(host, int(target["port"]), target["path"])
            async with gate:
                first: asyncio.Future[None] = loop.create_future()
                source = target.get("source")
                try:
                    _, client = await asyncio.wait_for(
                        loop.create_connection(
                            lambda: SseClient(notes, request, first),
                            host,
                            int(target["port"]),
                            local_addr=(source, 0) if source else None,
                        ),
                        timeout,
                    )
                    self.open.append(client)
                    await asyncio.wait_for(first, timeout)
                except Exception as exc:
                    errors.append(f"client {notes.index}: {exc!r}")
                    notes.errors.append(f"did not open: {exc!r}")

        await asyncio.gather(*(one(i, target) for i, target in enumerate(spec)))
        loads = [n.load_s for n in self.notes[base:] if n.load_s == n.load_s]
        return {
            "opened": len(loads),
            "errors": errors[:20],
            "failed": len(errors),
            "load_p50_s": statistics.median(loads) if loads else None,
            "load_max_s": max(loads) if loads else None,
        }

    async def wait(self, seq: int, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        live = [c.notes for c in self.open if not c.closing]
        while time.monotonic() < deadline and any(n.max < seq for n in live):
            await asyncio.sleep(0.1)
        return {"reached": sum(n.max >= seq for n in live), "of": len(live)}

    def counters(self) -> dict[str, Any]:
        return {
            "bytes": [n.bytes for n in self.notes],
            "open": sum(not c.closing and c.transport is not None and not c.transport.is_closing()
                        for c in self.open),
        }  # fmt: skip

    def close(self) -> dict[str, Any]:
        for client in self.open:
            client.close()
        closed = len(self.open)
        self.open = []
        return {"closed": closed}


async def serve(reader: asyncio.StreamReader, write: Any) -> None:
    clients = Clients()
    while line := await reader.readline():
        command = json.loads(line)
        cmd = command["cmd"]
        answer: dict[str, Any]
        if cmd == "open":
            answer = await clients.start(
                command["clients"],
                int(command.get("at_once", 50)),
                float(command.get("timeout", 120)),
            )
        elif cmd == "wait":
            answer = await clients.wait(int(command["seq"]), float(command.get("timeout", 10)))
        elif cmd == "counters":
            answer = clients.counters()
        elif cmd == "records":
            with open(command["path"], "w") as out:
                json.dump([n.__dict__ for n in clients.notes], out)
            answer = {"records": len(clients.notes)}
        elif cmd == "close":
            answer = clients.close()
            await asyncio.sleep(0.2)
        elif cmd == "exit":
            clients.close()
            write({"bye": True})
            return
        else:
            answer = {"error": f"unknown command {cmd}"}
        write(answer)


async def main() -> None:
    from aids.cli.serve import raise_open_files

    limit = raise_open_files()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def write(answer: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()

    write({"ready": True, "open_files": limit})
    await serve(reader, write)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
