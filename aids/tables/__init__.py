"""The table service: roles and keys, the append-only log, undo/redo, replay, filtered views."""

from aids.tables.export import load_export
from aids.tables.fold import LogEntry
from aids.tables.service import NO_KEY, Access, KeyInfo, TableService
from aids.tables.snapshot import Snapshot, TableInfo

__all__ = [
    "NO_KEY",
    "Access",
    "KeyInfo",
    "LogEntry",
    "Snapshot",
    "TableInfo",
    "TableService",
    "load_export",
]
