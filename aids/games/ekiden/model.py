"""Ekiden values: terrain, runners, teams, the setup, the actions and the immutable state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.games.ekiden.data import load

Slope = Literal["up", "down", "flat"]
SLOPES: tuple[Slope, ...] = ("up", "down", "flat")
Skill = Literal["uphill", "downhill", "outbound", "return", "anchor", "front_runner", "commander"]
SKILLS: tuple[Skill, ...] = (
    "uphill",
    "downhill",
    "outbound",
    "return",
    "anchor",
    "front_runner",
    "commander",
)
Mark = Literal["o", "-", "x"]
MARKS: tuple[Mark, ...] = ("o", "-", "x")
Phase = Literal["situation", "runners", "over"]
NAME_MAX = 40


def _int(raw: Mapping[str, Any], key: str, where: str) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction("ekiden/malformed", field=f"{where}{key}")
    return value


def _mapping(raw: object, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise InvalidAction("ekiden/malformed", field=where or "value")
    return raw


COURSE_VALUES: tuple[int, ...] = tuple(range(10))  # a course card half: 0 (flat) or 1–9


@dataclass(frozen=True, slots=True)
class Terrain:
    """A leg's terrain as its course-card half shows it: uphill N, downhill N, or flat."""

    slope: Slope
    n: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"slope": self.slope, "n": self.n}

    @classmethod
    def from_dict(cls, raw: object, where: str) -> Terrain:
        data = _mapping(raw, where)
        inputs.only_fields(data, ("slope", "n"), f"{where}.")
        slope = data.get("slope")
        n = _int(data, "n", f"{where}.")
        if slope not in SLOPES:
            raise InvalidAction("ekiden/malformed", field=f"{where}.slope")
        if (slope == "flat" and n != 0) or (slope != "flat" and n not in COURSE_VALUES[1:]):
            raise InvalidAction("ekiden/terrain", leg=where)
        return cls(slope, n)

    @classmethod
    def from_card_value(cls, leg: int, value: int) -> Terrain:
        """[ruling] A bare number on a course card: 上りN on legs 1–5, 下りN on legs 6–10.

        >>> Terrain.from_card_value(2, 3), Terrain.from_card_value(9, 3)
        (Terrain(slope='up', n=3), Terrain(slope='down', n=3))
        """
        if value == 0:
            return cls("flat", 0)
        return cls("up" if leg in load().outbound else "down", value)


@dataclass(frozen=True, slots=True)
class Runner:
    """A runner card: power 2–6, up and down values, and one skill or none."""

    power: int
    up: int
    down: int
    skill: Skill | None = None
    name: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"power": self.power, "up": self.up, "down": self.down}
        if self.skill is not None:
            out["skill"] = self.skill
        if self.name:
            out["name"] = self.name
        return out

    @classmethod
    def from_dict(cls, raw: object, where: str = "runner") -> Runner:
        data = _mapping(raw, where)
        inputs.only_fields(data, ("power", "up", "down", "skill", "name"), f"{where}.")
        d = load()
        power, up, down = (_int(data, k, f"{where}.") for k in ("power", "up", "down"))
        if not d.power[0] <= power <= d.power[1]:
            raise InvalidAction("ekiden/runner_power", power=power, low=d.power[0], high=d.power[1])
        if not d.up[0] <= up <= d.up[1] or not d.down[0] <= down <= d.down[1]:
            raise InvalidAction("ekiden/runner_steps", low=d.up[0], high=d.up[1])
        skill = data.get("skill")
        if skill is not None and skill not in SKILLS:
            raise InvalidAction("ekiden/runner_skill", skill=inputs.shown(skill))
        name = data.get("name", "")
        name = inputs.text(name, f"{where}.name", max_len=NAME_MAX) if name else ""
        return cls(power, up, down, skill, name)


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class EkidenSetup:
    """Teams in seat order (clockwise), the start player, and the terrain of the 10 legs."""

    teams: tuple[Team, ...]
    start: int
    course: tuple[Terrain, ...]

    def __post_init__(self) -> None:
        d = load()
        if not d.min_teams <= len(self.teams) <= d.max_teams:
            raise InvalidAction("ekiden/team_count", min=d.min_teams, max=d.max_teams)
        inputs.unique((t.name for t in self.teams), "teams")
        colours = [t.colour for t in self.teams]
        if len(set(colours)) != len(colours) or any(d.colour(c) is None for c in colours):
            raise InvalidAction("ekiden/team_colours")
        if not 0 <= self.start < len(self.teams):
            raise InvalidAction("ekiden/start_player", count=len(self.teams))
        if len(self.course) != d.legs:
            raise InvalidAction("ekiden/course", legs=d.legs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "teams": [{"name": t.name, "colour": t.colour} for t in self.teams],
            "start": self.start,
            "course": [leg.to_dict() for leg in self.course],
        }

    @classmethod
    def from_dict(cls, raw: object) -> EkidenSetup:
        data = _mapping(raw, "setup")
        inputs.only_fields(data, ("teams", "start", "course"))
        teams, course = data.get("teams"), data.get("course")
        if not isinstance(teams, list) or not all(isinstance(t, Mapping) for t in teams):
            raise InvalidAction("ekiden/malformed", field="teams")
        for i, team in enumerate(teams):
            inputs.only_fields(team, ("name", "colour"), f"teams[{i + 1}].")
        if not isinstance(course, list):
            raise InvalidAction("ekiden/malformed", field="course")
        start = data.get("start", 0)
        if not isinstance(start, int) or isinstance(start, bool):
            raise InvalidAction("ekiden/malformed", field="start")
        return cls(
            teams=tuple(
                Team(
                    inputs.text(t.get("name"), f"teams[{i + 1}].name", max_len=NAME_MAX),
                    t.get("colour") if isinstance(t.get("colour"), str) else "",
                )
                for i, t in enumerate(teams)
            ),
            start=start,
            course=tuple(
                Terrain.from_dict(leg, f"course[{i + 1}]") for i, leg in enumerate(course)
            ),
        )

    @classmethod
    def default(cls, names: list[str], start: int = 0) -> EkidenSetup:
        """Teams in palette colours on a flat course (the referee enters the real terrain)."""
        d = load()
        return cls(
            teams=tuple(
                Team(n, d.colours[i].key if i < len(d.colours) else "") for i, n in enumerate(names)
            ),
            start=start,
            course=tuple(Terrain("flat") for _ in range(d.legs)),
        )


# --- actions -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roster:
    """A team's 10 drafted runners (scout stage; optional). The team's seat or the referee."""

    team: int
    runners: tuple[Runner, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "roster", "team": self.team, "runners": [r.to_dict() for r in self.runners]}


@dataclass(frozen=True, slots=True)
class Situation:
    """Chance: the situation card revealed for a leg, its marks for leg ranks 1–5."""

    leg: int
    marks: tuple[Mark, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "situation", "leg": self.leg, "marks": "".join(self.marks)}


@dataclass(frozen=True, slots=True)
class Run:
    """A team plays a runner for a leg: from its roster (``pick``, 0-based) or typed in."""

    team: int
    leg: int
    pick: int | None = None
    runner: Runner | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "run", "team": self.team, "leg": self.leg}
        if self.pick is not None:
            out["pick"] = self.pick
        if self.runner is not None:
            out["runner"] = self.runner.to_dict()
        return out


Action = Roster | Situation | Run
ACTION_FIELDS = {
    "roster": ("type", "team", "runners"),
    "situation": ("type", "leg", "marks"),
    "run": ("type", "team", "leg", "pick", "runner"),
}


def action_from_dict(raw: object) -> Action:
    """Parse a stored or submitted action; a malformed one names the field, and so does a
    field the action does not have (refused, never dropped)."""
    data = _mapping(raw, "action")
    kind = data.get("type")
    if isinstance(kind, str) and kind in ACTION_FIELDS:
        inputs.only_fields(data, ACTION_FIELDS[kind])
    if kind == "roster":
        runners = data.get("runners")
        if not isinstance(runners, list) or len(runners) > 20:
            raise InvalidAction("ekiden/malformed", field="runners")
        return Roster(
            _int(data, "team", ""),
            tuple(Runner.from_dict(r, f"runners[{i + 1}]") for i, r in enumerate(runners)),
        )
    if kind == "situation":
        marks = data.get("marks")
        if not isinstance(marks, str) or len(marks) != 5 or any(m not in MARKS for m in marks):
            raise InvalidAction("ekiden/marks")
        return Situation(_int(data, "leg", ""), tuple(marks))  # type: ignore[arg-type]
    if kind == "run":
        pick = data.get("pick")
        runner = data.get("runner")
        if (pick is None) == (runner is None):
            raise InvalidAction("ekiden/run_choice")
        if pick is not None and (not isinstance(pick, int) or isinstance(pick, bool)):
            raise InvalidAction("ekiden/malformed", field="pick")
        return Run(
            _int(data, "team", ""),
            _int(data, "leg", ""),
            pick,
            Runner.from_dict(runner) if runner is not None else None,
        )
    raise InvalidAction("ekiden/malformed", field="type")


# --- state -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """Where a piece stands: its column (0 = start, + ahead) and its slot from the centre line
    (0 = nearest). Its side of the line is the same for every piece: see ``EkidenState``."""

    column: int
    slot: int


@dataclass(frozen=True, slots=True)
class Entry:
    """One team's runner in one leg, with the declared power's breakdown and the result."""

    team: int
    runner: Runner
    pick: int | None
    order: int  # 0 = played first
    skill_bonus: int
    commander_bonus: int
    declared: int
    rank: int = 0  # the leg rank given out (1, 3, 5 with three teams)
    mark: Mark | None = None
    move: int = 0
    place: Place | None = None
    standing: int = 0  # after the leg


@dataclass(frozen=True, slots=True)
class EkidenState:
    """Everything the rules need; a new one per accepted action.

    ``leg`` is the leg being run (1–10). Pieces sit left of the centre line before leg 1 and
    cross it every leg, so after leg k they sit right of it when k is odd.
    """

    setup: EkidenSetup
    leg: int
    phase: Phase
    places: tuple[Place, ...]  # per team
    rosters: tuple[tuple[Runner, ...] | None, ...]
    used: tuple[frozenset[int], ...]  # roster picks already run, per team
    marks: tuple[Mark, ...] | None  # the current leg's situation card
    entries: tuple[Entry, ...]  # the current leg's runners, in play order
    commander: tuple[int, ...]  # bonus waiting for each team's next runner
    history: tuple[tuple[Entry, ...], ...]  # finished legs, each in leg-rank order

    @property
    def teams(self) -> int:
        return len(self.setup.teams)
