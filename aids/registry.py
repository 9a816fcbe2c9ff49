"""The one place games are registered: each game's engine, page module and sheet module.

Adding a game = its folder under ``aids/games/``, its page module (in its folder
``aids/ui/<kind>/``), its sheet module (in ``aids/print/<kind>/``) and its message files, plus
one ``GameEntry`` line here. Everything else (home page, print page, CLI,
table service) lists games from this registry and never names one. A game that lives outside
the package (the tests' fake game, a plugin) is added with ``AIDS_GAME_PLUGINS``: a comma-
separated list of modules, each with an ``ENTRY``.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from aids.core.errors import InvalidAction
from aids.core.i18n import add_catalogue_dir
from aids.games.base import AnyGame
from aids.games.derby import GAME as DERBY
from aids.games.ekiden import GAME as EKIDEN
from aids.games.grand_national import GAME as GRAND_NATIONAL
from aids.games.rally import GAME as RALLY
from aids.tables import TableService


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A registered game: its engine and the modules of its page and its sheet.

    The modules are named, not imported, so a command that never draws a page never imports
    Streamlit. ``messages`` is a catalogue folder of a game outside ``templates/``.
    """

    game: AnyGame
    page: str
    sheet: str
    messages: Path | None = None

    @property
    def kind(self) -> str:
        return self.game.info.kind


BUILT_IN: tuple[GameEntry, ...] = (
    GameEntry(DERBY, page="aids.ui.derby.page", sheet="aids.print.derby.sheet"),
    GameEntry(EKIDEN, page="aids.ui.ekiden.page", sheet="aids.print.ekiden.sheet"),
    GameEntry(RALLY, page="aids.ui.rally.page", sheet="aids.print.rally.sheet"),
    GameEntry(GRAND_NATIONAL, page="aids.ui.gn.page", sheet="aids.print.gn.sheet"),
)


def entries() -> dict[str, GameEntry]:
    """Every game this process knows, by kind: the built-in ones, then plugins."""
    found = {entry.kind: entry for entry in BUILT_IN}
    for name in filter(None, os.environ.get("AIDS_GAME_PLUGINS", "").split(",")):
        try:
            entry = importlib.import_module(name.strip()).ENTRY
        except (ImportError, AttributeError) as exc:
            detail = f"{type(exc).__name__}: {exc}"[:200]
            raise InvalidAction("table/plugin", module=name.strip()[:80], detail=detail) from None
        if not isinstance(entry, GameEntry) or entry.kind in found:
            # a plugin never replaces a game: its tables would be replayed by other rules
            raise InvalidAction("table/plugin", module=name.strip()[:80], detail="ENTRY")
        if entry.messages is not None:
            add_catalogue_dir(entry.messages)
        found[entry.kind] = entry
    return found


def engines() -> dict[str, AnyGame]:
    """The engines the table service is handed."""
    return {kind: entry.game for kind, entry in entries().items()}


def entry(kind: str) -> GameEntry:
    try:
        return entries()[kind]
    except KeyError:
        raise InvalidAction("table/unknown_game", kind=str(kind)[:40]) from None


def page_module(kind: str) -> ModuleType:
    return importlib.import_module(entry(kind).page)


def sheet_module(kind: str) -> ModuleType:
    return importlib.import_module(entry(kind).sheet)


def open_service() -> TableService:
    """The service on the configured store (``aids.store.open_store``: PostgreSQL at
    ``AIDS_DATABASE_URL``, else the SQLite file ``AIDS_DB`` or ``data/aids.sqlite3``)."""
    from aids.store import open_store

    return TableService(open_store(), engines())
