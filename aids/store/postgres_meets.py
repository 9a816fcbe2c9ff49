"""The meets part of the PostgreSQL store: events of many tables, and their tables played on
paper with their result logs (see ``aids.store.base.Store``).

``PostgresMeets`` is a mixin of ``aids.store.postgres.PostgresStore``, which gives it its
connections: ``_write`` (one transaction) and ``_connect`` (a read). Every write of a meet
first locks the meet's row (``check_organiser``), so writes of one meet, its paper tables'
result logs included, take turns: each check is made inside the write it guards, and two
writers of one paper table's log cannot both pass its ``expected_seq`` (the primary key
``(paper_id, seq)`` would refuse the second in any case).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import errors, sql

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
from aids.store.postgres_rows import (
    ENTRY_COLUMNS,
    MEET_COLUMNS,
    PAPER_COLUMNS,
    TABLE_COLUMNS,
    dump,
    entry_of,
    insert_table,
    meet_of,
    paper_of,
    table_of,
)


class PostgresMeets:
    """Meets and their paper tables, on the store's connections."""

    if TYPE_CHECKING:

        def _write(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def _connect(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    # --- meets ----------------------------------------------------------------------------

    def insert_meet(
        self, row: MeetRow, tables: Sequence[TableBundle] = (), papers: Sequence[PaperBundle] = ()
    ) -> MeetRow:
        for _paper, entries in papers:
            check_numbered(entries, 0)
        with self._write() as conn:
            stored = [insert_table(conn, *bundle) for bundle in tables]
            try:
                with conn.transaction():  # a savepoint: the clash is ours to name
                    hit = conn.execute(
                        "INSERT INTO meets (public_id, title, date, created_at, scoring,"
                        " organiser_hash) VALUES (%s, %s, %s, %s, %s::json, %s) RETURNING id",
                        (
                            row.public_id,
                            row.title,
                            row.date,
                            row.created_at,
                            dump(row.scoring),
                            row.organiser_hash,
                        ),
                    ).fetchone()
            except errors.UniqueViolation:
                raise InvalidAction("import/exists", public_id=row.public_id) from None
            meet_id = int(hit[0]) if hit else 0
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO meet_tables (table_id, meet_id, position) VALUES (%s, %s, %s)",
                    [(t.id, meet_id, n) for n, t in enumerate(stored, 1)],
                )
            for paper, entries in papers:
                _insert_entries(conn, _insert_paper(conn, meet_id, paper).id, entries)
        return replace(row, id=meet_id)

    def get_meet(self, public_id: str) -> MeetRow:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets m WHERE m.public_id = %s", (public_id,)
            ).fetchone()
        if row is None:
            raise NotFound("meet/not_found")
        return meet_of(row)

    def list_meets(self) -> list[MeetRow]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets m"
                " ORDER BY m.date DESC, m.created_at DESC, m.id DESC"
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
            "scoring": None if scoring is None else dump(scoring),
            "organiser_hash": organiser_hash,
        }
        given = {k: v for k, v in changes.items() if v is not None}
        with self._write() as conn:
            check_organiser(conn, meet_id, by)
            if organiser_hash is not None:  # the key it replaces is remembered, in this write
                found = conn.execute(
                    "SELECT organiser_hash, replaced FROM meets WHERE id = %s FOR UPDATE",
                    (meet_id,),
                ).fetchone()
                assert found is not None  # check_organiser found the meet
                given["replaced"] = json.dumps(list(replaced_after(found[0], found[1])))
            if given:
                columns = sql.SQL(", ").join(
                    sql.SQL("{} = {}").format(
                        sql.Identifier(k),
                        sql.SQL("%s::json" if k in ("scoring", "replaced") else "%s"),
                    )
                    for k in given
                )
                conn.execute(
                    sql.SQL("UPDATE meets SET {} WHERE id = %s").format(columns),
                    (*given.values(), meet_id),
                )

    def meet_tables(self, meet_id: int) -> list[tuple[TableRow, int]]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {TABLE_COLUMNS}, (SELECT COALESCE(MAX(e.seq), 0) FROM events e"
                "  WHERE e.table_id = t.id)"
                " FROM meet_tables mt JOIN tables t ON t.id = mt.table_id"
                " WHERE mt.meet_id = %s ORDER BY mt.position",
                (meet_id,),
            ).fetchall()
        return [(table_of(r[:7]), int(r[7])) for r in rows]

    def add_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> None:
        with self._write() as conn:
            check_organiser(conn, meet_id, by)
            if conn.execute("SELECT 1 FROM tables WHERE id = %s", (table_id,)).fetchone() is None:
                raise NotFound("table/not_found")
            join_meet(conn, meet_id, table_id)

    def remove_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> bool:
        with self._write() as conn:
            check_organiser(conn, meet_id, by)
            cur = conn.execute(
                "DELETE FROM meet_tables WHERE meet_id = %s AND table_id = %s",
                (meet_id, table_id),
            )
            return cur.rowcount == 1

    def meet_of(self, table_id: int) -> MeetRow | None:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets m JOIN meet_tables mt ON mt.meet_id = m.id"
                " WHERE mt.table_id = %s",
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
                f"SELECT {PAPER_COLUMNS}, {ENTRY_COLUMNS}"
                " FROM papers p LEFT JOIN paper_entries e ON e.paper_id = p.id"
                " WHERE p.meet_id = %s ORDER BY p.id, e.seq",
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
            organiser = _organiser(conn, meet_id)  # the meet locked: its writes take turns
            for paper_id, expected_seq, entries in writes:
                in_meet = conn.execute(
                    "SELECT 1 FROM papers WHERE id = %s AND meet_id = %s", (paper_id, meet_id)
                ).fetchone()
                if in_meet is None:
                    raise NotFound("meet/paper_not_found")
                _check_by(organiser, by)
                last = conn.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM paper_entries WHERE paper_id = %s",
                    (paper_id,),
                ).fetchone()
                actual = int(last[0]) if last else 0
                if actual != expected_seq:
                    raise StaleState("paper/stale", expected=expected_seq, actual=actual)
                try:
                    _insert_entries(conn, paper_id, entries)
                except errors.UniqueViolation:  # another writer won the same seq
                    raise StaleState("paper/stale", expected=expected_seq,
                                     actual=actual) from None  # fmt: skip

    def remove_paper(self, meet_id: int, paper_id: int, *, by: str | None) -> bool:
        with self._write() as conn:
            check_organiser(conn, meet_id, by)
            conn.execute(
                "DELETE FROM paper_entries WHERE paper_id IN"
                " (SELECT id FROM papers WHERE id = %s AND meet_id = %s)",
                (paper_id, meet_id),
            )
            cur = conn.execute(
                "DELETE FROM papers WHERE id = %s AND meet_id = %s", (paper_id, meet_id)
            )
            return cur.rowcount == 1


def _insert_paper(conn: psycopg.Connection[Any], meet_id: int, row: PaperRow) -> PaperRow:
    """Inside the write: the paper table in the meet (its public id unique among them)."""
    try:
        with conn.transaction():  # a savepoint: the clash is ours to name
            hit = conn.execute(
                "INSERT INTO papers (public_id, meet_id, kind, title, created_at, setup)"
                " VALUES (%s, %s, %s, %s, %s, %s::json) RETURNING id",
                (row.public_id, meet_id, row.kind, row.title, row.created_at, dump(row.setup)),
            ).fetchone()
    except errors.UniqueViolation:
        raise InvalidAction("import/exists", public_id=row.public_id) from None
    return replace(row, id=int(hit[0]) if hit else 0)


def _insert_entries(
    conn: psycopg.Connection[Any], paper_id: int, entries: Sequence[PaperEntry]
) -> None:
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO paper_entries (paper_id, seq, step, result, photo, actor, created_at)"
            " VALUES (%s, %s, %s, %s::json, %s, %s, %s)",
            [
                (paper_id, e.seq, e.step, dump(e.result), e.photo, e.by, e.created_at)
                for e in entries
            ],
        )


def join_meet(conn: psycopg.Connection[Any], meet_id: int, table_id: int) -> None:
    """Inside the write (the meet's row locked by ``check_organiser``): the table takes the
    meet's next place (one meet per table)."""
    try:
        with conn.transaction():
            conn.execute(
                "INSERT INTO meet_tables (table_id, meet_id, position) SELECT %s, %s,"
                " COALESCE(MAX(position), 0) + 1 FROM meet_tables WHERE meet_id = %s",
                (table_id, meet_id, meet_id),
            )
    except errors.UniqueViolation:
        raise InvalidAction("meet/table_taken") from None


def check_organiser(conn: psycopg.Connection[Any], meet_id: int, by: str | None) -> None:
    """Inside the write: the meet exists (locked against a concurrent change) and, given
    ``by``, it is the organiser's key hash."""
    _check_by(_organiser(conn, meet_id), by)


def _organiser(conn: psycopg.Connection[Any], meet_id: int) -> str:
    """Inside the write: the meet's organiser key hash, its row locked until the write ends
    (``NotFound`` if there is no meet)."""
    row = conn.execute(
        "SELECT organiser_hash FROM meets WHERE id = %s FOR UPDATE", (meet_id,)
    ).fetchone()
    if row is None:
        raise NotFound("meet/not_found")
    return str(row[0])


def _check_by(organiser: str, by: str | None) -> None:
    if by is not None and not hmac.compare_digest(organiser, by):
        raise Forbidden("meet/forbidden")
