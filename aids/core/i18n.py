"""Message catalogues: one TOML file per language under ``templates/messages``.

Keys are dotted paths (``errors.derby/slot_taken``, ``ui.bet``). A key missing from a catalogue
is a bug caught by the tests; at run time it falls back to English, then to the key itself.
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any, Literal

from aids.paths import TEMPLATES

Lang = Literal["ja", "en"]
LANGS: tuple[Lang, ...] = ("ja", "en")
DEFAULT_LANG: Lang = "ja"


def _flatten(prefix: str, node: dict[str, Any], out: dict[str, str]) -> None:
    for key, value in node.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(path, value, out)
        else:
            out[path] = str(value)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """All messages of one language, flattened to dotted keys."""
    with open(TEMPLATES / "messages" / f"{lang}.toml", "rb") as fh:
        raw = tomllib.load(fh)
    flat: dict[str, str] = {}
    _flatten("", raw, flat)
    return flat


def normalise_lang(lang: object) -> Lang:
    """``ja`` or ``en``; anything else becomes the default language."""
    for known in LANGS:
        if lang == known:
            return known
    return DEFAULT_LANG


def t(key: str, lang: str, /, **params: object) -> str:
    """The message for ``key`` in ``lang`` with ``{name}`` fields filled from ``params``."""
    text = catalogue(normalise_lang(lang)).get(key) or catalogue("en").get(key) or key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text
