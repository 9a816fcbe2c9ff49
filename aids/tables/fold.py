"""The log folded into states: actions, undos and redos replayed through the game's ``apply``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aids.core.errors import AidsError, InvalidAction, RuleViolation
from aids.games.base import AnyGame, Role
from aids.store.base import EventRow, TableRow


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the audit trail: an action (maybe undone), an undo or a redo.

    ``action`` is ``None`` for undo/redo, and for an action the reader may not see yet
    (``sealed``: a secret choice still held).
    """

    seq: int
    kind: str
    action: Any | None
    undone: bool
    created_at: str
    actor: Role
    target: int | None = None  # for undo/redo: the seq of the action it affected
    sealed: bool = False


@dataclass(slots=True)
class Fold:
    """A stack of applied actions' states and a redo stack, stepped one stored event at a time."""

    game: AnyGame
    seq: int
    states: list[Any]
    seats: tuple[str, ...] = ()  # the seat names of the setup
    applied: list[int] = field(default_factory=list)  # seqs of the actions in force
    redo: list[tuple[int, Any]] = field(default_factory=list)  # (seq, state) undone, latest last
    entries: list[LogEntry] = field(default_factory=list)

    @property
    def state(self) -> Any:
        return self.states[-1]

    def step(self, event: EventRow, action: Any | None = None) -> None:
        """Apply one stored event; raises if the log is not a legal history.

        ``action`` is the event's payload already parsed (a write parses it once).
        """
        if event.seq != self.seq + 1:
            raise InvalidAction("import/seq", seq=event.seq)
        actor = Role.parse(event.actor)
        if event.kind == "action":
            if action is None:
                action = self.game.action_from_dict(event.payload)
            self.states.append(self.game.apply(self.state, action, actor))
            self.applied.append(event.seq)
            self.redo.clear()
            self.entries.append(
                LogEntry(event.seq, "action", action, False, event.created_at, actor)
            )
        elif event.kind in ("undo", "redo"):
            if not actor.is_referee:
                raise InvalidAction("import/field", field="events.actor")
            if event.kind == "undo":
                if not self.applied:
                    raise RuleViolation("table/nothing_to_undo")
                target = self.applied.pop()
                self.redo.append((target, self.states.pop()))
            else:
                if not self.redo:
                    raise RuleViolation("table/nothing_to_redo")
                target, state = self.redo.pop()
                self.applied.append(target)
                self.states.append(state)
            self.entries.append(
                LogEntry(event.seq, event.kind, None, False, event.created_at, actor, target)
            )
        else:
            raise InvalidAction("import/field", field="events.kind")
        self.seq = event.seq

    def copy(self) -> Fold:
        return Fold(
            self.game,
            self.seq,
            list(self.states),
            self.seats,
            list(self.applied),
            list(self.redo),
            list(self.entries),
        )


def start(game: AnyGame, row: TableRow) -> Fold:
    """The empty fold of a table: its setup parsed and its initial state, nothing applied."""
    if row.rules_version not in game.info.rules_versions:
        raise InvalidAction(
            "table/rules_version",
            version=row.rules_version,
            known=", ".join(map(str, game.info.rules_versions)),
        )
    setup = game.setup_from_dict(row.setup)
    first = game.initial_state_for(setup, row.rules_version)
    return Fold(game, 0, [first], game.seat_names(setup))


def fold_events(game: AnyGame, row: TableRow, events: list[EventRow]) -> Fold:
    """Replay a whole stored log; a step the rules refuse names its sequence number."""
    fold = start(game, row)
    for event in events:
        try:
            fold.step(event)
        except AidsError as exc:
            raise InvalidAction("import/replay", seq=event.seq, detail=exc.code) from exc
    return fold
