"""Rally values: machines, players, the setup, the actions and the immutable state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.games.base import fresh_seed
from aids.games.rally.board import RallyMap, sample_map
from aids.games.rally.data import load

Mode = Literal["tracking", "simulation"]
MODES: tuple[Mode, ...] = ("tracking", "simulation")
Phase = Literal["draw", "act", "over"]
NAME_MAX = 40
TEAM_MAX = 7
SETUP_FIELDS = ("players", "start_player", "course", "mode", "map", "teams", "seed")


def _mapping(raw: object, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise InvalidAction("rally/malformed", field=where or "value")
    return raw


def _int(raw: Mapping[str, Any], key: str, where: str = "") -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction("rally/malformed", field=f"{where}{key}")
    return value


def _cards(raw: Mapping[str, Any], key: str, most: int = 12) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or len(value) > most:
        raise InvalidAction("rally/malformed", field=key)
    for card in value:
        if not isinstance(card, str) or load().card(card) is None:
            raise InvalidAction("rally/unknown_card", card=inputs.shown(card))
    return tuple(value)


@dataclass(frozen=True, slots=True)
class Machine:
    """A machine card's three numbers: actions per turn, hand size, cards drawn per turn."""

    actions: int
    hand: int
    draw: int

    def __post_init__(self) -> None:
        d = load()
        for name, value, (low, high) in (
            ("actions", self.actions, d.actions),
            ("hand", self.hand, d.hand),
            ("draw", self.draw, d.draw),
        ):
            if not low <= value <= high:
                raise InvalidAction("rally/machine", field=name, low=low, high=high)

    def to_dict(self) -> dict[str, Any]:
        return {"actions": self.actions, "hand": self.hand, "draw": self.draw}

    @classmethod
    def from_dict(cls, raw: object, where: str) -> Machine:
        data = _mapping(raw, where)
        inputs.only_fields(data, ("actions", "hand", "draw"), f"{where}.")
        return cls(*(_int(data, k, f"{where}.") for k in ("actions", "hand", "draw")))

    def text(self) -> str:
        """``3 / 5 / 2``: actions / hand / draw, as the setup form and sheets show it."""
        return f"{self.actions} / {self.hand} / {self.draw}"


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    colour: str
    machine: Machine
    team: int | None = None


@dataclass(frozen=True, slots=True)
class RallySetup:
    """Players in seat order (clockwise) with their machines, teams (none = individual play),
    the start player, the course's start and goal towns, the map, and the mode.

    ``tracking`` follows a real table (the app knows counts, not hands); ``simulation`` deals
    the real 104-card deck, shuffled with ``seed``.
    """

    players: tuple[Player, ...]
    start_player: int
    start: str
    goal: str
    board: RallyMap = field(compare=True)
    teams: tuple[str, ...] = ()
    mode: Mode = "tracking"
    seed: int | None = None

    def __post_init__(self) -> None:
        d = load()
        if not d.min_players <= len(self.players) <= d.max_players:
            raise InvalidAction("rally/player_count", min=d.min_players, max=d.max_players)
        inputs.unique((p.name for p in self.players), "players")
        colours = [p.colour for p in self.players]
        if len(set(colours)) != len(colours) or any(d.colour(c) is None for c in colours):
            raise InvalidAction("rally/colours")
        if not 0 <= self.start_player < len(self.players):
            raise InvalidAction("rally/start_player", count=len(self.players))
        for town in (self.start, self.goal):
            if not self.board.has(town):
                raise InvalidAction("rally/unknown_town", town=inputs.shown(town))
        if self.start == self.goal:
            raise InvalidAction("rally/course_same", town=self.start)
        if self.teams:
            inputs.unique(self.teams, "teams")
            if not 2 <= len(self.teams) <= len(self.players):
                raise InvalidAction("rally/teams", count=len(self.players))
            used = {p.team for p in self.players}
            if None in used or used != set(range(len(self.teams))):
                raise InvalidAction("rally/teams", count=len(self.players))
        elif any(p.team is not None for p in self.players):
            raise InvalidAction("rally/teams", count=len(self.players))
        if self.mode not in MODES:
            raise InvalidAction("rally/malformed", field="mode")
        if self.mode == "simulation" and not isinstance(self.seed, int):
            raise InvalidAction("rally/malformed", field="seed")

    def to_dict(self) -> dict[str, Any]:
        players = []
        for p in self.players:
            row: dict[str, Any] = {"name": p.name, "colour": p.colour}
            row["machine"] = p.machine.to_dict()
            if p.team is not None:
                row["team"] = p.team
            players.append(row)
        out: dict[str, Any] = {
            "players": players,
            "start_player": self.start_player,
            "course": {"start": self.start, "goal": self.goal},
            "mode": self.mode,
            "map": self.board.to_dict(),
        }
        if self.teams:
            out["teams"] = list(self.teams)
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_dict(cls, raw: object) -> RallySetup:
        data = _mapping(raw, "setup")
        inputs.only_fields(data, SETUP_FIELDS)
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, Mapping) for p in players):
            raise InvalidAction("rally/malformed", field="players")
        if len(players) > load().max_players:
            raise InvalidAction("rally/player_count", min=load().min_players,
                                max=load().max_players)  # fmt: skip
        teams = data.get("teams", [])
        if not isinstance(teams, list) or len(teams) > TEAM_MAX:
            raise InvalidAction("rally/malformed", field="teams")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise InvalidAction("rally/malformed", field="seed")
        board = sample_map() if data.get("map") is None else RallyMap.from_dict(data["map"])
        if data.get("course") is None and board.courses:  # the map's first named course
            course: Mapping[str, Any] = board.courses[0].to_dict()
        else:
            course = _mapping(data.get("course"), "course")
            inputs.only_fields(course, ("start", "goal"), "course.")
        parsed = []
        for i, p in enumerate(players):
            where = f"players[{i + 1}]"
            inputs.only_fields(p, ("name", "colour", "machine", "team"), f"{where}.")
            team = p.get("team")
            if team is not None and (not isinstance(team, int) or isinstance(team, bool)):
                raise InvalidAction("rally/malformed", field=f"{where}.team")
            colour = p.get("colour")
            parsed.append(
                Player(
                    inputs.text(p.get("name"), f"{where}.name", max_len=NAME_MAX),
                    colour if isinstance(colour, str) else "",
                    Machine.from_dict(p.get("machine"), f"{where}.machine"),
                    team,
                )
            )
        start = data.get("start_player", 0)
        if not isinstance(start, int) or isinstance(start, bool):
            raise InvalidAction("rally/malformed", field="start_player")
        mode = data.get("mode", "tracking")
        return cls(
            players=tuple(parsed),
            start_player=start,
            start=course.get("start"),  # type: ignore[arg-type]  # checked in __post_init__
            goal=course.get("goal"),  # type: ignore[arg-type]
            board=board,
            teams=tuple(
                inputs.text(name, f"teams[{i + 1}]", max_len=NAME_MAX)
                for i, name in enumerate(teams)
            ),
            mode=mode,  # checked in __post_init__
            seed=seed,
        )

    @classmethod
    def default(
        cls, names: list[str], *, mode: Mode = "tracking", seed: int | None = None
    ) -> RallySetup:
        """Balanced machines on the sample map's first course, individual play."""
        d = load()
        preset = d.presets[0]
        machine = Machine(preset.actions, preset.hand, preset.draw)
        board = sample_map()
        course = board.courses[0]
        return cls(
            players=tuple(
                Player(n, d.colours[i].key if i < len(d.colours) else "", machine)
                for i, n in enumerate(names)
            ),
            start_player=0,
            start=course.start,
            goal=course.goal,
            board=board,
            mode=mode,
            seed=(fresh_seed() if seed is None else seed) if mode == "simulation" else None,
        )


# --- actions -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """The seat to act draws its machine's number of cards (in tracking mode: confirms it)."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Travel:
    """One movement: the travel cards played together (TOP SPEED at most once) and the town
    the car stops at; with ``end``, the turn ends after it in the same write ("Move and end
    turn": one record, never half done), checked as the movement then ``EndTurn``."""

    seat: int
    cards: tuple[str, ...]
    to: str
    end: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "travel",
            "seat": self.seat,
            "cards": list(self.cards),
            "to": self.to,
        }
        # the flag as given (a caller's "yes" is refused by the parser, never read as true)
        return out if self.end is False else out | {"end": self.end}


@dataclass(frozen=True, slots=True)
class Attack:
    """An ATTACK card on another car: ``jam`` (at the target's town), ``rain``, ``engine``,
    ``police``."""

    seat: int
    card: str
    target: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "attack", "seat": self.seat, "card": self.card, "target": self.target}


@dataclass(frozen=True, slots=True)
class Defend:
    """A DEFENSE card: ``jam_clear`` names a town; ``clear_sky`` and ``repair`` a car."""

    seat: int
    card: str
    target: int | None = None
    town: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "defend", "seat": self.seat, "card": self.card}
        if self.target is not None:
            out["target"] = self.target
        if self.town is not None:
            out["town"] = self.town
        return out


@dataclass(frozen=True, slots=True)
class Ferry:
    """A car that began its turn at a port crosses instead of acting; with ``end``, the turn
    ends after it in the same write (the crossing is the whole turn: one record), checked as
    the crossing then ``EndTurn``."""

    seat: int
    to: str
    end: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "ferry", "seat": self.seat, "to": self.to}
        return out if self.end is False else out | {"end": self.end}


@dataclass(frozen=True, slots=True)
class EndTurn:
    """The turn ends; in a simulation ``discard`` lists the cards thrown down to the hand size
    (as others see it: ``discard_count`` only)."""

    seat: int
    discard: tuple[str, ...] = ()
    discard_count: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "end_turn", "seat": self.seat}
        if self.discard:
            out["discard"] = list(self.discard)
        return out


@dataclass(frozen=True, slots=True)
class EndRace:
    """The referee ends the race: cars still on the road are placed by distance to the goal."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "end_race"}


Action = Draw | Travel | Attack | Defend | Ferry | EndTurn | EndRace
ACTION_FIELDS = {
    "draw": ("type", "seat"),
    "travel": ("type", "seat", "cards", "to", "end"),
    "attack": ("type", "seat", "card", "target"),
    "defend": ("type", "seat", "card", "target", "town"),
    "ferry": ("type", "seat", "to", "end"),
    "end_turn": ("type", "seat", "discard"),
    "end_race": ("type",),
}


def action_from_dict(raw: object) -> Action:
    """Parse a stored or submitted action; a malformed one names the field, and so does a
    field the action does not have (refused, never dropped)."""
    data = _mapping(raw, "action")
    kind = data.get("type")
    if isinstance(kind, str) and kind in ACTION_FIELDS:
        inputs.only_fields(data, ACTION_FIELDS[kind])
    if kind == "end_race":
        return EndRace()
    seat = _int(data, "seat")
    if kind == "draw":
        return Draw(seat)
    if kind == "travel":
        to = data.get("to")
        if not isinstance(to, str):
            raise InvalidAction("rally/malformed", field="to")
        return Travel(seat, _cards(data, "cards"), to, _end(data))
    if kind in ("attack", "defend"):
        card = data.get("card")
        if not isinstance(card, str) or load().card(card) is None:
            raise InvalidAction("rally/unknown_card", card=inputs.shown(card))
        if kind == "attack":
            return Attack(seat, card, _int(data, "target"))
        target = data.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise InvalidAction("rally/malformed", field="target")
        town = data.get("town")
        if town is not None and not isinstance(town, str):
            raise InvalidAction("rally/malformed", field="town")
        return Defend(seat, card, target, town)
    if kind == "ferry":
        to = data.get("to")
        if not isinstance(to, str):
            raise InvalidAction("rally/malformed", field="to")
        return Ferry(seat, to, _end(data))
    if kind == "end_turn":
        return EndTurn(seat, _cards(data, "discard", most=20))
    raise InvalidAction("rally/malformed", field="type")


def _end(data: Mapping[str, Any]) -> bool:
    """The ``end`` flag of a movement or a crossing: a bool, absent = False."""
    end = data.get("end", False)
    if not isinstance(end, bool):
        raise InvalidAction("rally/malformed", field="end")
    return end


# --- state -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn as a car's log sheet shows it: the statuses it began with, every card played
    with its aim (``None`` for travel cards, the target seat, or a jammed town cleared), the
    km, from → to."""

    seat: int
    round: int
    start: str
    status: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    aims: tuple[int | str | None, ...] = ()
    km: int = 0
    to: str = ""
    ferry: bool = False
    missed: bool = False

    @property
    def end(self) -> str:
        return self.to or self.start


@dataclass(frozen=True, slots=True)
class RallyState:
    """Everything the rules need; a new one per accepted action.

    Card piles are counted in both modes; a simulation also knows each card (``pile`` top
    first, ``hands``, ``discard``), which only the referee and each hand's owner may see.
    """

    setup: RallySetup
    round: int
    turn: int
    phase: Phase
    towns: tuple[str, ...]
    rain: tuple[bool, ...]
    engine: tuple[bool, ...]
    police: tuple[int, ...]  # turns still to miss
    jams: frozenset[str]
    arrived: tuple[int, ...]  # seats, in order of arrival
    actions_left: int
    moved: bool
    current: TurnRecord
    turns: tuple[TurnRecord, ...]  # finished turns, oldest first
    hand_sizes: tuple[int, ...]
    pile_size: int
    discard_size: int
    hands: tuple[tuple[str, ...], ...] = ()  # simulation only, each sorted
    pile: tuple[str, ...] = ()  # simulation only, top first
    discard: tuple[str, ...] = ()  # simulation only, sorted
    reshuffles: int = 0
    ended: bool = False

    @property
    def players(self) -> int:
        return len(self.setup.players)

    @property
    def simulation(self) -> bool:
        return self.setup.mode == "simulation"

    def machine(self, seat: int) -> Machine:
        return self.setup.players[seat].machine
