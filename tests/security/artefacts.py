"""What a role can get from a table, collected the way the pages and buttons make it.

Each collector returns plain data (text, bytes, tuples) so a test compares the two tables of
a pair with ``==`` and searches the text for a secret's literal values.
"""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Iterator
from typing import Any

from google.protobuf.json_format import MessageToDict
from pypdf import PdfReader
from streamlit.testing.v1 import AppTest

from aids import registry
from aids.core.errors import AidsError
from aids.games.base import VIEWER
from aids.tables import Snapshot, TableService

LANGS = ("en", "ja")


# --- snapshots ----------------------------------------------------------------------------------


def snapshot_parts(snapshot: Snapshot) -> dict[str, Any]:
    """Everything a snapshot holds, each part as the object and as its repr."""
    parts = {
        "info": snapshot.info,
        "role": snapshot.role,
        "seats": snapshot.seats,
        "seq": snapshot.seq,
        "state": snapshot.state,
        "can_undo": snapshot.can_undo,
        "can_redo": snapshot.can_redo,
        "to_move": sorted(map(str, snapshot.to_move)),
        "outcome": snapshot.outcome,
        "log": snapshot.log,
        "history": snapshot.history,
    }
    return {**parts, **{f"{k}.repr": repr(v) for k, v in parts.items()}}


def log_lines(service: TableService, snapshot: Snapshot, lang: str) -> list[str]:
    """Each log line as the page and the report word it (a sealed entry has no action)."""
    game = service.game(snapshot.info.kind)
    return [
        game.describe(snapshot.state, e.action, lang) if e.action is not None else "(sealed)"
        for e in snapshot.log
    ]


# --- errors -----------------------------------------------------------------------------------


def answer(call: Any) -> tuple[Any, ...]:
    """What a caller learns from ``call()``: ``("ok", result)`` or the error's class, code,
    parameters and its Japanese and English messages."""
    try:
        result = call()
    except AidsError as exc:
        return (type(exc).__name__, exc.code, exc.message("en"), exc.message("ja"))
    return ("ok", result)


def answer_text(answers: Any) -> str:
    return json.dumps(answers, ensure_ascii=False, default=repr)


# --- PDFs ---------------------------------------------------------------------------------------


def pdf_text(data: bytes) -> str:
    """Every page's text and the document's metadata, as pypdf reads them."""
    reader = PdfReader(io.BytesIO(data))
    meta: dict[str, Any] = dict(reader.metadata or {})
    pages = "\n".join(page.extract_text() or "" for page in reader.pages)
    return pages + "\n" + "\n".join(f"{k}={v}" for k, v in meta.items())


def sheet_module(kind: str) -> Any:
    return registry.sheet_module(kind)


def viewer_snapshot(service: TableService, public_id: str) -> Snapshot:
    """What every download button prints from (``aids.ui.sharing``)."""
    return service.snapshot(public_id, VIEWER)


# --- pages --------------------------------------------------------------------------------------

# Element ids derive from keys and parameters and media (the QR images) are named by a hash
# of their bytes: the same from run to run. Only a deferred download's placeholder id is new
# on every run; its file is compared by running the button's own callable (``Downloads``).
_DEFERRED = re.compile(r"(?<=\"deferredFileId\": \")[0-9a-f]{32}")


def elements(node: Any) -> Iterator[Any]:
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for child in children.values():
            yield child
            yield from elements(child)


def page_dump(at: AppTest) -> list[tuple[str, str]]:
    """Every element the page drew, in order: its type and its whole message (text, labels,
    options, values, HTML, chart specs, media names), placeholder ids normalised."""
    out = []
    for element in elements(at._tree):
        proto = getattr(element, "proto", None)
        body = json.dumps(MessageToDict(proto), sort_keys=True, ensure_ascii=False) if proto else ""
        out.append((type(element).__name__, _DEFERRED.sub("deferred", body)))
    return out


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def page_text(dump: list[tuple[str, str]]) -> str:
    """Every string of every element, one per line, and again with Markdown's escapes
    removed (``\\$7\\,370`` reads ``$7,370``): what a reader of the page can read."""
    text = "\n".join(s for _, body in dump if body for s in _strings(json.loads(body)))
    return text + "\n" + text.replace("\\", "")


def wait_for_chances(service_ready: Any, timeout: float = 60.0) -> bool:
    """Wait until ``service_ready()`` (the page's chances for its position) is true."""
    deadline = time.monotonic() + timeout
    while not service_ready():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


class Downloads:
    """Every deferred download button a page run offers, with its own callable: the file a
    click would make is made by calling it, exactly as Streamlit would on the click."""

    def __init__(self, monkeypatch: Any) -> None:
        from streamlit.runtime.media_file_manager import MediaFileManager

        self.made: dict[str, Any] = {}
        original = MediaFileManager.add_deferred

        def add_deferred(manager: Any, data_callable: Any, mimetype: Any, coordinates: str,
                         file_name: str | None = None, **kw: Any) -> str:  # fmt: skip
            self.made[file_name or coordinates] = data_callable
            return original(manager, data_callable, mimetype, coordinates, file_name, **kw)

        monkeypatch.setattr(MediaFileManager, "add_deferred", add_deferred)

    def take(self) -> dict[str, Any]:
        """The files of the buttons offered since the last take: bytes, or the error raised."""
        out: dict[str, Any] = {}
        for name, make in sorted(self.made.items()):
            try:
                data = make()
            except AidsError as exc:
                data = answer(lambda exc=exc: (_ for _ in ()).throw(exc))
            out[name] = data.encode() if isinstance(data, str) else data
        self.made.clear()
        return out


def visit(**params: str) -> AppTest:
    """A new tab on the URL ``params`` (as a phone opens a link), every section it draws
    only while open opened: what a reader can reach."""
    from tests.ui.conftest import new_app, open_sections

    at = new_app(**params)
    assert not at.exception, at.exception
    at = open_sections(at)
    assert not at.exception, at.exception
    return at
