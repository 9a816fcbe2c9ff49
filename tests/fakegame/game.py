"""Sealed Sprint: a tiny fake game that proves the game seam is generic, not Derby-shaped.

It has what the Derby lacks: a simultaneous secret choice and chance. Each round every seat
commits a speed 1–3 in secret (each is held hidden until all are in), then the referee records
a die roll for chance. A seat moves its speed unless another seat chose the same speed; on a
6 the leaders slip back one. The first round that ends with a seat on the goal ends the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from aids.core import inputs
from aids.core.errors import GameOver, InvalidAction, NotYourTurn, RuleViolation
from aids.core.i18n import t
from aids.games.base import CHANCE, Game, GameInfo, Outcome, Role, rank_by_score

SPEEDS = (1, 2, 3)
DIE = (1, 2, 3, 4, 5, 6)
SEALED = 0  # in a view: "has committed, value hidden"
Phase = Literal["commit", "roll", "over"]


@dataclass(frozen=True, slots=True)
class SprintSetup:
    names: tuple[str, ...]
    goal: int = 10

    def to_dict(self) -> dict[str, Any]:
        return {"names": list(self.names), "goal": self.goal}

    @classmethod
    def from_dict(cls, raw: object) -> SprintSetup:
        if not isinstance(raw, Mapping):
            raise InvalidAction("sprint/setup", field="setup")
        inputs.only_fields(raw, ("names", "goal"))
        names, goal = raw.get("names"), raw.get("goal", 10)
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            raise InvalidAction("sprint/setup", field="names")
        if not 2 <= len(names) <= 4 or len(set(names)) != len(names):
            raise InvalidAction("sprint/setup", field="names")
        if not isinstance(goal, int) or isinstance(goal, bool) or not 3 <= goal <= 30:
            raise InvalidAction("sprint/setup", field="goal")
        return cls(tuple(n.strip() for n in names), goal)


@dataclass(frozen=True, slots=True)
class Commit:
    """A seat's secret speed for a round (the round guards against a late, stale commit)."""

    seat: int
    speed: int
    round: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "commit", "seat": self.seat, "speed": self.speed, "round": self.round}


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the die the referee saw."""

    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "roll", "value": self.value}


Action = Commit | Roll


@dataclass(frozen=True, slots=True)
class SprintState:
    setup: SprintSetup
    round: int
    phase: Phase
    positions: tuple[int, ...]
    pending: tuple[int | None, ...]  # this round's commits (None: not yet)


def _int(raw: Mapping[str, Any], key: str) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction("sprint/action", field=key)
    return value


class Sprint(Game[SprintSetup, SprintState, Action]):
    info: ClassVar[GameInfo] = GameInfo(
        kind="sprint",
        seats=(2, 4),
        rulings=("sprint.rulings.collision",),
        simultaneous=True,
        hidden=True,
        seat_keys=True,
        sheet_orientation="portrait",
    )

    def setup_from_dict(self, raw: object) -> SprintSetup:
        return SprintSetup.from_dict(raw)

    def default_setup(self, names: Sequence[str], lang: str) -> SprintSetup:
        return SprintSetup.from_dict({"names": list(names)})

    def seat_names(self, setup: SprintSetup) -> tuple[str, ...]:
        return setup.names

    def action_from_dict(self, raw: object) -> Action:
        if not isinstance(raw, Mapping):
            raise InvalidAction("sprint/action", field="action")
        fields = {"commit": ("type", "seat", "speed", "round"), "roll": ("type", "value")}
        kind = raw.get("type")
        if isinstance(kind, str) and kind in fields:
            inputs.only_fields(raw, fields[kind])
        if raw.get("type") == "commit":
            return Commit(_int(raw, "seat"), _int(raw, "speed"), _int(raw, "round"))
        if raw.get("type") == "roll":
            return Roll(_int(raw, "value"))
        raise InvalidAction("sprint/action", field="type")

    def actor_of(self, action: Action) -> Role:
        return CHANCE if isinstance(action, Roll) else Role.seat_of(action.seat)

    def initial_state(self, setup: SprintSetup) -> SprintState:
        n = len(setup.names)
        return SprintState(setup, 1, "commit", (0,) * n, (None,) * n)

    def to_move(self, state: SprintState) -> frozenset[Role]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "roll":
            return frozenset({CHANCE})
        return frozenset(Role.seat_of(i) for i, p in enumerate(state.pending) if p is None)

    def legal_actions(self, state: SprintState, actor: Role) -> Sequence[Action]:
        if actor not in self.to_move(state):
            return []
        if actor == CHANCE:
            return [Roll(v) for v in DIE]
        assert actor.seat is not None
        return [Commit(actor.seat, s, state.round) for s in SPEEDS]

    def apply(self, state: SprintState, action: Action, actor: Role) -> SprintState:
        if state.phase == "over":
            raise GameOver("sprint/over")
        if isinstance(action, Roll):
            if not actor.is_referee:
                raise RuleViolation("sprint/roll_by_referee")
            if state.phase != "roll":
                raise NotYourTurn("sprint/not_yet")
            if action.value not in DIE:
                raise InvalidAction("sprint/action", field="value")
            return self._resolve(state, action.value)
        if not 0 <= action.seat < len(state.positions):
            raise InvalidAction("sprint/action", field="seat")
        if actor != Role.seat_of(action.seat):
            raise RuleViolation("sprint/secret_by_seat")  # not even the referee
        if action.speed not in SPEEDS:
            raise InvalidAction("sprint/action", field="speed")
        if state.phase != "commit" or action.round != state.round:
            raise NotYourTurn("sprint/not_yet")
        if state.pending[action.seat] is not None:
            raise RuleViolation("sprint/once_per_round")
        pending = tuple(
            action.speed if i == action.seat else p for i, p in enumerate(state.pending)
        )
        phase: Phase = "roll" if all(p is not None for p in pending) else "commit"
        return replace(state, pending=pending, phase=phase)

    def _resolve(self, state: SprintState, roll: int) -> SprintState:
        speeds = [p or 0 for p in state.pending]
        moved = [
            pos + (s if speeds.count(s) == 1 else 0)
            for pos, s in zip(state.positions, speeds, strict=True)
        ]
        if roll == 6:
            lead = max(moved)
            moved = [max(0, m - 1) if m == lead else m for m in moved]
        over = max(moved) >= state.setup.goal
        return SprintState(
            state.setup,
            state.round if over else state.round + 1,
            "over" if over else "commit",
            tuple(moved),
            (None,) * len(moved),
        )

    def outcome(self, state: SprintState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome("goal", rank_by_score(state.positions), state.positions)

    def view(self, state: SprintState, role: Role) -> SprintState:
        if state.phase != "commit":  # once all are in, every commit is revealed
            return state
        hidden = tuple(
            p if p is None or role == Role.seat_of(i) else SEALED
            for i, p in enumerate(state.pending)
        )
        return replace(state, pending=hidden)

    def view_action(self, state: SprintState, action: Action, role: Role) -> Action | None:
        sealed = (
            isinstance(action, Commit)
            and action.round == state.round
            and state.phase == "commit"
            and role != Role.seat_of(action.seat)
        )
        return None if sealed else action

    def describe(self, state: SprintState, action: Action, lang: str) -> str:
        if isinstance(action, Roll):
            return t("sprint.log_roll", lang, value=action.value)
        name = state.setup.names[action.seat]
        return t("sprint.log_commit", lang, name=name, speed=action.speed, round=action.round)


GAME = Sprint()
