"""The table service: one live game = setup + append-only event log; state = fold of the log.

Every write names the sequence number it was made against (optimistic concurrency), carries
the referee key (checked here, not only hidden in the page) and is validated by the game engine
before anything is written. Undo and redo are events too, so the log keeps the audit trail.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aids.core.errors import AidsError, Forbidden, InvalidAction, RuleViolation, StaleState
from aids.games.base import GameRules
from aids.games.registry import rules_for
from aids.store.sqlite import EventRow, SqliteStore, TableRow

EXPORT_FORMAT = "race-night-aids/table"
EXPORT_VERSION = 1
PUBLIC_ID_RE = re.compile(r"^[A-Za-z0-9_-]{22,64}$")
KEY_HASH_RE = re.compile(r"^[0-9a-f]{64}$")


def new_public_id() -> str:
    """144 random bits, URL-safe, starting with a letter or digit.

    A leading ``-`` would make ``aids export <id>`` read the id as an option.
    """
    while True:
        public_id = secrets.token_urlsafe(18)
        if public_id[0].isalnum():
            return public_id


def new_key() -> str:
    """192 random bits, URL-safe; only its hash is stored."""
    return secrets.token_urlsafe(24)


def hash_key(key: str) -> str:
    # The key is long and random, so a plain digest resists guessing; no slow KDF needed.
    return hashlib.sha256(key.encode()).hexdigest()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the audit trail: an action (maybe undone), an undo or a redo."""

    seq: int
    kind: str
    action: Any | None
    undone: bool
    created_at: str
    target: int | None = None  # for undo/redo: the seq of the action it affected


@dataclass(slots=True)
class Fold:
    """The log folded into states: a stack of applied actions and a redo stack."""

    rules: GameRules
    seq: int
    states: list[Any]
    applied: list[int] = field(default_factory=list)  # seqs of the actions in force
    redo: list[tuple[int, Any]] = field(default_factory=list)  # (seq, state) undone, latest last
    entries: list[LogEntry] = field(default_factory=list)

    @property
    def state(self) -> Any:
        return self.states[-1]

    def step(self, event: EventRow) -> None:
        """Apply one stored event; raises if the log is not a legal history."""
        if event.seq != self.seq + 1:
            raise InvalidAction("import/seq", seq=event.seq)
        if event.kind == "action":
            action = self.rules.action_from_dict(event.payload)
            self.states.append(self.rules.apply(self.state, action))
            self.applied.append(event.seq)
            self.redo.clear()
            self.entries.append(LogEntry(event.seq, "action", action, False, event.created_at))
        elif event.kind == "undo":
            if not self.applied:
                raise RuleViolation("table/nothing_to_undo")
            target = self.applied.pop()
            self.redo.append((target, self.states.pop()))
            self.entries.append(LogEntry(event.seq, "undo", None, False, event.created_at, target))
        elif event.kind == "redo":
            if not self.redo:
                raise RuleViolation("table/nothing_to_redo")
            target, state = self.redo.pop()
            self.applied.append(target)
            self.states.append(state)
            self.entries.append(LogEntry(event.seq, "redo", None, False, event.created_at, target))
        else:
            raise InvalidAction("import/field", field="events.kind")
        self.seq = event.seq

    def copy(self) -> Fold:
        return Fold(
            self.rules,
            self.seq,
            list(self.states),
            list(self.applied),
            list(self.redo),
            list(self.entries),
        )


@dataclass(frozen=True, slots=True)
class TableInfo:
    public_id: str
    kind: str
    title: str
    created_at: str


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a page needs: the table, the sequence to write against, the state and the log."""

    info: TableInfo
    seq: int
    state: Any
    log: tuple[LogEntry, ...]
    can_undo: bool
    can_redo: bool


def _info(row: TableRow) -> TableInfo:
    return TableInfo(row.public_id, row.kind, row.title, row.created_at)


class TableService:
    """Create, read and write tables. Thread-safe; shareable across Streamlit sessions."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[TableRow, Fold]] = {}

    # --- create / read --------------------------------------------------------------------

    def create(self, kind: str, title: str, setup: dict[str, Any]) -> tuple[TableInfo, str]:
        """A new table; returns its info and the referee key (shown once, never stored)."""
        rules = rules_for(kind)
        title = title.strip()
        if not title or len(title) > 80:
            raise InvalidAction("table/title")
        parsed = rules.setup_from_dict(setup)
        rules.initial_state(parsed)  # a setup the engine cannot start is refused here
        key = new_key()
        row = TableRow(0, new_public_id(), kind, title, now(), parsed.to_dict(), hash_key(key))
        stored = self.store.insert_table(row)
        return _info(stored), key

    def list(self) -> list[tuple[TableInfo, int]]:
        return [(_info(row), seq) for row, seq in self.store.list_tables()]

    def snapshot(self, public_id: str) -> Snapshot:
        return _snapshot(*self._fold(public_id))

    def is_referee(self, public_id: str, key: str | None) -> bool:
        if not key:
            return False
        row = self.store.get_table(public_id)
        return hmac.compare_digest(row.referee_key_hash, hash_key(key))

    def replay(self, public_id: str) -> Any:
        """A fresh fold of the whole stored log, bypassing the cache (for checks and tests)."""
        row = self.store.get_table(public_id)
        return _fold_events(row, self.store.events(row.id)).state

    # --- write ----------------------------------------------------------------------------

    def record(self, public_id: str, key: str | None, expected_seq: int, action: Any) -> Snapshot:
        """Validate ``action`` (an action object or its dict) and append it."""
        return self._write(public_id, key, expected_seq, "action", action)

    def undo(self, public_id: str, key: str | None, expected_seq: int) -> Snapshot:
        return self._write(public_id, key, expected_seq, "undo", None)

    def redo(self, public_id: str, key: str | None, expected_seq: int) -> Snapshot:
        return self._write(public_id, key, expected_seq, "redo", None)

    def _write(
        self, public_id: str, key: str | None, expected_seq: int, kind: str, action: Any
    ) -> Snapshot:
        row, fold = self._fold(public_id)
        if not key or not hmac.compare_digest(row.referee_key_hash, hash_key(key)):
            raise Forbidden("table/forbidden")
        if fold.seq != expected_seq:
            raise StaleState("table/stale", expected=expected_seq, actual=fold.seq)
        payload = None
        if kind == "action":
            if isinstance(action, dict):
                action = fold.rules.action_from_dict(action)
            payload = action.to_dict()
        event = EventRow(expected_seq + 1, kind, payload, now())
        trial = fold.copy()
        trial.step(event)  # the engine validates before anything is written
        self.store.append(row.id, expected_seq, event)  # StaleState if the log moved on
        with self._lock:
            cached = self._cache.get(public_id)
            if cached is None or cached[1].seq <= expected_seq:
                self._cache[public_id] = (row, trial)
        return _snapshot(row, trial)

    def _fold(self, public_id: str) -> tuple[TableRow, Fold]:
        """The cached fold brought up to date with any events written since (by anyone)."""
        with self._lock:
            cached = self._cache.get(public_id)
        if cached is None:
            row = self.store.get_table(public_id)
            fold = _fold_events(row, [])
        else:
            row, fold = cached
        latest = self.store.last_seq(row.id)
        if latest != fold.seq:
            fold = fold.copy()
            for event in self.store.events(row.id, after=fold.seq):
                fold.step(event)
        with self._lock:
            current = self._cache.get(public_id)
            if current is None or current[1].seq <= fold.seq:
                self._cache[public_id] = (row, fold)
        return row, fold

    # --- export / import ------------------------------------------------------------------

    def export(self, public_id: str) -> dict[str, Any]:
        row = self.store.get_table(public_id)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "table": {
                "public_id": row.public_id,
                "kind": row.kind,
                "title": row.title,
                "created_at": row.created_at,
                "setup": row.setup,
                "referee_key_sha256": row.referee_key_hash,
            },
            "events": [
                {"seq": e.seq, "kind": e.kind, "payload": e.payload, "created_at": e.created_at}
                for e in self.store.events(row.id)
            ],
        }

    def import_(self, data: object) -> TableInfo:
        """Validate an exported table completely (replaying its log), then add it.

        An import never overwrites: a table with the same public id is refused.
        """
        row, events = parse_export(data)
        if self.store.exists(row.public_id):
            raise InvalidAction("import/exists", public_id=row.public_id)
        _fold_events(row, events)
        return _info(self.store.insert_table(row, events))


def _snapshot(row: TableRow, fold: Fold) -> Snapshot:
    return Snapshot(
        _info(row),
        fold.seq,
        fold.state,
        tuple(_mark_undone(fold)),
        bool(fold.applied),
        bool(fold.redo),
    )


def _mark_undone(fold: Fold) -> list[LogEntry]:
    live = set(fold.applied)
    return [
        LogEntry(e.seq, e.kind, e.action, e.seq not in live, e.created_at, e.target)
        if e.kind == "action"
        else e
        for e in fold.entries
    ]


def _fold_events(row: TableRow, events: list[EventRow]) -> Fold:
    rules = rules_for(row.kind)
    fold = Fold(rules, 0, [rules.initial_state(rules.setup_from_dict(row.setup))])
    for event in events:
        try:
            fold.step(event)
        except AidsError as exc:
            raise InvalidAction("import/replay", seq=event.seq, detail=exc.code) from exc
    return fold


def _field(obj: object, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise InvalidAction("import/field", field=f"{where}{key}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise InvalidAction("import/field", field=f"{where}{key}")
    return value


def parse_export(data: object) -> tuple[TableRow, list[EventRow]]:
    """Check the shape of an export, field by field, naming the first thing wrong."""
    if _field(data, "format", str, "") != EXPORT_FORMAT:
        raise InvalidAction("import/field", field="format")
    if _field(data, "version", int, "") != EXPORT_VERSION:
        raise InvalidAction("import/version", version=EXPORT_VERSION)
    table = _field(data, "table", dict, "")
    public_id = _field(table, "public_id", str, "table.")
    if not PUBLIC_ID_RE.match(public_id):
        raise InvalidAction("import/field", field="table.public_id")
    key_hash = _field(table, "referee_key_sha256", str, "table.")
    if not KEY_HASH_RE.match(key_hash):
        raise InvalidAction("import/field", field="table.referee_key_sha256")
    kind = _field(table, "kind", str, "table.")
    rules = rules_for(kind)
    title = _field(table, "title", str, "table.").strip()
    if not title or len(title) > 80:
        raise InvalidAction("import/field", field="table.title")
    created = _field(table, "created_at", str, "table.")
    try:
        datetime.fromisoformat(created)
    except ValueError:
        raise InvalidAction("import/field", field="table.created_at") from None
    setup = rules.setup_from_dict(_field(table, "setup", dict, "table.")).to_dict()
    events: list[EventRow] = []
    for i, raw in enumerate(_field(data, "events", list, "")):
        where = f"events[{i}]."
        seq = _field(raw, "seq", int, where)
        if seq != i + 1:
            raise InvalidAction("import/field", field=f"{where}seq")
        kind_ = _field(raw, "kind", str, where)
        if kind_ not in ("action", "undo", "redo"):
            raise InvalidAction("import/field", field=f"{where}kind")
        payload = raw.get("payload")
        if (kind_ == "action") != isinstance(payload, dict):
            raise InvalidAction("import/field", field=f"{where}payload")
        events.append(EventRow(seq, kind_, payload, _field(raw, "created_at", str, where)))
    return TableRow(0, public_id, kind, title, created, setup, key_hash), events


def load_export(text: str | bytes) -> Any:
    """Parse an export file's text; a file that is not JSON is refused with the parser's word."""
    try:
        return json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidAction("import/json", detail=str(exc)[:200]) from exc


def open_default() -> TableService:
    """The service on the embedded default store (``AIDS_DB`` or ``data/aids.sqlite3``)."""
    from aids.paths import database_path

    return TableService(SqliteStore(database_path()))
