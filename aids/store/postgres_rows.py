"""Rows of the PostgreSQL database to and from the store's values, inside a caller's
transaction.

Shared by the store's tables part (``aids.store.postgres``) and its meets part
(``aids.store.postgres_meets``): a meet's import writes whole tables as ``insert_table`` does.
JSON columns are written as the text ``json.dumps`` makes (``%s::json``) and read back as
values by psycopg.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import psycopg
from psycopg import errors

from aids.core.errors import InvalidAction
from aids.store.base import EventRow, KeyRow, MeetRow, PaperEntry, PaperRow, TableRow

TABLE_COLUMNS = "t.id, t.public_id, t.kind, t.title, t.created_at, t.setup, t.rules_version"
MEET_COLUMNS = (
    "m.id, m.public_id, m.title, m.date, m.created_at, m.scoring, m.organiser_hash, m.replaced"
)
PAPER_COLUMNS = "p.id, p.public_id, p.kind, p.title, p.created_at, p.setup"
ENTRY_COLUMNS = "e.seq, e.step, e.result, e.photo, e.actor, e.created_at"


def insert_table(
    conn: psycopg.Connection[Any], row: TableRow, keys: list[KeyRow], events: list[EventRow]
) -> TableRow:
    """A table with its keys and log; ``InvalidAction("import/exists")`` if its public id is
    taken (the caller's transaction then rolls back: nothing of it stays)."""
    try:
        with conn.transaction():  # a savepoint inside a meet's import
            hit = conn.execute(
                "INSERT INTO tables (public_id, kind, title, created_at, setup, rules_version)"
                " VALUES (%s, %s, %s, %s, %s::json, %s) RETURNING id",
                (
                    row.public_id,
                    row.kind,
                    row.title,
                    row.created_at,
                    dump(row.setup),
                    row.rules_version,
                ),
            ).fetchone()
    except errors.UniqueViolation:  # the same public id, even from another process
        raise InvalidAction("import/exists", public_id=row.public_id) from None
    table_id = int(hit[0]) if hit else 0
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO keys (table_id, role, key_hash, created_at, revoked_at)"
            " VALUES (%s, %s, %s, %s, %s)",
            [(table_id, k.role, k.key_hash, k.created_at, k.revoked_at) for k in keys],
        )
        if events:  # one statement, so the trigger sends one notice for the whole log
            cur.execute(
                "INSERT INTO events (table_id, seq, kind, payload, created_at, actor)"
                " SELECT %s, e.seq, e.kind, e.payload::json, e.created_at, e.actor"
                " FROM unnest(%s::int[], %s::text[], %s::text[], %s::text[], %s::text[])"
                " AS e(seq, kind, payload, created_at, actor)",
                (
                    table_id,
                    [e.seq for e in events],
                    [e.kind for e in events],
                    [dump(e.payload) for e in events],
                    [e.created_at for e in events],
                    [e.actor for e in events],
                ),
            )
    return replace(row, id=table_id)


def dump(payload: dict[str, Any] | None) -> str | None:
    return None if payload is None else json.dumps(payload, ensure_ascii=False)


def table_of(row: Sequence[Any]) -> TableRow:
    return TableRow(int(row[0]), row[1], row[2], row[3], row[4], row[5], int(row[6]))


def meet_of(row: Sequence[Any]) -> MeetRow:
    return MeetRow(int(row[0]), row[1], row[2], row[3], row[4], row[5], row[6], tuple(row[7]))


def paper_of(row: Sequence[Any]) -> PaperRow:
    return PaperRow(int(row[0]), row[1], row[2], row[3], row[4], row[5])


def entry_of(row: Sequence[Any]) -> PaperEntry:
    return PaperEntry(int(row[0]), row[1], row[2], row[3], row[4], row[5])
