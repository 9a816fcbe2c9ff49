"""What a game's page module is handed on each run (``TableContext``) and what it provides
(``GamePage``). Kept apart from the frame so the frame's parts can use it without a cycle."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from aids import registry
from aids.core.i18n import Lang
from aids.games.base import AnyGame, Role
from aids.tables import LogEntry, Snapshot
from aids.ui.common import run_write, service
from aids.ui.standings import Row


@dataclass(frozen=True, slots=True)
class TableContext:
    """One run of a table page: the snapshot as this reader may see it, and how to write."""

    snapshot: Snapshot
    key: str | None
    game: AnyGame
    lang: Lang

    @property
    def role(self) -> Role:
        return self.snapshot.role

    @property
    def state(self) -> Any:
        return self.snapshot.state

    @property
    def can_write(self) -> bool:
        return not self.role.is_viewer

    @property
    def latest(self) -> LogEntry | None:
        """The newest action in force that this reader may see (the board marks it)."""
        return latest_action(self.snapshot)

    def write_from(self, build: Callable[[], Any | None]) -> Callable[[], None]:
        """A widget callback that builds its action when clicked, from the widgets' values at
        that moment (``st.session_state``): a number typed but not yet committed when the
        button is clicked, or a choice made during a rerun, is not lost."""
        pid, key, seq = self.snapshot.info.public_id, self.key, self.snapshot.seq

        def click() -> None:
            action = build()
            if action is not None:
                run_write(lambda: service().record(pid, key, seq, action))

        return click

    def write(self, action: Any) -> Callable[[], None]:
        """A widget callback that records ``action`` against the sequence this page was drawn
        from (a double click or a second device gets "refreshed, try again")."""
        pid, key, seq = self.snapshot.info.public_id, self.key, self.snapshot.seq
        return lambda: run_write(lambda: service().record(pid, key, seq, action))


@dataclass(frozen=True, slots=True)
class StatusLine:
    """One line of news for the table (``GamePage.status``): whose turn, where the race
    stands, or how it ended (``done``)."""

    text: str
    done: bool = False


@dataclass(frozen=True, slots=True)
class Standings:
    """Who leads, as a game's page gives it (``GamePage.standings``) to whoever draws it: the
    table page, the live view, the wall. ``head`` are plain words, each row's cells ready-made
    HTML (``aids.ui.standings.Row``); ``title`` the game's own word for them ("" for
    "Standings"); ``note`` a plain line under the table (a team's points, say)."""

    head: tuple[str, ...]
    rows: tuple[Row, ...]
    title: str = ""
    note: str = ""


class GamePage(Protocol):
    """What a game's page module provides (``aids/ui/<kind>/page.py``).

    A module may also define ``setup_before_form(lang)``: inputs drawn above the create form
    whose choices the form's fields depend on (a map file, say): they rerun at once.
    """

    def setup_fields(self, lang: Lang) -> dict[str, Any]:
        """Draw the setup inputs (inside the create form); return the raw setup dict."""
        ...

    def status(self, ctx: TableContext) -> list[StatusLine]:
        """Whose turn, where the race stands, or how it ended: usually one line. Plain text
        (no markup): the page shows it in a banner, the live view and the wall as they
        are."""
        ...

    def controls(self, ctx: TableContext) -> None:
        """The record controls for ``ctx.role``, offering only what the engine allows."""
        ...

    def standings(self, ctx: TableContext) -> Standings:
        """Who leads, one row per player (or team, or horse), best first; the frame draws
        it where a phone's first screen shows it, the reader's own seat marked."""
        ...

    def board(self, ctx: TableContext) -> None:
        """The board (read-only; also the viewer's page)."""
        ...

    def board_top(self, ctx: TableContext) -> str:
        """The top of the board as HTML with its own styles and no widgets (a track, a
        road, a map): the live view and the wall show it; the page's ``board`` draws it
        with the rest."""
        ...


def page_for(kind: str) -> GamePage:
    return cast(GamePage, registry.page_module(kind))


def latest_action(snapshot: Snapshot) -> LogEntry | None:
    """The action whose effect the board shows last: the newest one still in force (an undo
    takes its action back, a redo puts it back) that this reader may see."""
    for entry in reversed(snapshot.log):
        if entry.kind == "action" and not entry.undone:
            return None if entry.sealed or entry.action is None else entry
    return None
