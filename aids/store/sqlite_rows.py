"""Rows of the SQLite file to and from the store's values, inside a caller's transaction.

Shared by the store's tables part (``aids.store.sqlite``) and its meets part
(``aids.store.sqlite_meets``): a meet's import writes whole tables as ``insert_table`` does.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from aids.core.errors import InvalidAction
from aids.store.base import EventRow, KeyRow, MeetRow, PaperEntry, PaperRow, TableRow

TABLE_COLUMNS = "id, public_id, kind, title, created_at, setup, rules_version"
MEET_COLUMNS = "id, public_id, title, date, created_at, scoring, organiser_hash, replaced"
PAPER_COLUMNS = "id, public_id, kind, title, created_at, setup"
ENTRY_COLUMNS = "seq, step, result, photo, actor, created_at"


def prefixed(columns: str, alias: str) -> str:
    """``columns`` of a table named ``alias`` in a join: "t.id, t.public_id, …"."""
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


def insert_table(
    conn: sqlite3.Connection, row: TableRow, keys: list[KeyRow], events: list[EventRow]
) -> TableRow:
    """A table with its keys and log; ``InvalidAction("import/exists")`` if its public id is
    taken (then the caller's transaction is rolled back: nothing of it stays)."""
    try:
        cur = conn.execute(
            "INSERT INTO tables (public_id, kind, title, created_at, setup, rules_version)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                row.public_id,
                row.kind,
                row.title,
                row.created_at,
                json.dumps(row.setup, ensure_ascii=False),
                row.rules_version,
            ),
        )
    except sqlite3.IntegrityError:  # the same public id, even from another process
        raise InvalidAction("import/exists", public_id=row.public_id) from None
    table_id = int(cur.lastrowid or 0)
    conn.executemany(
        "INSERT INTO keys (table_id, role, key_hash, created_at, revoked_at)"
        " VALUES (?, ?, ?, ?, ?)",
        [(table_id, k.role, k.key_hash, k.created_at, k.revoked_at) for k in keys],
    )
    conn.executemany(
        "INSERT INTO events (table_id, seq, kind, payload, created_at, actor)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(table_id, e.seq, e.kind, dump(e.payload), e.created_at, e.actor) for e in events],
    )
    return dataclasses.replace(row, id=table_id)


def dump(payload: dict[str, Any] | None) -> str | None:
    return None if payload is None else json.dumps(payload, ensure_ascii=False)


def load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def table_of(row: Sequence[Any]) -> TableRow:
    return TableRow(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), int(row[6]))


def meet_of(row: Sequence[Any]) -> MeetRow:
    return MeetRow(
        row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6],
        tuple(json.loads(row[7])),
    )  # fmt: skip


def paper_of(row: Sequence[Any]) -> PaperRow:
    return PaperRow(int(row[0]), row[1], row[2], row[3], row[4], json.loads(row[5]))


def entry_of(row: Sequence[Any]) -> PaperEntry:
    return PaperEntry(int(row[0]), row[1], result_of(row[2]), row[3], row[4], row[5])


UNREADABLE = "unreadable"  # the key of a stored result that is no JSON this program reads


def result_of(text: str | None) -> Any:
    """A paper table's stored result. One that cannot be read (the file edited by hand: no
    JSON, a number past Python's 4,300 digits) is kept as ``{"unreadable": <its start>}``:
    no game's result has that field, so its table needs a look and nothing else breaks."""
    try:
        return load(text)
    except ValueError:  # json.JSONDecodeError, and the int's digit limit
        return {UNREADABLE: str(text)[:40]}
