"""A table as a JSON document, and the field-by-field check of one before it is imported.

Version 2 carries the keys' hashes with their roles, each event's actor and the table's rules
version. Version 1 files (release 0.1: one referee key, no actors) are still read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.games.base import AnyGame, Role
from aids.store.base import EventRow, KeyRow, TableRow
from aids.tables.keys import KEY_HASH_RE, PUBLIC_ID_RE

EXPORT_FORMAT = "race-night-aids/table"
EXPORT_VERSION = 2
READABLE_VERSIONS = (1, 2)
MAX_TITLE = 80
T = TypeVar("T")


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
    """An ISO 8601 time with its time zone, as this program writes them (``now()``)."""
    text: str = _field(obj, key, str, where)
    try:
        moment = datetime.fromisoformat(text) if len(text) <= 40 else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None or not 2000 <= moment.year <= 2200:
        raise InvalidAction("import/field", field=f"{where}{key}")
    return text


def _only(obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
    """Refuse keys this format does not have: a file is exactly what was exported."""
    extra = sorted(set(obj) - allowed)
    if extra:
        raise InvalidAction("import/field", field=f"{where}{inputs.shown(extra[0])}")


def _role(obj: object, key: str, where: str) -> Role:
    try:
        return Role.parse(_field(obj, key, str, where))
    except InvalidAction:
        raise InvalidAction("import/field", field=f"{where}{key}") from None


DOCUMENT_FIELDS = {"format", "version", "table", "events"}
TABLE_FIELDS = {
    1: {"public_id", "kind", "title", "created_at", "setup", "referee_key_sha256"},
    2: {"public_id", "kind", "title", "created_at", "rules_version", "setup", "keys"},
}
KEY_FIELDS = {"role", "key_sha256", "created_at", "revoked_at"}
EVENT_FIELDS = {
    1: {"seq", "kind", "payload", "created_at"},
    2: {"seq", "kind", "actor", "payload", "created_at"},
}
MAX_EVENTS = 20_000  # a long night is a few hundred
MAX_KEYS = 200


def _keys(table: Mapping[str, Any], version: int, created: str) -> list[KeyRow]:
    if version == 1:
        key_hash = _field(table, "referee_key_sha256", str, "table.")
        if not KEY_HASH_RE.match(key_hash):
            raise InvalidAction("import/field", field="table.referee_key_sha256")
        return [KeyRow("referee", key_hash, created)]
    keys: list[KeyRow] = []
    listed = _field(table, "keys", list, "table.")
    if len(listed) > MAX_KEYS:
        raise InvalidAction("import/field", field="table.keys")
    for i, raw in enumerate(listed):
        where = f"table.keys[{i}]."
        if not isinstance(raw, dict):
            raise InvalidAction("import/field", field=f"table.keys[{i}]")
        _only(raw, KEY_FIELDS, where)
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


def _parsed(parse: Callable[[Any], T], raw: Any, where: str) -> T:
    """``parse(raw)`` by the game's own parser; a field it does not know is the file's fault,
    named from the top of the file (``events[3].payload.discard_cont``)."""
    try:
        return parse(raw)
    except InvalidAction as exc:
        if exc.code != "input/unknown_field":
            raise
        raise InvalidAction("import/field", field=f"{where}{exc.params['field']}") from None


def check_roles(keys: list[KeyRow], game: AnyGame, seats: int) -> None:
    """Only the live keys the game's roles allow: one referee key, seat keys only where the
    game has them (``GameInfo.seat_keys``) and only for its seats, one per seat. Anyone may
    import a file, so a file must not carry a hidden writer: a seat key on a game without
    them records that seat's actions, outlives the referee's rotation and shows in no list.
    A revoked key opens nothing and is kept as it was.

    Raises ``import/seat_key``, ``import/seat_key_range`` or ``import/key_twice`` naming the
    key's field.
    """
    live: set[str] = set()
    for i, key in enumerate(keys):
        if key.revoked_at is not None:
            continue
        where, role = f"table.keys[{i}].role", Role.parse(key.role)
        if role.kind == "seat" and not game.info.seat_keys:
            raise InvalidAction("import/seat_key", field=where, role=key.role)
        if role.kind == "seat" and not 0 <= (role.seat or 0) < seats:
            raise InvalidAction("import/seat_key_range", field=where, role=key.role,
                                seats=seats, last=seats - 1)  # fmt: skip
        if key.role in live:
            raise InvalidAction("import/key_twice", field=where, role=key.role)
        live.add(key.role)


def _actor(raw: Mapping[str, Any], where: str, game: AnyGame, seats: int) -> str:
    """Who recorded an event: the referee, or a seat of a game whose seats have keys (no
    other role ever holds a key that writes)."""
    role = _role(raw, "actor", where)
    seat_ok = role.kind == "seat" and game.info.seat_keys and 0 <= (role.seat or 0) < seats
    if not (role.is_referee or seat_ok):
        raise InvalidAction("import/actor", field=f"{where}actor", role=str(role))
    return str(role)


def _event(raw: object, i: int, version: int, game: AnyGame, seats: int) -> EventRow:
    where = f"events[{i}]."
    if not isinstance(raw, dict):
        raise InvalidAction("import/field", field=f"events[{i}]")
    _only(raw, EVENT_FIELDS[version], where)
    seq = _field(raw, "seq", int, where)
    if seq != i + 1:
        raise InvalidAction("import/field", field=f"{where}seq")
    kind = _field(raw, "kind", str, where)
    if kind not in ("action", "undo", "redo"):
        raise InvalidAction("import/field", field=f"{where}kind")
    actor = "referee" if version == 1 else _actor(raw, where, game, seats)
    payload = raw.get("payload")
    if kind == "action":
        if not isinstance(payload, dict):
            raise InvalidAction("import/field", field=f"{where}payload")
        normal = game.action_to_dict(_parsed(game.action_from_dict, payload, f"{where}payload."))
        if normal != payload:  # nothing the game does not write itself (no extra keys)
            raise InvalidAction("import/field", field=f"{where}payload")
    elif payload is not None:
        raise InvalidAction("import/field", field=f"{where}payload")
    return EventRow(seq, kind, payload, _timestamp(raw, "created_at", where), actor)


def parse_export(
    data: object, games: Mapping[str, AnyGame]
) -> tuple[TableRow, list[KeyRow], list[EventRow]]:
    """Check the shape of an export, field by field, naming the first thing wrong: exactly
    the exported shape, a setup and actions in the game's normal form, and only the keys and
    actors the game's roles allow (``check_roles``)."""
    if not isinstance(data, dict):
        raise InvalidAction("import/field", field="format")
    if _field(data, "format", str, "") != EXPORT_FORMAT:
        raise InvalidAction("import/field", field="format")
    version = _field(data, "version", int, "")
    if version not in READABLE_VERSIONS:
        raise InvalidAction("import/version", version=EXPORT_VERSION)
    _only(data, DOCUMENT_FIELDS, "")
    table = _field(data, "table", dict, "")
    _only(table, TABLE_FIELDS[version], "table.")
    public_id = _field(table, "public_id", str, "table.")
    if not PUBLIC_ID_RE.match(public_id):
        raise InvalidAction("import/field", field="table.public_id")
    kind = _field(table, "kind", str, "table.")
    game = games.get(kind)
    if game is None:
        raise InvalidAction("table/unknown_game", kind=inputs.shown(kind))
    title = inputs.text(_field(table, "title", str, "table."), "table.title", max_len=MAX_TITLE)
    created = _timestamp(table, "created_at", "table.")
    rules_version = 1 if version == 1 else _field(table, "rules_version", int, "table.")
    raw_setup = _field(table, "setup", dict, "table.")
    parsed = _parsed(game.setup_from_dict, raw_setup, "table.setup.")
    setup = game.setup_to_dict(parsed)
    if setup != raw_setup:
        raise InvalidAction("import/field", field="table.setup")
    seats = len(game.seat_names(parsed))
    keys = _keys(table, version, created)
    check_roles(keys, game, seats)
    listed = _field(data, "events", list, "")
    if len(listed) > MAX_EVENTS:
        raise InvalidAction("import/field", field="events")
    events = [_event(raw, i, version, game, seats) for i, raw in enumerate(listed)]
    row = TableRow(0, public_id, kind, title, created, setup, rules_version)
    return row, keys, events


def load_export(text: str | bytes) -> Any:
    """Parse an export file's text with the input boundary's limits (size, depth, numbers)."""
    return inputs.json_document(text)
