"""The meets part of the SQLite store: events of many tables, and their tables played on paper
with their result logs (see ``aids.store.base.Store``).

``SqliteMeets`` is a mixin of ``aids.store.sqlite.SqliteStore``, which gives it its
connections: ``_write`` (one ``BEGIN IMMEDIATE`` transaction, so every check below is made
inside the write it guards, with no other writer in between) and ``_connect`` (a read).
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from aids.core.errors import Forbidden, InvalidAction, NotFound, StaleState
from aids.store.base import (
    MeetRow,
    PaperBundle,
    PaperEntry,
    PaperRow,
    PaperWrite,
    TableBundle,
    TableRow,
    replaced_after,
)
from aids.store.checks import check_numbered, check_writes
from aids.store.sqlite_rows import (
    ENTRY_COLUMNS,
    MEET_COLUMNS,
    PAPER_COLUMNS,
    TABLE_COLUMNS,
    dump,
    entry_of,
    insert_table,
    meet_of,
    paper_of,
    prefixed,
    table_of,
)


class SqliteMeets:
    """Meets and their paper tables, on the store's connections."""

    if TYPE_CHECKING:

        def _write(self) -> AbstractContextManager[sqlite3.Connection]: ...

        def _connect(self) -> AbstractContextManager[sqlite3.Connection]: ...

    # --- meets ----------------------------------------------------------------------------

    def insert_meet(
        self, row: MeetRow, tables: Sequence[TableBundle] = (), papers: Sequence[PaperBundle] = ()
    ) -> MeetRow:
        for _paper, entries in papers:
            check_numbered(entries, 0)
        with self._write() as conn:
            table_ids = [insert_table(conn, *bundle).id for bundle in tables]
            try:
                cur = conn.execute(
                    "INSERT INTO meets (public_id, title, date, created_at, scoring,"
                    " organiser_hash) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        row.public_id,
                        row.title,
                        row.date,
                        row.created_at,
                        json.dumps(row.scoring, ensure_ascii=False),
                        row.organiser_hash,
                    ),
                )
            except sqlite3.IntegrityError:
                raise InvalidAction("import/exists", public_id=row.public_id) from None
            meet_id = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT INTO meet_tables (table_id, meet_id, position) VALUES (?, ?, ?)",
                [(table_id, meet_id, n) for n, table_id in enumerate(table_ids, 1)],
            )
            for paper, entries in papers:
                stored = _insert_paper(conn, meet_id, paper)
                _insert_entries(conn, stored.id, entries)
        return dataclasses.replace(row, id=meet_id)

    def get_meet(self, public_id: str) -> MeetRow:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets WHERE public_id = ?", (public_id,)
            ).fetchone()
        if row is None:
            raise NotFound("meet/not_found")
        return meet_of(row)

    def list_meets(self) -> list[MeetRow]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets ORDER BY date DESC, created_at DESC, id DESC"
            ).fetchall()
        return [meet_of(r) for r in rows]

    def update_meet(
        self,
        meet_id: int,
        *,
        by: str | None,
        title: str | None = None,
        date: str | None = None,
        scoring: dict[str, Any] | None = None,
        organiser_hash: str | None = None,
    ) -> None:
        changes = {
            "title": title,
            "date": date,
            "scoring": None if scoring is None else json.dumps(scoring, ensure_ascii=False),
            "organiser_hash": organiser_hash,
        }
        given = {k: v for k, v in changes.items() if v is not None}
        with self._write() as conn:
            check_organiser(conn, meet_id, by)
            if organiser_hash is not None:  # the key it replaces is remembered, in this write
                old, replaced = conn.execute(
                    "SELECT organiser_hash, replaced FROM meets WHERE id = ?", (meet_id,)
                ).fetchone()
                given["replaced"] = json.dumps(replaced_after(old, json.loads(replaced)))
            if given:
                columns = ", ".join(f"{k} = ?" for k in given)
                conn.execute(f"UPDATE meets SET {columns} WHERE id = ?", (*given.values(), meet_id))

    def meet_tables(self, meet_id: int) -> list[tuple[TableRow, int]]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {prefixed(TABLE_COLUMNS, 't')}, (SELECT COALESCE(MAX(seq), 0)"
                "  FROM events e WHERE e.table_id = t.id)"
                " FROM meet_tables m JOIN tables t ON t.id = m.table_id"
                " WHERE m.meet_id = ? ORDER BY m.position",
                (meet_id,),
            ).fetchall()
        return [(table_of(r[:7]), int(r[7])) for r in rows]

    def add_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> None:
        with self._write() as conn:
            check_organiser(conn, meet_id, by)
            if conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                raise NotFound("table/not_found")
            join_meet(conn, meet_id, table_id)

    def remove_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> bool:
        with self._write() as conn:
            check_organiser(conn, meet_id, by)
            cur = conn.execute(
                "DELETE FROM meet_tables WHERE meet_id = ? AND table_id = ?", (meet_id, table_id)
            )
            return cur.rowcount == 1

    def meet_of(self, table_id: int) -> MeetRow | None:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {prefixed(MEET_COLUMNS, 'm')} FROM meets m"
                " JOIN meet_tables mt ON mt.meet_id = m.id WHERE mt.table_id = ?",
                (table_id,),
            ).fetchone()
        return None if row is None else meet_of(row)

    # --- paper tables of a meet -------------------------------------------------------------

    def insert_paper(self, meet_id: int, row: PaperRow, *, by: str | None) -> PaperRow:
        with self._write() as conn:
            check_organiser(conn, meet_id, by)
            return _insert_paper(conn, meet_id, row)

    def meet_papers(self, meet_id: int) -> list[PaperBundle]:
        with self._connect() as conn:
            # one statement, so one snapshot: no entry of a paper table read apart from it
            rows = conn.execute(
                f"SELECT {prefixed(PAPER_COLUMNS, 'p')}, {prefixed(ENTRY_COLUMNS, 'e')}"
                " FROM papers p LEFT JOIN paper_entries e ON e.paper_id = p.id"
                " WHERE p.meet_id = ? ORDER BY p.id, e.seq",
                (meet_id,),
            ).fetchall()
        bundles: list[PaperBundle] = []
        for r in rows:
            if not bundles or bundles[-1][0].id != r[0]:
                bundles.append((paper_of(r[:6]), []))
            if r[6] is not None:
                bundles[-1][1].append(entry_of(r[6:]))
        return bundles

    def append_paper(
        self,
        meet_id: int,
        paper_id: int,
        expected_seq: int,
        entries: Sequence[PaperEntry],
        *,
        by: str | None,
    ) -> None:
        self.append_papers(meet_id, [PaperWrite(paper_id, expected_seq, entries)], by=by)

    def append_papers(self, meet_id: int, writes: Sequence[PaperWrite], *, by: str | None) -> None:
        check_writes(writes)
        with self._write() as conn:
            organiser = _organiser(conn, meet_id)
            for paper_id, expected_seq, entries in writes:
                in_meet = conn.execute(
                    "SELECT 1 FROM papers WHERE id = ? AND meet_id = ?", (paper_id, meet_id)
                ).fetchone()
                if in_meet is None:
                    raise NotFound("meet/paper_not_found")
                _check_by(organiser, by)
                actual = int(
                    conn.execute(
                        "SELECT COALESCE(MAX(seq), 0) FROM paper_entries WHERE paper_id = ?",
                        (paper_id,),
                    ).fetchone()[0]
                )
                if actual != expected_seq:
                    raise StaleState("paper/stale", expected=expected_seq, actual=actual)
                try:
                    _insert_entries(conn, paper_id, entries)
                except sqlite3.IntegrityError as exc:
                    # The write lock keeps other writers out of the check; the primary key
                    # would refuse a second writer of the same seq all the same. Any other
                    # refusal (an unknown step) is the store's fault, raised as it is.
                    if getattr(exc, "sqlite_errorname", "") != "SQLITE_CONSTRAINT_PRIMARYKEY":
                        raise
                    raise StaleState("paper/stale", expected=expected_seq,
                                     actual=actual) from None  # fmt: skip

    def remove_paper(self, meet_id: int, paper_id: int, *, by: str | None) -> bool:
        with self._write() as conn:
            check_organiser(conn, meet_id, by)
            conn.execute(
                "DELETE FROM paper_entries WHERE paper_id ="
                " (SELECT id FROM papers WHERE id = ? AND meet_id = ?)",
                (paper_id, meet_id),
            )
            cur = conn.execute(
                "DELETE FROM papers WHERE id = ? AND meet_id = ?", (paper_id, meet_id)
            )
            return cur.rowcount == 1


def _insert_paper(conn: sqlite3.Connection, meet_id: int, row: PaperRow) -> PaperRow:
    """Inside the write: the paper table in the meet (its public id unique among them)."""
    try:
        cur = conn.execute(
            "INSERT INTO papers (public_id, meet_id, kind, title, created_at, setup)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (row.public_id, meet_id, row.kind, row.title, row.created_at, dump(row.setup)),
        )
    except sqlite3.IntegrityError:
        raise InvalidAction("import/exists", public_id=row.public_id) from None
    return dataclasses.replace(row, id=int(cur.lastrowid or 0))


def _insert_entries(conn: sqlite3.Connection, paper_id: int, entries: Sequence[PaperEntry]) -> None:
    conn.executemany(
        f"INSERT INTO paper_entries (paper_id, {ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(paper_id, e.seq, e.step, dump(e.result), e.photo, e.by, e.created_at) for e in entries],
    )


def join_meet(conn: sqlite3.Connection, meet_id: int, table_id: int) -> None:
    """Inside the write: the table takes the meet's next place (one meet per table)."""
    try:
        conn.execute(
            "INSERT INTO meet_tables (table_id, meet_id, position) SELECT ?, ?,"
            " COALESCE(MAX(position), 0) + 1 FROM meet_tables WHERE meet_id = ?",
            (table_id, meet_id, meet_id),
        )
    except sqlite3.IntegrityError:
        raise InvalidAction("meet/table_taken") from None


def check_organiser(conn: sqlite3.Connection, meet_id: int, by: str | None) -> None:
    """Inside the write: the meet exists and, given ``by``, it is the organiser's key hash."""
    _check_by(_organiser(conn, meet_id), by)


def _organiser(conn: sqlite3.Connection, meet_id: int) -> str:
    """Inside the write: the meet's organiser key hash (``NotFound`` if there is no meet)."""
    row = conn.execute("SELECT organiser_hash FROM meets WHERE id = ?", (meet_id,)).fetchone()
    if row is None:
        raise NotFound("meet/not_found")
    return str(row[0])


def _check_by(organiser: str, by: str | None) -> None:
    if by is not None and not hmac.compare_digest(organiser, by):
        raise Forbidden("meet/forbidden")
