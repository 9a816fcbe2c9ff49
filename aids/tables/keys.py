"""Public ids and keys: random, URL-safe, and only ever stored as hashes."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import UTC, datetime

PUBLIC_ID_RE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9_-]{21,63}\Z")  # \Z: no trailing newline
KEY_HASH_RE = re.compile(r"\A[0-9a-f]{64}\Z")
MAX_KEY_LENGTH = 128


def new_public_id() -> str:
    """144 random bits, URL-safe, starting with a letter or digit.

    A leading ``-`` would make ``aids export <id>`` read the id as an option.
    """
    while True:
        public_id = secrets.token_urlsafe(18)
        if public_id[0].isalnum():
            return public_id


def new_key() -> str:
    """192 random bits, URL-safe, starting with a letter or digit; only its hash is stored.

    A leading ``-`` would make ``aids record … --key <key>`` read the key as an option.
    """
    while True:
        key = secrets.token_urlsafe(24)
        if key[0].isalnum():
            return key


def hash_key(key: str) -> str:
    """SHA-256 of the key. The key is long and random, so a plain digest resists guessing."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def same_hash(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b)


def now() -> str:
    return stamp(datetime.now(UTC))


def stamp(moment: datetime) -> str:
    """A time as the store writes it: UTC, ISO 8601 to the millisecond (ordered as text)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")
