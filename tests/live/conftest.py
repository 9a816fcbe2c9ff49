"""The live view under test: a real SQLite file, the real hub and routes, spoken to as an ASGI
server is (no HTTP client library: ``asgi_get`` sends the ASGI messages a server would)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

from aids.bench.referee import Referee
from aids.live.hub import Hub
from aids.live.routes import live_routes
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    chunks: list[bytes] = field(default_factory=list)

    @property
    def body(self) -> bytes:
        return b"".join(self.chunks)

    @property
    def text(self) -> str:
        return self.body.decode()


async def asgi_get(
    app: Any,
    path: str,
    headers: dict[str, str] | None = None,
    *,
    chunks: int | None = None,
    timeout: float = 10.0,
    client: str = "10.0.0.9",
) -> Answer:
    """GET ``path`` from ``app``; a stream is read for ``chunks`` body chunks, then the
    client goes away (as a phone closing the page does)."""
    route, _, query = path.partition("?")
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": route, "raw_path": route.encode(),
        "query_string": query.encode(), "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
        "client": (client, 50000), "server": ("testserver", 80),
    }  # fmt: skip
    gone = asyncio.Event()
    answer = Answer(0, {})
    done = asyncio.Event()

    asked = []

    async def receive() -> dict[str, Any]:
        if not asked:
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer.status = message["status"]
            answer.headers = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            if message.get("body"):
                answer.chunks.append(message["body"])
            enough = chunks is not None and len(answer.chunks) >= chunks
            if not message.get("more_body") or enough:
                done.set()

    task = asyncio.create_task(app(scope, receive, send))
    try:
        await asyncio.wait_for(done.wait(), timeout)
    finally:
        gone.set()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    return answer


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "aids.sqlite3"


@pytest.fixture
def tables(db: Path) -> TableService:
    return TableService(SqliteStore(db), engines())


@pytest.fixture
def referee(db: Path) -> Callable[[str], Referee]:
    """A referee playing random legal actions on a new table of ``kind`` in the same file,
    through a service of its own (another device, as in the benchmarks)."""
    made: list[Referee] = []

    def make(kind: str, seed: int = 7) -> Referee:
        made.append(Referee(db, kind, seed))
        return made[-1]

    yield make  # type: ignore[misc]
    for ref in made:
        ref.close()


def app_of(hub: Hub) -> Starlette:
    return Starlette(routes=live_routes(hub))
