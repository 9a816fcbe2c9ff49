"""What a reader gets: a table's info and its snapshot through ``view`` for the reader's role."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from aids.core.errors import InvalidAction
from aids.games.base import AnyGame, Game, Outcome, Role
from aids.store.base import TableRow
from aids.tables.fold import Fold, LogEntry


@dataclass(frozen=True, slots=True)
class TableInfo:
    public_id: str
    kind: str
    title: str
    created_at: str
    rules_version: int


@dataclass(frozen=True)
class Snapshot:
    """What one reader may see of a table: its state and log through ``view`` for ``role``.

    ``seq`` is the sequence number a write must name; ``to_move`` the actors who may act now.
    A snapshot holds only what ``role`` may see; the log of a write's result is filtered
    when first read (writers rarely read it), pages read snapshots whose log is built.
    """

    info: TableInfo
    role: Role
    seats: tuple[str, ...]
    seq: int
    state: Any
    can_undo: bool
    can_redo: bool
    to_move: frozenset[Role]
    outcome: Outcome | None
    _log: Callable[[], tuple[LogEntry, ...]] = field(repr=False, compare=False)
    _history: Callable[[], tuple[Any, ...]] = field(repr=False, compare=False, default=tuple)

    @cached_property
    def log(self) -> tuple[LogEntry, ...]:
        """The audit trail as ``role`` may see it: secret choices still held are sealed."""
        return self._log()

    def in_language(self, game: AnyGame, lang: str) -> Snapshot:
        """This snapshot with the names ``game`` gave by itself in ``lang``
        (``Game.in_language``), in every state of its history too: what a page, a live view
        or a sheet in ``lang`` draws from. Names people typed are unchanged."""
        if type(game).in_language is Game.in_language:  # the game names nothing itself
            return self
        return replace(
            self,
            state=game.in_language(self.state, lang),
            _log=lambda: self.log,
            _history=lambda: tuple(game.in_language(s, lang) for s in self.history),
        )

    @cached_property
    def history(self) -> tuple[Any, ...]:
        """The state before the first action and after each action in force, each through
        ``view`` for ``role`` as it was then (charts, the step-through replay, chances):
        ``history[-1]`` is ``state``. Built when first read."""
        return self._history()


def _filtered_log(fold: Fold, role: Role) -> tuple[LogEntry, ...]:
    live = set(fold.applied)
    out: list[LogEntry] = []
    for e in fold.entries:
        if e.kind != "action":
            out.append(e)
            continue
        seen = fold.game.view_action(fold.state, e.action, role)
        out.append(
            LogEntry(
                e.seq,
                e.kind,
                seen,
                e.seq not in live,
                e.created_at,
                e.actor,
                e.target,
                sealed=seen is None,
            )
        )
    return tuple(out)


def table_info(row: TableRow) -> TableInfo:
    return TableInfo(row.public_id, row.kind, row.title, row.created_at, row.rules_version)


def snapshot_of(row: TableRow, fold: Fold, role: Role, *, lazy: bool = False) -> Snapshot:
    """``role``'s snapshot. ``lazy``: the log is filtered only if read (a write's result).

    Raises ``InvalidAction("table/role_type")`` for a role that is not a ``Role`` (a Python
    caller's ``"referee"``): every read is filtered for a role, so none is guessed."""
    if not isinstance(role, Role):
        raise InvalidAction("table/role_type", type=type(role).__name__[:40])
    game = fold.game
    referee = role.is_referee
    states = tuple(fold.states)  # the fold's list grows only in a copy: this stays as it is
    history: Callable[[], tuple[Any, ...]] = lambda: tuple(game.view(s, role) for s in states)  # noqa: E731
    if lazy:
        frozen = fold.copy()
        log: Callable[[], tuple[LogEntry, ...]] = lambda: _filtered_log(frozen, role)  # noqa: E731
    else:
        entries = _filtered_log(fold, role)
        log = lambda: entries  # noqa: E731
    return Snapshot(
        table_info(row),
        role,
        fold.seats,
        fold.seq,
        game.view(fold.state, role),
        referee and bool(fold.applied),
        referee and bool(fold.redo),
        game.to_move(fold.state),
        game.outcome(fold.state),
        log,
        history,
    )
