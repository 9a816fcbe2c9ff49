"""An event as one JSON document, and the check of one before it is imported.

``{"format": "race-night-aids/meet", "version": 2, "meet": {...}, "tables": [...],
"papers": [...]}``: the meet's own fields (its organiser key only as a hash), each table's own
export document (``aids.tables.export``), in the order the tables joined, and each table
played on paper with its result log (version 2; a version 1 file has no ``papers``). The
meet service checks each table as a table import does, each paper table's results by its
game, and then stores everything in one write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.meets.fields import MAX_TABLES, check_date
from aids.meets.scoring import Scoring
from aids.store.base import MeetRow, PaperBundle, PaperEntry, PaperRow
from aids.tables.export import MAX_TITLE
from aids.tables.keys import KEY_HASH_RE, PUBLIC_ID_RE

MEET_FORMAT = "race-night-aids/meet"
MAX_ENTRIES = 200  # a paper table's result log: a correction now and then
MEET_VERSION = 2
READ_VERSIONS = (1, 2)  # version 1: before tables played on paper
DOCUMENT_FIELDS = {"format", "version", "meet", "tables", "papers"}
MEET_FIELDS = {"public_id", "title", "date", "created_at", "scoring", "organiser_sha256"}
PAPER_FIELDS = {"public_id", "kind", "title", "created_at", "setup", "entries"}
ENTRY_FIELDS = {"seq", "step", "result", "photo_sha256", "by", "created_at"}


def paper_document(paper: PaperBundle) -> dict[str, Any]:
    """One table played on paper with its whole result log, as an export holds it."""
    row, entries = paper
    return {
        "public_id": row.public_id,
        "kind": row.kind,
        "title": row.title,
        "created_at": row.created_at,
        "setup": row.setup,
        "entries": [
            {
                "seq": e.seq,
                "step": e.step,
                "result": e.result,
                "photo_sha256": e.photo,
                "by": e.by,
                "created_at": e.created_at,
            }
            for e in entries
        ],
    }


def meet_document(
    row: MeetRow, tables: list[dict[str, Any]], papers: Sequence[PaperBundle] = ()
) -> dict[str, Any]:
    return {
        "format": MEET_FORMAT,
        "version": MEET_VERSION,
        "meet": {
            "public_id": row.public_id,
            "title": row.title,
            "date": row.date,
            "created_at": row.created_at,
            "scoring": row.scoring,
            "organiser_sha256": row.organiser_hash,
        },
        "tables": tables,
        "papers": [paper_document(p) for p in papers],
    }


def _bad(field: str) -> InvalidAction:
    return InvalidAction("import/field", field=field)


def _text(obj: Mapping[str, Any], key: str, where: str = "meet") -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise _bad(f"{where}.{key}")
    return value


def check_meet_document(data: object) -> tuple[MeetRow, list[Any], list[PaperBundle]]:
    """The meet's row, its tables' documents (checked later, one by one) and its paper
    tables (their shape: their games' rules are checked by the meet service), or the first
    field that is wrong. Exactly the exported shape: no field more, none missing."""
    if not isinstance(data, dict) or data.get("format") != MEET_FORMAT:
        raise _bad("format")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version not in READ_VERSIONS:
        raise InvalidAction("meet/version", version=MEET_VERSION)
    fields = DOCUMENT_FIELDS if version == 2 else DOCUMENT_FIELDS - {"papers"}
    extra = sorted(set(data) ^ fields)
    if extra:
        raise _bad(inputs.shown(extra[0]))
    meet = data.get("meet")
    if not isinstance(meet, dict):
        raise _bad("meet")
    extra = sorted(set(meet) ^ MEET_FIELDS)
    if extra:
        raise _bad(f"meet.{inputs.shown(extra[0])}")
    public_id = _text(meet, "public_id")
    if not PUBLIC_ID_RE.match(public_id):
        raise _bad("meet.public_id")
    title = inputs.text(_text(meet, "title"), "meet.title", max_len=MAX_TITLE)
    try:
        date = check_date(_text(meet, "date"))
    except InvalidAction:
        raise _bad("meet.date") from None
    created = _moment(_text(meet, "created_at"), "meet.created_at")
    try:
        scoring = Scoring.from_dict(meet.get("scoring"))
    except InvalidAction:
        raise _bad("meet.scoring") from None
    if scoring.to_dict() != meet["scoring"]:
        raise _bad("meet.scoring")
    organiser = _text(meet, "organiser_sha256")
    if not KEY_HASH_RE.match(organiser):
        raise _bad("meet.organiser_sha256")
    tables = data.get("tables")
    if not isinstance(tables, list) or len(tables) > MAX_TABLES:
        raise _bad("tables")
    papers = data.get("papers", [])
    if not isinstance(papers, list) or len(tables) + len(papers) > MAX_TABLES:
        raise _bad("papers")
    row = MeetRow(0, public_id, title, date, created, scoring.to_dict(), organiser)
    return row, list(tables), [_paper(raw, f"papers[{i}]") for i, raw in enumerate(papers)]


def _paper(raw: object, where: str) -> PaperBundle:
    """A paper table's shape (its setup and results are its game's to check)."""
    if not isinstance(raw, dict):
        raise _bad(where)
    extra = sorted(set(raw) ^ PAPER_FIELDS)
    if extra:
        raise _bad(f"{where}.{inputs.shown(extra[0])}")
    public_id, kind = _text(raw, "public_id", where), _text(raw, "kind", where)
    if not PUBLIC_ID_RE.match(public_id):
        raise _bad(f"{where}.public_id")
    title = inputs.text(_text(raw, "title", where), f"{where}.title", max_len=MAX_TITLE)
    created = _moment(_text(raw, "created_at", where), f"{where}.created_at")
    if not isinstance(raw["setup"], dict):
        raise _bad(f"{where}.setup")
    entries = raw["entries"]
    if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
        raise _bad(f"{where}.entries")
    row = PaperRow(0, public_id, kind, title, created, raw["setup"])
    return row, [_entry(e, f"{where}.entries[{i}]") for i, e in enumerate(entries)]


def _entry(raw: object, where: str) -> PaperEntry:
    if not isinstance(raw, dict) or set(raw) != ENTRY_FIELDS:
        raise _bad(where)
    seq = raw["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise _bad(f"{where}.seq")
    result, photo = raw["result"], raw["photo_sha256"]
    if result is not None and not isinstance(result, dict):
        raise _bad(f"{where}.result")
    if photo is not None and not isinstance(photo, str):
        raise _bad(f"{where}.photo_sha256")
    step, by = _text(raw, "step", where), _text(raw, "by", where)
    created = _moment(_text(raw, "created_at", where), f"{where}.created_at")
    return PaperEntry(seq, step, result, photo, by, created)


def _moment(text: str, field: str) -> str:
    """An ISO time with its zone, in 2000–2200."""
    try:
        moment = datetime.fromisoformat(text) if len(text) <= 40 else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None or not 2000 <= moment.year <= 2200:
        raise _bad(field)
    return text
