"""The store interface: tables, their append-only event logs and their keys.

The table service talks only to this interface; ``aids.store.sqlite`` is the embedded default,
``aids.store.postgres`` the server for a night of many tables and trackers (chosen by
``AIDS_DATABASE_URL``, see ``aids.store.open_store``), and ``tests/store/test_conformance.py``
is the suite both pass. Rows are plain values: the store knows nothing of games, roles or rules.

Besides tables it keeps *meets*: an event of one night grouping tables of any games under an
organiser's key (``aids.meets`` turns their outcomes into event standings). In code they are
"meets" because ``events`` already names a table's log; on the page they are events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int  # the store's own id (0 before insertion)
    public_id: str
    kind: str
    title: str
    created_at: str
    setup: dict[str, Any]
    rules_version: int


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    kind: str  # action | undo | redo
    payload: dict[str, Any] | None
    created_at: str
    actor: str = "referee"  # the role whose key made the write: referee | seat:N


@dataclass(frozen=True, slots=True)
class KeyRow:
    """A key's hash for one role of one table; a revoked key opens nothing."""

    role: str  # referee | seat:N
    key_hash: str
    created_at: str
    revoked_at: str | None = None


@dataclass(frozen=True, slots=True)
class MeetRow:
    """An event (a meet): tables of any games grouped for one night, run by an organiser."""

    id: int  # the store's own id (0 before insertion)
    public_id: str
    title: str
    date: str  # the night, YYYY-MM-DD
    created_at: str
    scoring: dict[str, Any]  # how a table's outcome becomes event points (``aids.meets``)
    organiser_hash: str  # the hash of the organiser's key
    #: the hashes of the organiser keys it replaced, newest first (``REPLACED_KEEP`` at most):
    #: an old link is told it was replaced, and spends nothing
    replaced: tuple[str, ...] = ()


REPLACED_KEEP = 50  # an event remembers this many of its organiser's old keys


def replaced_after(row_hash: str, replaced: Sequence[str]) -> tuple[str, ...]:
    """The replaced keys once the organiser key ``row_hash`` is replaced: it first."""
    return (row_hash, *(h for h in replaced if h != row_hash))[:REPLACED_KEEP]


@dataclass(frozen=True, slots=True)
class FiguresRow:
    """The live chances of one table position (``aids.tables.chances``), computed once for
    every tracker on the store: who claimed the computation and when, and once ``done`` the
    figures as JSON text (None if the computation failed)."""

    seq: int
    claimed_by: str
    claimed_at: str
    done: bool
    payload: str | None


def figures_pair(
    seq: int, rows: Sequence[FiguresRow]
) -> tuple[FiguresRow | None, FiguresRow | None]:
    """``Store.figures``'s answer from the (at most two) rows at or before ``seq``, newest
    first, that are at ``seq`` or done."""
    this = next((r for r in rows if r.seq == seq), None)
    done = next((r for r in rows if r.done), None)
    return this, done


# A table with its keys and its whole log, as an import brings it.
TableBundle = tuple[TableRow, list[KeyRow], list[EventRow]]


@dataclass(frozen=True, slots=True)
class PaperRow:
    """A table of a meet played on paper: its game, title and setup (the seats) like any
    table, but no log of actions: only its result entries (``PaperEntry``)."""

    id: int  # the store's own id (0 before insertion)
    public_id: str
    kind: str
    title: str
    created_at: str
    setup: dict[str, Any]


#: what a paper table's result entry did: the first result, a later change, or the organiser
#: marking the result as checked against the slip (no result of its own)
PAPER_STEPS = ("entered", "corrected", "confirmed")


@dataclass(frozen=True, slots=True)
class PaperEntry:
    """One entry of a paper table's result log, numbered from 1 like a table's events."""

    seq: int
    step: str  # one of PAPER_STEPS
    result: dict[str, Any] | None  # the result as entered (None for "confirmed")
    photo: str | None  # the SHA-256 (hex) of the photo the result was read from, if any
    by: str  # who: "organiser" (the event's key) or "host" (the host's own tool)
    created_at: str


# A paper table with its whole result log, as a meet's read and import bring it.
PaperBundle = tuple[PaperRow, list[PaperEntry]]


class PaperWrite(NamedTuple):
    """Entries for one paper table's result log, written against the seq it was read at."""

    paper_id: int
    expected_seq: int
    entries: Sequence[PaperEntry]


class Store(Protocol):
    """Persistence of tables. Every method is atomic; ``append`` is the only log write."""

    def insert_table(
        self,
        row: TableRow,
        keys: list[KeyRow],
        events: list[EventRow] | None = None,
        *,
        meet_id: int | None = None,
        by: str | None = None,
    ) -> TableRow:
        """Create a table with its keys (and, for an import, its whole log) atomically;
        given ``meet_id``, it joins that meet in the same transaction (``by`` and the
        refusals as in ``add_meet_table``: then no table is written either).

        Raises ``InvalidAction("import/exists")`` if the public id is taken.
        """
        ...

    def exists(self, public_id: str) -> bool: ...

    def get_table(self, public_id: str) -> TableRow:
        """The table's row; ``NotFound("table/not_found")`` if there is none."""
        ...

    def list_tables(self) -> list[tuple[TableRow, int]]:
        """Every table, newest first, with its last sequence number."""
        ...

    def last_seq(self, table_id: int) -> int: ...

    def events(self, table_id: int, after: int = 0) -> list[EventRow]: ...

    def append(
        self, table_id: int, expected_seq: int, event: EventRow, *, key_hash: str | None = None
    ) -> None:
        """Append ``event`` as ``expected_seq + 1``, in one transaction that checks the log
        still ends at ``expected_seq`` (else ``StaleState``) and, given ``key_hash``, that a
        live key with that hash is held by ``event.actor`` (else ``Forbidden``)."""
        ...

    def keys(self, table_id: int, *, include_revoked: bool = False) -> list[KeyRow]: ...

    def replace_key(
        self, table_id: int, new: KeyRow, revoked_at: str, *, by: str | None = None
    ) -> None:
        """Revoke every live key of ``new.role`` and add ``new``, in one transaction; given
        ``by`` (a key hash), only if that is a live referee key (else ``Forbidden``)."""
        ...

    def revoke_keys(
        self, table_id: int, role: str, revoked_at: str, *, by: str | None = None
    ) -> int:
        """Revoke every live key of ``role``; returns how many. ``by`` as in ``replace_key``."""
        ...

    def seen_seq(self, table_id: int) -> int:
        """The table's newest sequence number as far as this process knows, for a page that
        follows the table: SQLite reads it (as ``last_seq``); PostgreSQL answers from the
        notifications it listens to, with no query, once it has heard of the table. It may lag
        a write in another process by a moment; writes never rely on it."""
        ...

    # --- live chances -----------------------------------------------------------------------

    def claim_figures(
        self, table_id: int, seq: int, by: str, at: str, *, retake_before: str
    ) -> bool:
        """Claim the computation of the figures of the table at ``seq`` for tracker ``by``
        (``at``: now): true if nobody had, or if a claim made before ``retake_before`` never
        finished (its tracker stopped). Of many trackers asking at once exactly one gets
        true. A read-only store claims nothing (false)."""
        ...

    def put_figures(self, table_id: int, seq: int, payload: str | None, *, keep: int) -> None:
        """Store the figures of the table at ``seq`` (done; ``payload`` None: it failed), and
        forget the table's figures more than ``keep`` positions older."""
        ...

    def figures(self, table_id: int, seq: int) -> tuple[FiguresRow | None, FiguresRow | None]:
        """The table's figures row at ``seq`` (claimed or done, or None), and the newest done
        row at or before ``seq`` (what a page shows while newer ones are computed)."""
        ...

    # --- meets ----------------------------------------------------------------------------

    def insert_meet(
        self, row: MeetRow, tables: Sequence[TableBundle] = (), papers: Sequence[PaperBundle] = ()
    ) -> MeetRow:
        """Create a meet (and, for an import, its tables with their keys and logs, in that
        order, and its paper tables with their result logs) atomically.
        ``InvalidAction("import/exists")`` if the meet's or any table's or paper table's
        public id is taken; then nothing is written."""
        ...

    def get_meet(self, public_id: str) -> MeetRow:
        """The meet's row; ``NotFound("meet/not_found")`` if there is none."""
        ...

    def list_meets(self) -> list[MeetRow]:
        """Every meet, newest night first."""
        ...

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
        """Change the given fields; given ``by`` (a key hash), only if it is the organiser's
        (else ``Forbidden("meet/forbidden")``). ``by=None`` is the host's own tool."""
        ...

    def meet_tables(self, meet_id: int) -> list[tuple[TableRow, int]]:
        """The meet's tables in the order they joined, each with its last sequence number."""
        ...

    def add_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> None:
        """Put a table in the meet (``by`` as in ``update_meet``). A table belongs to one meet
        at most: ``InvalidAction("meet/table_taken")`` if it is in one already."""
        ...

    def remove_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> bool:
        """Take a table out of the meet; False if it was not in it."""
        ...

    def meet_of(self, table_id: int) -> MeetRow | None:
        """The meet a table belongs to, if any."""
        ...

    # --- paper tables of a meet -------------------------------------------------------------

    def insert_paper(self, meet_id: int, row: PaperRow, *, by: str | None) -> PaperRow:
        """Add a paper table to the meet (``by`` as in ``update_meet``, checked in the same
        write). ``InvalidAction("import/exists")`` if its public id is taken."""
        ...

    def meet_papers(self, meet_id: int) -> list[PaperBundle]:
        """The meet's paper tables in the order they were added, each with its result log
        (oldest entry first)."""
        ...

    def append_paper(
        self,
        meet_id: int,
        paper_id: int,
        expected_seq: int,
        entries: Sequence[PaperEntry],
        *,
        by: str | None,
    ) -> None:
        """Append ``entries`` (numbered ``expected_seq + 1`` on) to the paper table's result
        log, in one transaction that checks the paper table is the meet's
        (``NotFound("meet/paper_not_found")``), ``by`` as in ``update_meet``, and that its
        log still ends at ``expected_seq`` (``StaleState("paper/stale")``): all or none."""
        ...

    def append_papers(self, meet_id: int, writes: Sequence[PaperWrite], *, by: str | None) -> None:
        """``append_paper`` for several paper tables of the meet in one transaction, each
        checked as it does (no table twice: ``InvalidAction("paper/twice")``): all or none."""
        ...

    def remove_paper(self, meet_id: int, paper_id: int, *, by: str | None) -> bool:
        """Take a paper table out of the meet, with its result log; False if it was not in
        it (``by`` as in ``update_meet``)."""
        ...

    def close(self) -> None: ...
