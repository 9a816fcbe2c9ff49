"""Machine presets: the three numbers of a machine kept under a name for the next table.

The box's seven machines' numbers are not in the rulebook, so a referee enters them once and
saves them here: ``<data dir>/rally_presets.json`` beside the tables' database. The presets
shipped in ``seeds/rally.toml`` come first and cannot be overwritten.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.games.rally.data import Preset, load
from aids.games.rally.model import Machine
from aids.paths import database_path

MAX_SAVED = 40


def presets_file() -> Path:
    return database_path().parent / "rally_presets.json"


def saved() -> tuple[Preset, ...]:
    """The referee's own presets (a missing or unreadable file is no presets)."""
    try:
        raw = json.loads(inputs.read_file(presets_file(), "rally_presets.json"))
        return tuple(Preset(**row) for row in raw if isinstance(row, dict))[:MAX_SAVED]
    except (InvalidAction, ValueError, TypeError):
        return ()


def all_presets() -> tuple[Preset, ...]:
    return load().presets + saved()


def save(name: object, actions: int, hand: int, draw: int) -> Preset:
    """Keep a machine under ``name`` (replacing an own preset of the same name)."""
    text = inputs.text(name, "preset", max_len=30)
    Machine(actions, hand, draw)  # the bounds, with their message
    if any(inputs.identity(p.en) == inputs.identity(text) for p in load().presets):
        raise InvalidAction("input/duplicate", field="preset", name=text, other=text)
    key = f"own-{inputs.identity(text)}"
    preset = Preset(key=key, en=text, ja=text, actions=actions, hand=hand, draw=draw)
    kept = [*[p for p in saved() if p.key != key][-(MAX_SAVED - 1) :], preset]  # newest kept
    path = presets_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_suffix(".tmp")
    temp.write_text(json.dumps([asdict(p) for p in kept], ensure_ascii=False, indent=1))
    os.replace(temp, path)  # never a half-written file
    return preset
