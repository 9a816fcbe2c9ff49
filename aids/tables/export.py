"""A table as a JSON document, and the field-by-field check of one before it is imported.

Version 2 carries the keys' hashes with their roles, each event's actor and the table's rules
version. Version 1 files (release 0.1: one referee key, no actors) are still read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from aids.core.errors import InvalidAction
from aids.games.base import AnyGame, Role
from aids.store.base import EventRow, KeyRow, TableRow
from aids.tables.keys import KEY_HASH_RE, PUBLIC_ID_RE

EXPORT_FORMAT = "race-night-aids/table"
EXPORT_VERSION = 2
READABLE_VERSIONS = (1, 2)
MAX_TITLE = 80


def export_document(row: TableRow, keys: list[KeyRow], events: list[EventRow]) -> dict[str, Any]:
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "table": {
            "public_id": row.public_id,
            "kind": row.kind,
            "title": row.title,
            "created_at": row.created_at,
            "rules_version": row.rules_version,
            "setup": row.setup,
            "keys": [
                {
                    "role": k.role,
                    "key_sha256": k.key_hash,
                    "created_at": k.created_at,
                    "revoked_at": k.revoked_at,
                }
                for k in keys
            ],
        },
        "events": [
            {
                "seq": e.seq,
                "kind": e.kind,
                "actor": e.actor,
                "payload": e.payload,
                "created_at": e.created_at,
            }
            for e in events
        ],
    }


def _field(obj: object, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, Mapping) or key not in obj:
        raise InvalidAction("import/field", field=f"{where}{key}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise InvalidAction("import/field", field=f"{where}{key}")
    return value


def _timestamp(obj: object, key: str, where: str) -> str:
    text: str = _field(obj, key, str, where)
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise InvalidAction("import/field", field=f"{where}{key}") from None
    return text


def _role(obj: object, key: str, where: str) -> Role:
    try:
        return Role.parse(_field(obj, key, str, where))
    except InvalidAction:
        raise InvalidAction("import/field", field=f"{where}{key}") from None


def _keys(table: Mapping[str, Any], version: int, created: str) -> list[KeyRow]:
    if version == 1:
        key_hash = _field(table, "referee_key_sha256", str, "table.")
        if not KEY_HASH_RE.match(key_hash):
            raise InvalidAction("import/field", field="table.referee_key_sha256")
        return [KeyRow("referee", key_hash, created)]
    keys: list[KeyRow] = []
    for i, raw in enumerate(_field(table, "keys", list, "table.")):
        where = f"table.keys[{i}]."
        role = _role(raw, "role", where)
        if role.kind not in ("referee", "seat"):
            raise InvalidAction("import/field", field=f"{where}role")
        key_hash = _field(raw, "key_sha256", str, where)
        if not KEY_HASH_RE.match(key_hash):
            raise InvalidAction("import/field", field=f"{where}key_sha256")
        revoked = raw.get("revoked_at")
        if revoked is not None:
            revoked = _timestamp(raw, "revoked_at", where)
        keys.append(KeyRow(str(role), key_hash, _timestamp(raw, "created_at", where), revoked))
    if len({k.key_hash for k in keys}) != len(keys):
        raise InvalidAction("import/field", field="table.keys")
    if not any(k.role == "referee" and k.revoked_at is None for k in keys):
        raise InvalidAction("import/field", field="table.keys")
    return keys


def parse_export(
    data: object, games: Mapping[str, AnyGame]
) -> tuple[TableRow, list[KeyRow], list[EventRow]]:
    """Check the shape of an export, field by field, naming the first thing wrong."""
    if _field(data, "format", str, "") != EXPORT_FORMAT:
        raise InvalidAction("import/field", field="format")
    version = _field(data, "version", int, "")
    if version not in READABLE_VERSIONS:
        raise InvalidAction("import/version", version=EXPORT_VERSION)
    table = _field(data, "table", dict, "")
    public_id = _field(table, "public_id", str, "table.")
    if not PUBLIC_ID_RE.match(public_id):
        raise InvalidAction("import/field", field="table.public_id")
    kind = _field(table, "kind", str, "table.")
    game = games.get(kind)
    if game is None:
        raise InvalidAction("table/unknown_game", kind=kind[:40])
    title = _field(table, "title", str, "table.").strip()
    if not title or len(title) > MAX_TITLE:
        raise InvalidAction("import/field", field="table.title")
    created = _timestamp(table, "created_at", "table.")
    rules_version = 1 if version == 1 else _field(table, "rules_version", int, "table.")
    keys = _keys(table, version, created)
    setup = game.setup_to_dict(game.setup_from_dict(_field(table, "setup", dict, "table.")))
    events: list[EventRow] = []
    for i, raw in enumerate(_field(data, "events", list, "")):
        where = f"events[{i}]."
        seq = _field(raw, "seq", int, where)
        if seq != i + 1:
            raise InvalidAction("import/field", field=f"{where}seq")
        kind_ = _field(raw, "kind", str, where)
        if kind_ not in ("action", "undo", "redo"):
            raise InvalidAction("import/field", field=f"{where}kind")
        actor = "referee" if version == 1 else str(_role(raw, "actor", where))
        payload = raw.get("payload")
        if kind_ == "action":
            if not isinstance(payload, dict):
                raise InvalidAction("import/field", field=f"{where}payload")
            payload = game.action_to_dict(game.action_from_dict(payload))  # normal form only
        elif payload is not None:
            raise InvalidAction("import/field", field=f"{where}payload")
        events.append(EventRow(seq, kind_, payload, _timestamp(raw, "created_at", where), actor))
    row = TableRow(0, public_id, kind, title, created, setup, rules_version)
    return row, keys, events


def load_export(text: str | bytes) -> Any:
    """Parse an export file's text; a file that is not JSON is refused with the parser's word."""
    try:
        return json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidAction("import/json", detail=str(exc)[:200]) from exc
