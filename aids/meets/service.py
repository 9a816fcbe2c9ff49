"""The meet service: an event of one night, grouping tables of any games under an organiser.

A meet has a title, a date, a scoring rule and its own organiser key (kept only as a hash,
like a table's referee key). Anyone with its link reads it; only the organiser's key changes
it: tables in and out, a new table started inside it, title, date, rule, a new key. Wrong
organiser keys are limited per meet as wrong table keys are (``aids.tables.attempts``).
Every table is read through the viewer's snapshot: the event page, its standings and its
print show nothing a player could not see at that table.

Everything goes through the ``Store`` protocol, never SQL, so it runs on SQLite or PostgreSQL.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Literal

from aids.core.errors import AidsError, Forbidden, InvalidAction, NotFound, StoreError
from aids.games.base import VIEWER
from aids.meets.export import check_meet_document, meet_document
from aids.meets.fields import MAX_TABLES, check_date, check_title, table_link, table_ref
from aids.meets.paper_tables import PaperTables
from aids.meets.papers import PaperStatus, check_entries
from aids.meets.scoring import Scoring
from aids.meets.standings import Standing, standings
from aids.meets.status import TableStatus, status_of
from aids.store.base import MeetRow, PaperBundle, PaperRow, Store
from aids.tables import TableInfo, TableService
from aids.tables.attempts import LOCAL, KeyAttempts
from aids.tables.keys import (
    MAX_KEY_LENGTH,
    PUBLIC_ID_RE,
    hash_key,
    new_key,
    new_public_id,
    now,
    same_hash,
)
from aids.tables.snapshot import table_info

MeetRole = Literal["organiser", "viewer"]
KeyStatus = Literal["none", "live", "replaced", "wrong"]
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MeetInfo:
    """An event as anyone with its link sees it (never its key)."""

    public_id: str
    title: str
    date: str
    created_at: str
    scoring: Scoring


def meet_info(row: MeetRow) -> MeetInfo:
    return MeetInfo(row.public_id, row.title, row.date, row.created_at,
                    Scoring.from_dict(row.scoring))  # fmt: skip


class MeetService(PaperTables):
    """Create, read and change events (their tables played on paper: ``PaperTables``).
    Thread-safe as the table service it is handed."""

    def __init__(self, tables: TableService, *, key_attempts: KeyAttempts | None = None) -> None:
        self.tables = tables
        self.key_attempts = key_attempts or tables.key_attempts  # one budget per client

    @property
    def store(self) -> Store:
        return self.tables.store

    # --- create / read --------------------------------------------------------------------

    def create(
        self, title: object, date: object, scoring: Scoring | None = None
    ) -> tuple[MeetInfo, str]:
        """A new event; returns its info and the organiser key (shown once, never stored)."""
        clean = MeetRow(0, new_public_id(), check_title(title), check_date(date), now(),
                        (scoring or Scoring()).to_dict(), "")  # fmt: skip
        key = new_key()
        stored = self.store.insert_meet(_with_hash(clean, hash_key(key)))
        return meet_info(stored), key

    def info(self, public_id: object) -> MeetInfo:
        return meet_info(self._row(public_id))

    def list_meets(self) -> list[MeetInfo]:
        return [meet_info(row) for row in self.store.list_meets()]

    def membership(self) -> dict[str, MeetInfo]:
        """The event each table belongs to, by the table's public id (tables in none are
        absent): what the home page's list of tables says beside each."""
        return {
            table.public_id: meet_info(row)
            for row in self.store.list_meets()
            for table, _seq in self.store.meet_tables(row.id)
        }

    def role_for(self, public_id: object, key: object, *, client: str = LOCAL) -> MeetRole:
        """The one place that decides what a key makes you at an event (``access`` says
        why): the organiser for a live organiser key; an empty, missing, malformed, replaced
        or wrong key is a viewer.

        Raises:
            Forbidden: ``meet/key_attempts`` for a wrong key while ``client`` has spent its
                budget of wrong keys (the organiser's key is never refused).
        """
        return self.access(public_id, key, client=client)[0]

    def access(
        self, public_id: object, key: object, *, client: str = LOCAL
    ) -> tuple[MeetRole, KeyStatus]:
        """What a key makes you at an event and why: "live" (the organiser's key), "none"
        (no key), "replaced" (an organiser key the event once had: it spends nothing) or
        "wrong" (it spends one of ``client``'s wrong keys).

        Raises:
            Forbidden: ``meet/key_attempts`` for a wrong key while ``client`` has spent its
                budget of wrong keys.
        """
        row = self._row(public_id)
        if key is None or key == "":
            return "viewer", "none"
        status = self._status(row, key, client)
        return ("organiser" if status == "live" else "viewer"), status

    def members(self, public_id: object) -> list[TableInfo]:
        """The event's tables as stored, in the order they joined, none replayed: what the
        organiser's remove list and the counts need, even for a table this tracker cannot
        read (a game or rules version it does not know)."""
        row = self._row(public_id)
        return [table_info(table) for table, _seq in self.store.meet_tables(row.id)]

    def tables_of(self, public_id: object) -> list[TableStatus]:
        """Every table of the event in the order they joined, as a viewer sees each now. A
        table this tracker cannot read (its game is not registered here, or its rules
        version is unknown) is left out rather than breaking the whole event; ``members``
        still lists it. A fault of the store is not such a table: it is raised."""
        row = self._row(public_id)
        out: list[TableStatus] = []
        for table, _seq in self.store.meet_tables(row.id):
            try:
                snapshot = self.tables.snapshot(table.public_id, VIEWER)
                out.append(status_of(self.tables.game(table.kind), snapshot))
            except StoreError:
                raise
            except AidsError:
                log.warning("event %s: table %s unreadable here", row.public_id, table.public_id)
        return out

    def standings(
        self,
        public_id: object,
        tables: list[TableStatus] | None = None,
        papers: list[PaperStatus] | None = None,
    ) -> tuple[Standing, ...]:
        """The event's standings under its rule, over its tracked tables then its paper
        tables (``tables``, ``papers``: statuses already read)."""
        info = self.info(public_id)
        shown = self.tables_of(public_id) if tables is None else tables
        paper = self.papers_of(public_id) if papers is None else papers
        return standings([s.result for s in shown] + [p.result for p in paper], info.scoring)

    # --- organiser's changes --------------------------------------------------------------

    def add_table(self, public_id: object, key: object, table: object, *,
                  table_key: object = None, host: bool = False) -> TableInfo:  # fmt: skip
        """Put an existing table in the event: the organiser names it by its referee link (or
        its id and ``table_key``, the table's referee key). Anyone may start an event, so a
        table joins one only with its referee's consent: its key, checked as the table page
        checks it (wrong keys count against the table) and never kept. The host's tool
        (``host=True``) needs neither key.

        Raises ``meet/needs_referee``, ``meet/already_in`` (this event), ``meet/table_taken``
        (another event), ``meet/too_many``, ``table/not_found``, ``meet/forbidden``.
        """
        row, by = self._authorise(public_id, key, host=host)
        table_id, link_key = table_link(table)
        target = self.store.get_table(table_id)
        if not host:
            referee = link_key if table_key is None else table_key
            if not self.tables.role_for(table_id, referee).is_referee:
                raise Forbidden("meet/needs_referee")
        owner = self.store.meet_of(target.id)
        if owner is not None and owner.id == row.id:
            raise InvalidAction("meet/already_in")
        self._room(row)
        self.store.add_meet_table(row.id, target.id, by=by)
        return table_info(target)

    def remove_table(self, public_id: object, key: object, table: object, *,
                     host: bool = False) -> None:  # fmt: skip
        """Take a table out of the event (the table itself stays as it is)."""
        row, by = self._authorise(public_id, key, host=host)
        target = self.store.get_table(table_ref(table))
        if not self.store.remove_meet_table(row.id, target.id, by=by):
            raise InvalidAction("meet/not_in")

    def new_table(
        self, public_id: object, key: object, kind: str, title: object, setup: object, *,
        host: bool = False,
    ) -> tuple[TableInfo, str]:  # fmt: skip
        """Start a table of any game inside the event; returns it and its referee key.

        The organiser's key and the room left are checked first; the table service checks the
        game, the title and the setup, then writes the table and its place in the event in
        one transaction that checks the organiser's key again: both or neither.
        """
        row, by = self._authorise(public_id, key, host=host)
        self._room(row)
        return self.tables.create(kind, title, setup, meet_id=row.id, organiser_hash=by)

    def update(
        self,
        public_id: object,
        key: object,
        *,
        title: object = None,
        date: object = None,
        scoring: Scoring | None = None,
        host: bool = False,
    ) -> MeetInfo:
        """Change the title, the date or the scoring rule (each checked first)."""
        row, by = self._authorise(public_id, key, host=host)
        fields: dict[str, Any] = {}
        if title is not None:
            fields["title"] = check_title(title)
        if date is not None:
            fields["date"] = check_date(date)
        if scoring is not None:
            fields["scoring"] = scoring.to_dict()
        if fields:
            self.store.update_meet(row.id, by=by, **fields)
        return self.info(row.public_id)

    def rotate_key(self, public_id: object, key: object) -> str:
        """A new organiser key; the old one stops at once (checked again inside the write)."""
        row, by = self._authorise(public_id, key)
        return self._issue(row, by)

    def reissue_key(self, public_id: object) -> str:
        """The host's way back in (``aids meet key``): no key asked, the old one stops."""
        return self._issue(self._row(public_id), None)

    def _issue(self, row: MeetRow, by: str | None) -> str:
        new = new_key()
        self.store.update_meet(row.id, by=by, organiser_hash=hash_key(new))
        return new

    # --- export / import ------------------------------------------------------------------

    def export(self, public_id: object) -> dict[str, Any]:
        """The whole event as one JSON-ready document (``race-night-aids/meet`` version 2):
        the meet, each table's own export and each paper table with its result log. The
        host's backup: every log complete."""
        row = self._row(public_id)
        docs = [self.tables.export(t.public_id) for t, _ in self.store.meet_tables(row.id)]
        return meet_document(row, docs, self.store.meet_papers(row.id))

    def organiser_export(self, public_id: object, key: object) -> dict[str, Any]:
        """The export the organiser downloads from the page. An organiser can add any table
        by its public link, so this holds only what viewers can see: refused
        (``meet/export_hidden``) while a table holds something hidden from viewers — a sealed
        choice or a discard in its log, or hidden state such as a simulation's seed (which
        deals every hand); the host's ``aids meet export`` has no such limit. Each table is
        checked in the very document that is handed out."""
        row, _ = self._authorise(public_id, key)
        docs = []
        for table, _seq in self.store.meet_tables(row.id):
            doc = self.tables.export(table.public_id)
            if self.tables.hides_from(table.public_id, doc, VIEWER):
                raise Forbidden("meet/export_hidden", title=table.title)
            docs.append(doc)
        return meet_document(row, docs, self.store.meet_papers(row.id))  # nothing secret

    def import_(self, data: object) -> MeetInfo:
        """Check a whole event export (the meet, then each table as a table import checks it,
        replaying its log, then each paper table's setup and results by its game), then store
        it all in one write: all or nothing."""
        row, docs, papers = check_meet_document(data)
        if _exists(self.store, row.public_id):
            raise InvalidAction("meet/exists", public_id=row.public_id)
        bundles = []
        seen: set[str] = set()
        for i, doc in enumerate(docs):
            try:
                bundle = self.tables.check_import(doc)
            except AidsError as exc:
                raise _in_table(exc, i) from None
            if bundle[0].public_id in seen:
                raise InvalidAction("import/field", field=f"tables[{i}].table.public_id")
            seen.add(bundle[0].public_id)
            bundles.append(bundle)
        checked: list[PaperBundle] = []
        for i, (paper, entries) in enumerate(papers):
            where = f"papers[{i}]"
            if paper.public_id in seen:
                raise InvalidAction("import/field", field=f"{where}.public_id")
            seen.add(paper.public_id)
            setup = self._paper_setup(paper, where)
            game = self.tables.games[paper.kind]
            checked.append((paper, check_entries(entries, game, setup, where)))
        return meet_info(self.store.insert_meet(row, bundles, checked))

    def _paper_setup(self, paper: PaperRow, where: str) -> Any:
        """An imported paper table's setup, checked by its game (``import/field``)."""
        game = self.tables.games.get(paper.kind)
        if game is None:
            raise InvalidAction("import/field", field=f"{where}.kind")
        try:
            setup = game.setup_from_dict(paper.setup)
        except AidsError:
            raise InvalidAction("import/field", field=f"{where}.setup") from None
        if game.setup_to_dict(setup) != paper.setup or game.paper_form(setup, False) is None:
            raise InvalidAction("import/field", field=f"{where}.setup")
        return setup

    # --- checks ---------------------------------------------------------------------------

    def _row(self, public_id: object) -> MeetRow:
        if not isinstance(public_id, str) or not PUBLIC_ID_RE.match(public_id):
            raise NotFound("meet/not_found")
        return self.store.get_meet(public_id)

    def _authorise(
        self, public_id: object, key: object, *, host: bool = False
    ) -> tuple[MeetRow, str | None]:
        """The meet and the organiser's key hash to check again inside the write; the host
        (the CLI, holding the data itself) passes ``host=True`` and no key."""
        row = self._row(public_id)
        if host:
            return row, None
        digest = self._organiser_hash(row, key) if key not in (None, "") else None
        if digest is None:
            raise Forbidden("meet/forbidden")
        return row, digest

    def _organiser_hash(self, row: MeetRow, key: object, client: str = LOCAL) -> str | None:
        """The key's hash if it is the organiser's (``_status``), else None."""
        return hash_key(str(key)) if self._status(row, key, client) == "live" else None

    def _status(self, row: MeetRow, key: object, client: str) -> KeyStatus:
        """ "live" for the organiser's key (never refused), "replaced" for one the event
        once had (it spends nothing), else "wrong", which spends one of ``client``'s wrong
        keys (``aids.tables.attempts``)."""
        if isinstance(key, str) and len(key) <= MAX_KEY_LENGTH:
            digest = hash_key(key)
            if same_hash(row.organiser_hash, digest):
                return "live"
            if any(same_hash(old, digest) for old in row.replaced):
                return "replaced"
        try:
            self.key_attempts.take(client)
        except Forbidden as exc:
            raise Forbidden("meet/key_attempts", **exc.params) from None
        return "wrong"

    def _room(self, row: MeetRow) -> None:
        held = len(self.store.meet_tables(row.id)) + len(self.store.meet_papers(row.id))
        if held >= MAX_TABLES:
            raise InvalidAction("meet/too_many", max=MAX_TABLES)


def _with_hash(row: MeetRow, digest: str) -> MeetRow:
    return MeetRow(row.id, row.public_id, row.title, row.date, row.created_at, row.scoring,
                   digest)  # fmt: skip


def _exists(store: Store, public_id: str) -> bool:
    try:
        store.get_meet(public_id)
    except NotFound:
        return False
    return True


def _in_table(exc: AidsError, index: int) -> AidsError:
    """A table's refusal inside an event file, its field named from the file's top."""
    if exc.code == "import/field":
        field = str(exc.params.get("field", ""))
        return InvalidAction("import/field", field=f"tables[{index}].{field}")
    return exc
