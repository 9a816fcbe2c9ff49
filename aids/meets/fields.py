"""The fields of an event as they come from outside (page, CLI, an imported file), each
checked once: the title (as a table's), the date, and a table named by its id or link."""

from __future__ import annotations

import re
from datetime import date as Date
from urllib.parse import parse_qs, urlsplit

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.tables.export import MAX_TITLE
from aids.tables.keys import PUBLIC_ID_RE

MAX_TABLES = 60  # tables in one event; a big night is a dozen
DATE_RE = re.compile(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


def check_title(raw: object) -> str:
    """An event's title: checked as a table's (1–80 characters, nothing invisible)."""
    return inputs.text(raw, "title", max_len=MAX_TITLE)


def check_date(raw: object) -> str:
    """The night, ``YYYY-MM-DD`` in ASCII digits, a real day of 2000–2200.

    >>> check_date("2025-02-28")
    '2025-02-28'
    """
    if not isinstance(raw, str) or not DATE_RE.match(raw.strip()):
        raise InvalidAction("meet/date")
    try:
        day = Date.fromisoformat(raw.strip())
    except ValueError:
        raise InvalidAction("meet/date") from None
    if not 2000 <= day.year <= 2200:
        raise InvalidAction("meet/date")
    return day.isoformat()


def table_ref(raw: object) -> str:
    """A table named by its public id or by any of its links (viewer or referee: only the
    ``table`` parameter is read here).

    >>> table_ref("http://x:8501/?table=AbCdEfGhIjKlMnOpQrStUvWx&key=secret")
    'AbCdEfGhIjKlMnOpQrStUvWx'
    """
    return table_link(raw)[0]


def table_link(raw: object) -> tuple[str, str | None]:
    """A table's public id and the key its link carries, if any (a referee link has one).

    >>> table_link("http://x:8501/?table=AbCdEfGhIjKlMnOpQrStUvWx&key=secret&lang=ja")
    ('AbCdEfGhIjKlMnOpQrStUvWx', 'secret')
    >>> table_link("AbCdEfGhIjKlMnOpQrStUvWx")
    ('AbCdEfGhIjKlMnOpQrStUvWx', None)
    >>> table_link("http://x:8501/live/AbCdEfGhIjKlMnOpQrStUvWx?lang=en")  # the live view
    ('AbCdEfGhIjKlMnOpQrStUvWx', None)
    """
    if not isinstance(raw, str) or len(raw) > 600:
        raise InvalidAction("meet/table_ref")
    text, key = raw.strip(), None
    if "?" in text or "://" in text:
        try:
            parts = urlsplit(text)
            query = parse_qs(parts.query)
        except ValueError:
            raise InvalidAction("meet/table_ref") from None
        live = re.fullmatch(r"(?:.*/)?live/([^/]+)/?", parts.path)
        found = [live.group(1)] if live and "table" not in query else query.get("table", [""])
        keys = query.get("key", [])
        text = found[0] if len(found) == 1 else ""
        key = keys[0] if len(keys) == 1 else None
    if not PUBLIC_ID_RE.match(text):
        raise InvalidAction("meet/table_ref")
    return text, key
