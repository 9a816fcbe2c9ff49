"""An event as one JSON document, and the check of one before it is imported.

``{"format": "race-night-aids/meet", "version": 1, "meet": {...}, "tables": [...]}``: the
meet's own fields (its organiser key only as a hash) and each table's own export document
(``aids.tables.export``), in the order the tables joined. The meet service checks each table
as a table import does and then stores everything in one write.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.meets.fields import MAX_TABLES, check_date
from aids.meets.scoring import Scoring
from aids.store.base import MeetRow
from aids.tables.export import MAX_TITLE
from aids.tables.keys import KEY_HASH_RE, PUBLIC_ID_RE

MEET_FORMAT = "race-night-aids/meet"
MEET_VERSION = 1
DOCUMENT_FIELDS = {"format", "version", "meet", "tables"}
MEET_FIELDS = {"public_id", "title", "date", "created_at", "scoring", "organiser_sha256"}


def meet_document(row: MeetRow, tables: list[dict[str, Any]]) -> dict[str, Any]:
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
    }


def _bad(field: str) -> InvalidAction:
    return InvalidAction("import/field", field=field)


def _text(obj: Mapping[str, Any], key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise _bad(f"meet.{key}")
    return value


def check_meet_document(data: object) -> tuple[MeetRow, list[Any]]:
    """The meet's row and its tables' documents (checked later, one by one), or the first
    field that is wrong. Exactly the exported shape: no field more, none missing."""
    if not isinstance(data, dict) or data.get("format") != MEET_FORMAT:
        raise _bad("format")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version != MEET_VERSION:
        raise InvalidAction("meet/version", version=MEET_VERSION)
    extra = sorted(set(data) - DOCUMENT_FIELDS)
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
    created = _text(meet, "created_at")
    try:
        moment = datetime.fromisoformat(created) if len(created) <= 40 else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None or not 2000 <= moment.year <= 2200:
        raise _bad("meet.created_at")
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
    row = MeetRow(0, public_id, title, date, created, scoring.to_dict(), organiser)
    return row, list(tables)
