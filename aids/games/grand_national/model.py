"""Grand National values: horses, stables, the setup, the ledger and the state. The actions
are in ``aids.games.grand_national.actions`` and the small shared values in
``aids.games.grand_national.values``; this module offers their names under its own too."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.core.i18n import t
from aids.games.grand_national.actions import (
    ACTION_FIELDS,
    CARD_FIELDS,
    Action,
    Bet,
    BlindBet,
    Boxed,
    Card,
    Going,
    LaneSpin,
    Move,
    PullUp,
    SetHandicap,
    SetOdds,
    Spin,
    Start,
    action_from_dict,
)
from aids.games.grand_national.data import Odds, load
from aids.games.grand_national.track import Track, sample_track
from aids.games.grand_national.values import (
    BANK,
    EFFECTS,
    HELD,
    NAME_MAX,
    Kind,
    Order,
    Phase,
    Status,
    TooFree,
    colours_of,
    mapping_of,
    whole,
)

__all__ = [
    "ACTION_FIELDS", "BANK", "CARD_FIELDS", "EFFECTS", "HELD", "NAME_MAX", "SEALED", "Action",
    "Bet", "BlindBet", "Boxed", "Card", "GnSetup", "GnState", "Going", "Horse", "Kind",
    "LaneSpin", "Line", "Move", "Order", "Phase", "PullUp", "SetHandicap", "SetOdds", "Spin",
    "Stable", "Start", "Status", "TooFree", "Wager", "action_from_dict",
]  # fmt: skip


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
        data = mapping_of(raw, "setup")
        inputs.only_fields(data, ("stables", "bookmaker", "order", "too_free", "spinner", "track"))
        stables = data.get("stables")
        if not isinstance(stables, list) or len(stables) > load().max_stables:
            raise InvalidAction("gn/stable_count", min=load().min_stables,
                                max=load().max_stables)  # fmt: skip
        parsed = []
        for i, s in enumerate(stables):
            where = f"stables[{i + 1}]"
            s = mapping_of(s, where)
            inputs.only_fields(s, ("name", "colour", "horses"), f"{where}.")
            horses = s.get("horses")
            if not isinstance(horses, list) or len(horses) != load().horses:
                raise InvalidAction("gn/horse_count", stable=where, count=load().horses)
            for j, h in enumerate(horses):
                place = f"{where}.horses[{j + 1}]"
                inputs.only_fields(mapping_of(h, place), ("name", "price", "handicap"), f"{place}.")
            colour = s.get("colour")
            parsed.append(
                Stable(
                    inputs.text(s.get("name"), f"{where}.name", max_len=NAME_MAX),
                    colour if isinstance(colour, str) else "",
                    tuple(
                        Horse(
                            inputs.text(
                                mapping_of(h, f"{where}.horses[{j + 1}]").get("name"),
                                f"{where}.horses[{j + 1}].name",
                                max_len=NAME_MAX,
                            ),
                            whole(h, "price", f"{where}.horses[{j + 1}]."),
                            whole(h, "handicap", f"{where}.horses[{j + 1}]."),
                        )
                        for j, h in enumerate(horses)
                    ),
                )
            )
        track = sample_track() if data.get("track") is None else Track.from_dict(data["track"])
        return cls(
            stables=tuple(parsed),
            bookmaker=whole(data, "bookmaker") if "bookmaker" in data else 0,
            track=track,
            order=data.get("order", "caps"),
            too_free=data.get("too_free", "any_time"),
            spinner=colours_of(data.get("spinner", [])),
        )

    def in_language(self, lang: str) -> GnSetup:
        """The horses ``default`` named after their stable and cap ("Aki Black") named so in
        ``lang`` ("Aki 黒帽"); a horse's name from its card, or typed, stays.

        >>> setup = GnSetup.default(["Aki", "Ben"])
        >>> [h.name for h in setup.in_language("ja").stables[0].horses][:2]
        ['Aki 赤帽', 'Aki 黒帽']
        """
        d = load()
        stables, changed = [], False
        for stable in self.stables:
            horses = []
            for slot, horse in enumerate(stable.horses):
                cap = d.caps[slot % len(d.caps)]
                said = {f"{stable.name[:12]} {cap.title()}",
                        f"{stable.name[:12]} {t(f'gn.caps.{cap}', 'ja')}"}  # fmt: skip
                if horse.name in said:
                    word = cap.title() if lang != "ja" else t(f"gn.caps.{cap}", "ja")
                    changed |= horse.name != f"{stable.name[:12]} {word}"
                    horse = replace(horse, name=f"{stable.name[:12]} {word}")
                horses.append(horse)
            stables.append(replace(stable, horses=tuple(horses)))
        return replace(self, stables=tuple(stables)) if changed else self

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
