"""Grand National's actions: each a value object with its own ``to_dict``, and
``action_from_dict``, the one parser of a submitted or stored action (a malformed one names
its field). ``aids.games.grand_national.model`` offers every name here too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.games.grand_national.data import Odds, load
from aids.games.grand_national.values import EFFECTS, Kind, mapping_of, odds_of, whole


@dataclass(frozen=True, slots=True)
class BlindBet:
    """A seat's secret bet before the going is known (stake 0: no blind bet)."""

    seat: int
    horse: int | None
    kind: Kind | None
    stake: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "blind_bet", "seat": self.seat, "horse": self.horse, "kind": self.kind,
                "stake": self.stake}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Going:
    """Chance: the spinner's going."""

    going: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "going", "going": self.going}


@dataclass(frozen=True, slots=True)
class LaneSpin:
    """Chance: the stable (colour) the spinner gives the inside of lane ``lane`` (1–4)."""

    lane: int
    colour: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "lane_spin", "lane": self.lane, "colour": self.colour}


@dataclass(frozen=True, slots=True)
class SetHandicap:
    """The referee's adjusted handicap mark for the going (before the start)."""

    horse: int
    mark: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "handicap", "horse": self.horse, "mark": self.mark}


@dataclass(frozen=True, slots=True)
class SetOdds:
    """The bookmaker posts a horse's Win and Show odds."""

    horse: int
    win: Odds
    show: Odds

    def to_dict(self) -> dict[str, Any]:
        return {"type": "odds", "horse": self.horse, "win": self.win.to_list(),
                "show": self.show.to_list()}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Bet:
    """A bet at the posted odds, before the start."""

    seat: int
    horse: int
    kind: Kind
    stake: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "bet", "seat": self.seat, "horse": self.horse, "kind": self.kind,
                "stake": self.stake}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Start:
    """The referee starts the race: the odds board and bets close."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "start"}


@dataclass(frozen=True, slots=True)
class Spin:
    """Chance: the spinner's stable for the next cap's horses (turns after the first)."""

    colour: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "spin", "colour": self.colour}


@dataclass(frozen=True, slots=True)
class Move:
    """The horse to move goes ``forward`` lengths and ends in ``lane``; ``blocked``: it could
    not move its full amount."""

    horse: int
    forward: int
    lane: int
    blocked: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "move", "horse": self.horse, "forward": self.forward,
                               "lane": self.lane}  # fmt: skip
        if self.blocked:
            out["blocked"] = True
        return out


@dataclass(frozen=True, slots=True)
class Boxed:
    """The horse to move is boxed in: it forfeits its turn and burns 1 speed point."""

    horse: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "boxed", "horse": self.horse}


@dataclass(frozen=True, slots=True)
class Card:
    """A drawn card's effect as the referee enters it. ``advance``: ``value`` lengths
    (``moved`` if blocked short of them; ``lane`` if it changes lane); ``penalty``, ``handicap``
    and ``speed``: ``value`` is the change (±); the others take no value."""

    horse: int
    effect: str
    value: int = 0
    lane: int | None = None
    moved: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "card", "horse": self.horse, "effect": self.effect}
        if self.value:
            out["value"] = self.value
        if self.lane is not None:
            out["lane"] = self.lane
        if self.moved is not None:
            out["moved"] = self.moved
        return out


@dataclass(frozen=True, slots=True)
class PullUp:
    """A horse is pulled up at its owner's choice."""

    horse: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pull_up", "horse": self.horse}


Action = (
    BlindBet
    | Going
    | LaneSpin
    | SetHandicap
    | SetOdds
    | Bet
    | Start
    | Spin
    | Move
    | Boxed
    | Card
    | PullUp
)


def _kind(raw: object, field: str = "kind") -> Kind:
    if raw not in ("win", "show"):
        raise InvalidAction("gn/bet_kind", field=field)
    return "win" if raw == "win" else "show"


ACTION_FIELDS = {
    "blind_bet": ("type", "seat", "horse", "kind", "stake"),
    "going": ("type", "going"),
    "lane_spin": ("type", "lane", "colour"),
    "handicap": ("type", "horse", "mark"),
    "odds": ("type", "horse", "win", "show"),
    "bet": ("type", "seat", "horse", "kind", "stake"),
    "start": ("type",),
    "spin": ("type", "colour"),
    "move": ("type", "horse", "forward", "lane", "blocked"),
    "boxed": ("type", "horse"),
    "card": ("type", "horse", "effect", "value", "lane", "moved"),
    "pull_up": ("type", "horse"),
}
# A card's effect takes only its own fields: ``{"effect": "fall", "value": 5}`` is a slip.
CARD_FIELDS = {
    "advance": ("value", "lane", "moved"),
    "penalty": ("value",),
    "handicap": ("value",),
    "speed": ("value",),
}


def action_from_dict(raw: object) -> Action:
    """Parse a stored or submitted action; a malformed one names the field, and so does a
    field the action does not have (refused, never dropped)."""
    data = mapping_of(raw, "action")
    kind = data.get("type")
    if isinstance(kind, str) and kind in ACTION_FIELDS:
        inputs.only_fields(data, ACTION_FIELDS[kind])
    if kind == "blind_bet":
        stake = whole(data, "stake")
        if stake == 0:  # no blind bet: a horse or a kind with it is a slip, not dropped
            for name in ("horse", "kind"):
                if data.get(name) is not None:
                    raise InvalidAction("gn/malformed", field=name)
            return BlindBet(whole(data, "seat"), None, None, 0)
        return BlindBet(whole(data, "seat"), whole(data, "horse"), _kind(data.get("kind")), stake)
    if kind == "going":
        going = data.get("going")
        if going not in load().goings:
            raise InvalidAction("gn/going", going=inputs.shown(going))
        return Going(str(going))
    if kind == "lane_spin":
        colour = data.get("colour")
        if not isinstance(colour, str):
            raise InvalidAction("gn/malformed", field="colour")
        return LaneSpin(whole(data, "lane"), colour)
    if kind == "handicap":
        return SetHandicap(whole(data, "horse"), whole(data, "mark"))
    if kind == "odds":
        return SetOdds(whole(data, "horse"), odds_of(data.get("win"), "win"),
                       odds_of(data.get("show"), "show"))  # fmt: skip
    if kind == "bet":
        return Bet(whole(data, "seat"), whole(data, "horse"), _kind(data.get("kind")),
                   whole(data, "stake"))  # fmt: skip
    if kind == "start":
        return Start()
    if kind == "spin":
        colour = data.get("colour")
        if not isinstance(colour, str):
            raise InvalidAction("gn/malformed", field="colour")
        return Spin(colour)
    if kind == "move":
        blocked = data.get("blocked", False)
        if not isinstance(blocked, bool):
            raise InvalidAction("gn/malformed", field="blocked")
        return Move(whole(data, "horse"), whole(data, "forward"), whole(data, "lane"), blocked)
    if kind == "boxed":
        return Boxed(whole(data, "horse"))
    if kind == "card":
        effect = data.get("effect")
        if effect not in EFFECTS:
            raise InvalidAction("gn/effect", effect=inputs.shown(effect))
        inputs.only_fields(data, ("type", "horse", "effect", *CARD_FIELDS.get(str(effect), ())))
        value = data.get("value", 0)
        lane, moved = data.get("lane"), data.get("moved")
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidAction("gn/malformed", field="value")
        for name, v in (("lane", lane), ("moved", moved)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise InvalidAction("gn/malformed", field=name)
        return Card(whole(data, "horse"), str(effect), value, lane, moved)
    if kind == "pull_up":
        return PullUp(whole(data, "horse"))
    raise InvalidAction("gn/malformed", field="type")
