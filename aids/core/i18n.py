"""Message catalogues: ``templates/messages/<lang>/*.toml``, one file per game plus ``core``.

Keys are dotted paths (``errors.table/stale``, ``table.undo``). A game's file holds only
its own keys (``<kind>.…`` and ``errors.<kind>/…``), so adding a game adds files, never edits
a shared one. A key missing from a catalogue is a bug caught by the tests; at run time it falls
back to English, then to the key itself. Games registered from outside the package (plugins,
the tests' fake game) add their own folder with ``add_catalogue_dir``.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Literal

from aids.paths import TEMPLATES

Lang = Literal["ja", "en"]
LANGS: tuple[Lang, ...] = ("ja", "en")
DEFAULT_LANG: Lang = "ja"
MESSAGES = TEMPLATES / "messages"

_extra_dirs: list[Path] = []


class CatalogueError(RuntimeError):
    """Two message files define the same key (a packaging bug, caught by the tests)."""


def _flatten(prefix: str, node: dict[str, Any], out: dict[str, str], origin: Path) -> None:
    for key, value in node.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(path, value, out, origin)
        elif path in out:
            raise CatalogueError(f"{origin}: key {path!r} is defined twice")
        else:
            out[path] = str(value)


def add_catalogue_dir(folder: Path) -> None:
    """Read messages from ``folder/<lang>/*.toml`` too (a game that lives outside ``aids``)."""
    if folder not in _extra_dirs:
        _extra_dirs.append(folder)
        catalogue.cache_clear()


def catalogue_files(lang: str) -> list[Path]:
    """The files that make up one language's catalogue, in load order."""
    files: list[Path] = []
    for root in (MESSAGES, *_extra_dirs):
        files += sorted((root / lang).glob("*.toml"))
    return files


@cache
def catalogue(lang: str) -> dict[str, str]:
    """All messages of one language, flattened to dotted keys."""
    flat: dict[str, str] = {}
    for path in catalogue_files(lang):
        with open(path, "rb") as fh:
            _flatten("", tomllib.load(fh), flat, path)
    return flat


def normalise_lang(lang: object) -> Lang:
    """``ja`` or ``en``; anything else becomes the default language."""
    for known in LANGS:
        if lang == known:
            return known
    return DEFAULT_LANG


def t_count(key: str, lang: str, count: int, /, **params: object) -> str:
    """``t`` for a message about ``count`` things: ``<key>_one`` for one where the language
    has that form (English "1 pt"; Japanese has one form for every count), else ``key``.
    (Shown on the games' scores by ``tests/print/test_report.py``.)"""
    one = f"{key}_one"
    if count == 1 and one in catalogue(normalise_lang(lang)):
        key = one
    return t(key, lang, **params)


def t(key: str, lang: str, /, **params: object) -> str:
    """The message for ``key`` in ``lang`` with ``{name}`` fields filled from ``params``."""
    text = catalogue(normalise_lang(lang)).get(key) or catalogue("en").get(key) or key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text
