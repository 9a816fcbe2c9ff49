"""Where the project's data files live (seeds, templates, output, the default data folder)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
TEMPLATES = ROOT / "templates"
OUTPUT = ROOT / "output"


def data_dir() -> Path:
    """The folder holding the SQLite file: ``AIDS_DATA_DIR`` or ``data/`` in the checkout."""
    return Path(os.environ.get("AIDS_DATA_DIR") or ROOT / "data")


def database_path() -> Path:
    """The embedded default store: ``AIDS_DB`` or ``<data dir>/aids.sqlite3``."""
    return Path(os.environ.get("AIDS_DB") or data_dir() / "aids.sqlite3")


def tracker_file() -> Path:
    """Where a running ``aids serve`` notes its port (beside the data file)."""
    return database_path().parent / "tracker.json"
