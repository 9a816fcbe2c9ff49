"""Grand National values: horses, stables, the setup, the actions, the ledger and the state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.games.grand_national.data import Odds, load
from aids.games.grand_national.track import Track, sample_track

Order = Literal["caps", "position"]
TooFree = Literal["any_time", "round_end"]
Kind = Literal["win", "show"]
Phase = Literal["blind_bets", "going", "lanes", "market", "race", "over"]
Status = Literal["running", "finished", "fallen", "withdrawn", "pulled_up"]
EFFECTS = ("advance", "fall", "withdraw", "penalty", "second_wind", "handicap", "speed",
           "lose_turn")  # fmt: skip
BANK = -1  # a ledger party: the bank
HELD = -2  # a ledger party: stakes set aside under the betting slips
NAME_MAX = 40


def _mapping(raw: object, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise InvalidAction("gn/malformed", field=where or "value")
    return raw


def _int(raw: Mapping[str, Any], key: str, where: str = "") -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction("gn/malformed", field=f"{where}{key}")
    return value


def _odds(raw: object, field: str) -> Odds:
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise InvalidAction("gn/malformed", field=field)
    try:
        return Odds(raw[0], raw[1])
    except ValueError:
        raise InvalidAction("gn/odds_range", field=field) from None


def _colours(raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list) or len(raw) > 12 or not all(isinstance(c, str) for c in raw):
        raise InvalidAction("gn/malformed", field="spinner")
    return tuple(raw)


@dataclass(frozen=True, slots=True)
class Horse:
    """A horse card as dealt: its name, reserve (list) price and handicap mark."""

    name: str
    price: int
    handicap: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "price": self.price, "handicap": self.handicap}


@dataclass(frozen=True, slots=True)
class Stable:
    """A player's stable: its name (the player), colour, and four horses by slot (caps)."""

    name: str
    colour: str
    horses: tuple[Horse, ...]


@dataclass(frozen=True, slots=True)
class GnSetup:
    """Stables in seat order, the bookmaker's seat, the spinner's colour ring (clockwise),
    the turn-order and running-too-free variants, and the track."""

    stables: tuple[Stable, ...]
    bookmaker: int
    track: Track
    order: Order = "caps"
    too_free: TooFree = "any_time"
    spinner: tuple[str, ...] = ()  # the spinner's colours clockwise; () = the palette's order

    def __post_init__(self) -> None:
        d = load()
        if not d.min_stables <= len(self.stables) <= d.max_stables:
            raise InvalidAction("gn/stable_count", min=d.min_stables, max=d.max_stables)
        inputs.unique((s.name for s in self.stables), "stables")
        colours = [s.colour for s in self.stables]
        if len(set(colours)) != len(colours) or any(d.colour(c) is None for c in colours):
            raise InvalidAction("gn/colours")
        if not 0 <= self.bookmaker < len(self.stables):
            raise InvalidAction("gn/bookmaker", count=len(self.stables))
        if self.order not in ("caps", "position"):
            raise InvalidAction("gn/malformed", field="order")
        if self.spinner and (
            len(set(self.spinner)) != len(self.spinner)
            or any(d.colour(c) is None for c in self.spinner)
            or not set(colours) <= set(self.spinner)
        ):
            raise InvalidAction("gn/spinner")
        if self.too_free not in ("any_time", "round_end"):
            raise InvalidAction("gn/malformed", field="too_free")
        for stable in self.stables:
            if len(stable.horses) != d.horses:
                raise InvalidAction("gn/horse_count", stable=stable.name, count=d.horses)
            for slot, horse in enumerate(stable.horses):
                if horse.price not in d.odds:
                    raise InvalidAction("gn/price", horse=horse.name, price=horse.price)
                if horse.price not in d.slot_prices[slot]:
                    raise InvalidAction(
                        "gn/stack",
                        horse=horse.name,
                        slot=slot + 1,
                        prices=" / ".join(f"{p // 1000}K" for p in d.slot_prices[slot]),
                    )
                if not d.handicap[0] <= horse.handicap <= d.handicap[1]:
                    raise InvalidAction("gn/handicap_range", horse=horse.name,
                                        low=d.handicap[0], high=d.handicap[1])  # fmt: skip
        inputs.unique((h.name for s in self.stables for h in s.horses), "horses")

    @property
    def ring(self) -> tuple[int, ...]:
        """Stables in the spinner's clockwise colour order (as entered, else the palette's)."""
        keys = list(self.spinner) or [c.key for c in load().colours]
        return tuple(
            sorted(range(len(self.stables)), key=lambda s: keys.index(self.stables[s].colour))
        )

    def horse(self, index: int) -> Horse:
        return self.stables[index // load().horses].horses[index % load().horses]

    @property
    def horse_count(self) -> int:
        return len(self.stables) * load().horses

    def to_dict(self) -> dict[str, Any]:
        return {
            "stables": [
                {"name": s.name, "colour": s.colour, "horses": [h.to_dict() for h in s.horses]}
                for s in self.stables
            ],
            "bookmaker": self.bookmaker,
            "order": self.order,
            "too_free": self.too_free,
            **({"spinner": list(self.spinner)} if self.spinner else {}),
            "track": self.track.to_dict(),
        }

    @classmethod
    def from_dict(cls, raw: object) -> GnSetup:
        data = _mapping(raw, "setup")
        inputs.only_fields(data, ("stables", "bookmaker", "order", "too_free", "spinner", "track"))
        stables = data.get("stables")
        if not isinstance(stables, list) or len(stables) > load().max_stables:
            raise InvalidAction("gn/stable_count", min=load().min_stables,
                                max=load().max_stables)  # fmt: skip
        parsed = []
        for i, s in enumerate(stables):
            where = f"stables[{i + 1}]"
            s = _mapping(s, where)
            inputs.only_fields(s, ("name", "colour", "horses"), f"{where}.")
            horses = s.get("horses")
            if not isinstance(horses, list) or len(horses) != load().horses:
                raise InvalidAction("gn/horse_count", stable=where, count=load().horses)
            for j, h in enumerate(horses):
                place = f"{where}.horses[{j + 1}]"
                inputs.only_fields(_mapping(h, place), ("name", "price", "handicap"), f"{place}.")
            colour = s.get("colour")
            parsed.append(
                Stable(
                    inputs.text(s.get("name"), f"{where}.name", max_len=NAME_MAX),
                    colour if isinstance(colour, str) else "",
                    tuple(
                        Horse(
                            inputs.text(
                                _mapping(h, f"{where}.horses[{j + 1}]").get("name"),
                                f"{where}.horses[{j + 1}].name",
                                max_len=NAME_MAX,
                            ),
                            _int(h, "price", f"{where}.horses[{j + 1}]."),
                            _int(h, "handicap", f"{where}.horses[{j + 1}]."),
                        )
                        for j, h in enumerate(horses)
                    ),
                )
            )
        track = sample_track() if data.get("track") is None else Track.from_dict(data["track"])
        return cls(
            stables=tuple(parsed),
            bookmaker=_int(data, "bookmaker") if "bookmaker" in data else 0,
            track=track,
            order=data.get("order", "caps"),
            too_free=data.get("too_free", "any_time"),
            spinner=_colours(data.get("spinner", [])),
        )

    @classmethod
    def default(cls, names: list[str]) -> GnSetup:
        """A dealt field for quick starts: each slot priced by its stack, handicap 3."""
        d = load()
        stables = []
        for i, name in enumerate(names):
            horses = tuple(
                Horse(f"{name[:12]} {d.caps[slot].title()}",
                      d.slot_prices[slot][i % len(d.slot_prices[slot])], 3)
                for slot in range(d.horses)
            )  # fmt: skip
            stables.append(Stable(name, d.colours[i % len(d.colours)].key, horses))
        return cls(tuple(stables), 0, sample_track())


# --- actions -----------------------------------------------------------------------------


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
    data = _mapping(raw, "action")
    kind = data.get("type")
    if isinstance(kind, str) and kind in ACTION_FIELDS:
        inputs.only_fields(data, ACTION_FIELDS[kind])
    if kind == "blind_bet":
        stake = _int(data, "stake")
        if stake == 0:  # no blind bet: a horse or a kind with it is a slip, not dropped
            for name in ("horse", "kind"):
                if data.get(name) is not None:
                    raise InvalidAction("gn/malformed", field=name)
            return BlindBet(_int(data, "seat"), None, None, 0)
        return BlindBet(_int(data, "seat"), _int(data, "horse"), _kind(data.get("kind")), stake)
    if kind == "going":
        going = data.get("going")
        if going not in load().goings:
            raise InvalidAction("gn/going", going=inputs.shown(going))
        return Going(str(going))
    if kind == "lane_spin":
        colour = data.get("colour")
        if not isinstance(colour, str):
            raise InvalidAction("gn/malformed", field="colour")
        return LaneSpin(_int(data, "lane"), colour)
    if kind == "handicap":
        return SetHandicap(_int(data, "horse"), _int(data, "mark"))
    if kind == "odds":
        return SetOdds(_int(data, "horse"), _odds(data.get("win"), "win"),
                       _odds(data.get("show"), "show"))  # fmt: skip
    if kind == "bet":
        return Bet(_int(data, "seat"), _int(data, "horse"), _kind(data.get("kind")),
                   _int(data, "stake"))  # fmt: skip
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
        return Move(_int(data, "horse"), _int(data, "forward"), _int(data, "lane"), blocked)
    if kind == "boxed":
        return Boxed(_int(data, "horse"))
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
        return Card(_int(data, "horse"), str(effect), value, lane, moved)
    if kind == "pull_up":
        return PullUp(_int(data, "horse"))
    raise InvalidAction("gn/malformed", field="type")


# --- state -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One transfer in the money ledger: ``amount`` dollars from a party to another (a seat,
    ``BANK`` or ``HELD``), with its reason and horse."""

    frm: int
    to: int
    amount: int
    reason: str
    horse: int | None = None


@dataclass(frozen=True, slots=True)
class Wager:
    """A bet as taken: who, on which horse, Win or Show, the stake and the odds it was taken
    at; ``blind`` ones were written before the going."""

    seat: int
    horse: int
    kind: Kind
    stake: int
    odds: Odds
    blind: bool = False


SEALED = BlindBet(-1, None, None, -1)  # another seat's blind bet, as the others see it


@dataclass(frozen=True, slots=True)
class GnState:
    """Everything the rules need; a new one per accepted action."""

    setup: GnSetup
    phase: Phase
    going: str | None
    lanes: tuple[tuple[int, ...], ...]  # per lane spun so far: stables, inside first
    handicap: tuple[int, ...]  # per horse
    used: tuple[int, ...]  # speed points struck, per horse
    penalty: tuple[int, ...]  # stamina penalties, per horse
    distance: tuple[int, ...]
    lane: tuple[int, ...]
    status: tuple[Status, ...]
    placed: tuple[int, ...]  # horses in finishing order
    odds: tuple[tuple[Odds, Odds], ...]  # posted (win, show), per horse
    blind: tuple[BlindBet | None, ...]  # per seat; SEALED as others see it
    wagers: tuple[Wager, ...]  # bets taken at the posted odds (blind ones join at settlement)
    ledger: tuple[Line, ...]
    round: int = 0
    cap: int = 0  # the cap group moving (caps order)
    group: tuple[int, ...] = ()  # that group's horses in turn order (caps order)
    moved: frozenset[int] = frozenset()
    too_free_done: frozenset[int] = frozenset()
    lose_turn: frozenset[int] = frozenset()
    card_moved: frozenset[int] = frozenset()  # last got where it is by a card
    settled: bool = False

    @property
    def horses(self) -> int:
        return self.setup.horse_count

    @property
    def seats(self) -> int:
        return len(self.setup.stables)

    def owner(self, horse: int) -> int:
        return horse // load().horses

    def top(self) -> int:
        return load().top(self.going) if self.going else load().grid

    def speed_left(self, horse: int) -> int:
        return self.top() - self.used[horse]
