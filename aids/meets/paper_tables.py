"""An event's tables played on paper, as the meet service adds, reads and writes them: a new
one, its result entered, corrected and confirmed (one table, or several at once: all or
none), removed with its result log.

A result entered again unchanged is not a correction: nothing is logged (a confirmation
asked with it is still written). Every write is checked whole before the store is asked, and
the store checks again, inside its transaction, that each table's log is where it was read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from aids.core.errors import InvalidAction, NotFound
from aids.meets.fields import check_title
from aids.meets.papers import PaperStatus, check_photo, check_result
from aids.meets.scoring import Scoring
from aids.store.base import MeetRow, PaperEntry, PaperRow, PaperWrite, Store
from aids.tables.keys import new_public_id, now

if TYPE_CHECKING:
    from aids.tables import TableService


class _Host(Protocol):
    """What the paper tables use of the meet service they are part of."""

    @property
    def tables(self) -> TableService: ...
    @property
    def store(self) -> Store: ...
    def _row(self, public_id: object) -> MeetRow: ...
    def _authorise(
        self, public_id: object, key: object, *, host: bool = False
    ) -> tuple[MeetRow, str | None]: ...
    def _room(self, row: MeetRow) -> None: ...
    def papers_of(self, public_id: object) -> list[PaperStatus]: ...
    def paper(self, public_id: object, paper: object) -> PaperStatus: ...


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """One paper table's result to enter, as read (a slip's photo, a form): the table's
    public id, the result, the log's seq it was read at and the photo's hash, if any."""

    paper: str
    result: object
    expected_seq: int
    photo: object = None


class PaperTables:
    """The meet service's tables played on paper (a part of ``MeetService``)."""

    def papers_of(self: _Host, public_id: object) -> list[PaperStatus]:
        """The event's tables played on paper, in the order they were added, each with its
        result log. A paper table of a game this tracker does not know is left out."""
        row = self._row(public_id)
        scoring = Scoring.from_dict(row.scoring)
        games = self.tables.games
        return [
            PaperStatus(paper, tuple(entries), games[paper.kind], scoring)
            for paper, entries in self.store.meet_papers(row.id)
            if paper.kind in games
        ]

    def new_paper(
        self: _Host, public_id: object, key: object, kind: str, title: object, setup: object,
        *, host: bool = False,
    ) -> PaperStatus:  # fmt: skip
        """Add a table played on paper: its game, title and setup (the seats), checked as a
        new table's are; it counts against the event's tables."""
        row, by = self._authorise(public_id, key, host=host)
        self._room(row)
        game = self.tables.game(kind)
        parsed = game.setup_from_dict(setup)
        if game.paper_form(parsed, False) is None:
            raise InvalidAction("paper/unsupported")
        paper = PaperRow(0, new_public_id(), kind, check_title(title), now(),
                         game.setup_to_dict(parsed))  # fmt: skip
        stored = self.store.insert_paper(row.id, paper, by=by)
        return PaperStatus(stored, (), game, Scoring.from_dict(row.scoring))

    def paper(self: _Host, public_id: object, paper: object) -> PaperStatus:
        """One paper table of the event by its public id (``meet/paper_not_found``)."""
        found = next((p for p in self.papers_of(public_id) if p.public_id == paper), None)
        if found is None:
            raise NotFound("meet/paper_not_found")
        return found

    def enter_result(
        self: _Host, public_id: object, key: object, paper: object, result: object, *,
        expected_seq: int, photo: object = None, confirm: bool = False, host: bool = False,
    ) -> PaperStatus:  # fmt: skip
        """Enter or correct a paper table's result (checked whole by the game first; nothing
        is written if it is refused), with the hash of the photo it was read from and, given
        ``confirm``, the organiser's confirmation in the same write. The result in force
        entered again is no correction: only the confirmation asked, if any, is written."""
        row, by = self._authorise(public_id, key, host=host)
        status = self.paper(row.public_id, paper)
        entries = result_entries(status, result, expected_seq, photo, confirm, host)
        if entries:
            self.store.append_paper(row.id, status.row.id, expected_seq, entries, by=by)
        return self.paper(row.public_id, paper)

    def enter_results(
        self: _Host, public_id: object, key: object, results: Sequence[ResultEntry], *,
        confirm: bool = False, host: bool = False,
    ) -> list[PaperStatus]:  # fmt: skip
        """``enter_result`` for several paper tables in one write: every result checked
        first (the first refusal raised, naming nothing written), a table named twice
        refused (``paper/twice``), then all written in one transaction or none."""
        row, by = self._authorise(public_id, key, host=host)
        papers = {p.public_id: p for p in self.papers_of(row.public_id)}
        writes: list[PaperWrite] = []
        for entry in results:
            status = papers.get(entry.paper)
            if status is None:
                raise NotFound("meet/paper_not_found")
            if any(w.paper_id == status.row.id for w in writes):
                raise InvalidAction("paper/twice")
            made = result_entries(status, entry.result, entry.expected_seq, entry.photo,
                                  confirm, host)  # fmt: skip
            if made:
                writes.append(PaperWrite(status.row.id, entry.expected_seq, made))
        if writes:
            self.store.append_papers(row.id, writes, by=by)
        return [self.paper(row.public_id, entry.paper) for entry in results]

    def confirm_result(
        self: _Host, public_id: object, key: object, paper: object, *, expected_seq: int,
        host: bool = False,
    ) -> PaperStatus:  # fmt: skip
        """The organiser confirms the result in force (``paper/nothing_to_confirm`` before
        any result or when it is confirmed already)."""
        row, by = self._authorise(public_id, key, host=host)
        status = self.paper(row.public_id, paper)
        if status.latest is None or status.confirmed:
            raise InvalidAction("paper/nothing_to_confirm")
        entry = PaperEntry(expected_seq + 1, "confirmed", None, None,
                           "host" if host else "organiser", now())  # fmt: skip
        self.store.append_paper(row.id, status.row.id, expected_seq, [entry], by=by)
        return self.paper(row.public_id, paper)

    def remove_paper(self: _Host, public_id: object, key: object, paper: object, *,
                     host: bool = False) -> None:  # fmt: skip
        """Take a paper table out of the event, with its result log."""
        row, by = self._authorise(public_id, key, host=host)
        status = self.paper(row.public_id, paper)
        if not self.store.remove_paper(row.id, status.row.id, by=by):
            raise NotFound("meet/paper_not_found")


def result_entries(
    status: PaperStatus, result: object, expected_seq: int, photo: object, confirm: bool,
    host: bool,
) -> list[PaperEntry]:  # fmt: skip
    """The log entries a result makes on ``status``'s table, checked whole (the game's rules,
    the photo's hash): ``entered`` or ``corrected``, then ``confirmed`` if asked. The result
    in force entered again adds no entry of its own (it is no correction); confirming it
    when it is confirmed already adds none either."""
    clean: dict[str, Any] = check_result(status, result)
    digest = check_photo(photo)
    who, at = ("host" if host else "organiser"), now()
    latest = status.latest
    same = latest is not None and status.problem is None and latest.result == clean
    entries = [] if same else [
        PaperEntry(expected_seq + 1, "corrected" if latest else "entered", clean, digest, who, at)
    ]  # fmt: skip
    if confirm and not (same and status.confirmed):
        entries.append(PaperEntry(expected_seq + len(entries) + 1, "confirmed", None, None,
                                  who, at))  # fmt: skip
    return entries
