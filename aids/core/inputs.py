"""The input boundary: every value from outside, parsed once into a typed value with limits.

Page widgets, URL parameters, CLI arguments, imported files and environment variables all
pass through these functions before anything else sees them. A refused value raises
``InvalidAction`` with a code naming the field and a message in Japanese and English;
nothing downstream has to guess what a string may contain.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import stat
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aids.core.errors import InvalidAction, OsReason, Size

# Unicode categories no name or title may hold: control, format (zero-width, BOM, bidi
# overrides), surrogates, private use, unassigned, line and paragraph separators.
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
MAX_JSON_BYTES = 8 * 1024 * 1024  # an exported night is a few hundred kB
MAX_JSON_DEPTH = 16
MAX_PHOTO_MB = 40  # a slip's photo: a phone's is a few megabytes (the page's upload limit too)
MAX_PHOTO_BYTES = MAX_PHOTO_MB * 1024 * 1024
MAX_INT_DIGITS = 15
MAX_URL = 300  # a longer base URL would not fit a QR code printed at 30 mm
ASCII_DIGITS = re.compile(r"\A[0-9]+\Z")


def text(raw: object, field: str, *, max_len: int) -> str:
    """A name or title: a string, NFC, trimmed, 1..``max_len`` characters, nothing invisible.

    >>> text("  Jose\\u0301 ", "name", max_len=40)
    'José'
    >>> text("A\\u200bki", "name", max_len=40)
    Traceback (most recent call last):
    aids.core.errors.InvalidAction: input/invisible: ...
    """
    if not isinstance(raw, str):
        raise InvalidAction("input/not_text", field=field)
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidAction("input/encoding", field=field) from None
    value = unicodedata.normalize("NFC", raw).strip()
    if not value:
        raise InvalidAction("input/empty", field=field)
    if len(value) > max_len:
        raise InvalidAction("input/too_long", field=field, max=max_len)
    for char in value:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise InvalidAction("input/invisible", field=field, code=f"U+{ord(char):04X}")
    return value


def shown(raw: object, limit: int = 40) -> str:
    r"""A refused value as a message may quote it: short, printable, never a crash.

    >>> shown("赤:\x1b7")
    '赤:\\x1b7'
    """
    value = raw if isinstance(raw, str) else repr(raw)
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in value[:limit])


def only_fields(raw: Mapping[Any, Any], allowed: Iterable[str], where: str = "") -> None:
    """Refuse a field nobody reads. A typo (``discard_cont``) or a field of another action
    would otherwise be dropped and the rest taken as if it were all that was meant.

    >>> only_fields({"type": "bet", "player": 0}, {"type", "player", "horse"})
    >>> only_fields({"type": "bet", "hrose": 1}, {"type", "player", "horse"}, "action.")
    Traceback (most recent call last):
    aids.core.errors.InvalidAction: input/unknown_field: 'action.hrose' ...
    """
    known = set(allowed)
    extra = sorted((k for k in raw if k not in known), key=str)
    if extra:
        raise InvalidAction(
            "input/unknown_field", field=where + shown(extra[0]), allowed=", ".join(sorted(known))
        )


def identity(name: str) -> str:
    """The form under which two names count as the same: ``Ａｋｉ`` and ``aki`` are one.

    >>> identity("Ａｋｉ") == identity("aki")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold().strip()


def unique(names: Iterable[str], field: str) -> None:
    """Refuse two names that look the same (width, case, composed or decomposed accents)."""
    seen: dict[str, str] = {}
    for name in names:
        key = identity(name)
        if key in seen:
            raise InvalidAction("input/duplicate", field=field, name=name, other=seen[key])
        seen[key] = name


def whole_number(raw: object, field: object, *, low: int, high: int) -> int:
    """An int, or a string of ASCII digits, within ``low..high`` (``６`` or ``٣`` are refused).

    >>> whole_number("12", "port", low=1, high=65535)
    12
    """
    if isinstance(raw, bool):
        raise InvalidAction("input/number", field=field, low=low, high=high)
    if isinstance(raw, str):
        if not ASCII_DIGITS.match(raw) or len(raw) > MAX_INT_DIGITS:
            raise InvalidAction("input/number", field=field, low=low, high=high)
        raw = int(raw)
    if not isinstance(raw, int) or not low <= raw <= high:
        raise InvalidAction("input/number", field=field, low=low, high=high)
    return raw


def base_url(raw: object, field: str = "AIDS_PUBLIC_URL") -> str:
    """An http(s) URL with a host and nothing after the path, short enough for a QR code."""
    if not isinstance(raw, str) or len(raw) > MAX_URL or not raw.isascii():
        raise InvalidAction("input/url", field=field, max=MAX_URL)
    value = raw.strip().rstrip("/")
    try:
        parts = urlsplit(value)
        port_ok = parts.port is None or 0 < parts.port < 65536
    except ValueError:
        raise InvalidAction("input/url", field=field, max=MAX_URL) from None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or not port_ok
        or parts.query
        or parts.fragment
        or any(c.isspace() or not c.isprintable() for c in value)
    ):
        raise InvalidAction("input/url", field=field, max=MAX_URL)
    return value


HOST_NAME = re.compile(
    r"\A(?=.{1,253}\Z)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\Z"
)


def listen_address(raw: object, field: str) -> str:
    """An address to listen on: an IP address (``0.0.0.0``: every network) or a host name.

    >>> listen_address("0.0.0.0", "--address"), listen_address("tracker.local", "--address")
    ('0.0.0.0', 'tracker.local')
    """
    if isinstance(raw, str) and raw.isascii():
        with contextlib.suppress(ValueError):
            return str(ipaddress.ip_address(raw))
        if HOST_NAME.match(raw):
            return raw
    raise InvalidAction("input/address", field=field)


def proxy_addresses(raw: object, field: str) -> str:
    """The addresses of the reverse proxies whose ``X-Forwarded-For`` is believed: IP
    addresses or networks, separated by commas ("" for none), normalised.

    >>> proxy_addresses("127.0.0.1, 10.0.0.0/8", "--proxy")
    '127.0.0.1,10.0.0.0/8'
    """
    if not isinstance(raw, str) or not raw.isascii() or len(raw) > 1000:
        raise InvalidAction("input/proxy", field=field)
    out = []
    for part in filter(None, (p.strip() for p in raw.split(","))):
        try:
            out.append(str(ipaddress.ip_network(part, strict=False)) if "/" in part
                       else str(ipaddress.ip_address(part)))  # fmt: skip
        except ValueError:
            raise InvalidAction("input/proxy", field=field) from None
    return ",".join(out)


def read_file(path: Path, field: str, *, max_bytes: int = MAX_JSON_BYTES) -> bytes:
    """A regular file's bytes, at most ``max_bytes``. Anything else (a FIFO, a device such as
    ``/dev/zero``, a folder) is refused as ``input/not_file`` without a byte read: opened
    without waiting for a writer, so a FIFO can never hang the command."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise InvalidAction("input/file", field=field, path=str(path), detail=_why(exc)) from None
    try:
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise InvalidAction("input/not_file", field=field, path=str(path))
            os.set_blocking(fd, True)
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise InvalidAction("input/file", field=field, path=str(path), detail=_why(exc)) from None
    if len(data) > max_bytes:
        raise InvalidAction("input/too_big", field=field, max=Size(max_bytes))
    return data


def _why(exc: OSError) -> OsReason:
    return OsReason.of(exc)


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise InvalidAction("input/json_number", max=MAX_INT_DIGITS)
    return int(digits)


def _no_constant(name: str) -> Any:
    raise InvalidAction("input/json", detail=name)


def _depth(value: Any) -> int:
    """The nesting depth of parsed JSON, found without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(node, dict):
            stack.extend((v, level + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, level + 1) for v in node)
    return deepest


def json_document(data: bytes | str, *, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """Parse JSON with limits: size, nesting depth, digits of a number, no NaN/Infinity.

    >>> json_document('{"a": [1, 2]}')
    {'a': [1, 2]}
    """
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > max_bytes:
        raise InvalidAction("input/too_big", field="JSON", max=Size(max_bytes))
    try:
        value = json.loads(data, parse_int=_int, parse_constant=_no_constant)
    except RecursionError:
        raise InvalidAction("input/json_depth", max=MAX_JSON_DEPTH) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidAction("input/json", detail=str(exc)[:200]) from None
    if _depth(value) > MAX_JSON_DEPTH:
        raise InvalidAction("input/json_depth", max=MAX_JSON_DEPTH)
    return value


def file_document(data: bytes, filename: str, syntax_code: str) -> Any:
    """An uploaded data file (a map, a track): TOML when its name ends ``.toml``, else JSON
    with ``json_document``'s limits. A TOML fault is ``syntax_code`` with its detail."""
    if not filename.lower().endswith(".toml"):
        return json_document(data)
    if len(data) > MAX_JSON_BYTES:
        raise InvalidAction("input/too_big", field=filename[:40], max=Size(MAX_JSON_BYTES))
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InvalidAction(syntax_code, detail=str(exc)[:120]) from None
