"""Derby values: cards, horses, players, the setup, the actions and the immutable state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.games.base import fresh_seed
from aids.games.derby.data import load

BLACK = "black"
Mode = Literal["tracking", "simulation"]
MODES: tuple[Mode, ...] = ("tracking", "simulation")
EndReason = Literal["fence5", "no_cards"]
# The rules versions this engine replays. 2: "no cards left" while the tracker still counts
# cards in the draw pile needs the referee's confirmation (version 1 logs end without it).
RULES_VERSIONS = (1, 2)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One speed card: a horse colour (or ``black``) and a value 0–9. Exactly one of each."""

    colour: str
    value: int

    @property
    def is_black(self) -> bool:
        return self.colour == BLACK

    def code(self) -> str:
        return f"{self.colour}:{self.value}"

    @classmethod
    def parse(cls, raw: object) -> Card:
        """``"red:7"`` → Card; anything else is refused naming the field."""
        data = load()
        if isinstance(raw, str) and raw.count(":") == 1 and len(raw) <= 16:
            colour, value = raw.split(":")
            known = colour == BLACK or data.horse_colour(colour) is not None
            canonical = value.isascii() and value.isdigit() and str(int(value)) == value
            if known and canonical and int(value) in data.card_values:
                return cls(colour, int(value))
        raise InvalidAction("derby/unknown_card", card=inputs.shown(raw))

    def localized(self, lang: str) -> str:
        """``赤 7`` / ``Red 7``: the card as people say it (error messages, the log)."""
        colour = load().card_colour(self.colour)
        return f"{colour.name(lang) if colour else self.colour} {self.value}"


def full_deck() -> tuple[Card, ...]:
    """The 90 speed cards: every horse colour and black, values 0–9."""
    data = load()
    colours = [c.key for c in data.horse_colours] + [BLACK]
    return tuple(Card(c, v) for c in colours for v in data.card_values)


@dataclass(frozen=True, slots=True)
class Horse:
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    colour: str  # counter colour


NAME_MAX = 40
SETUP_FIELDS = ("players", "horses", "mode", "seed")


def _name(raw: Mapping[str, Any], field: str) -> str:
    return inputs.text(raw.get("name"), field, max_len=NAME_MAX)


def _colour(raw: Mapping[str, Any]) -> str:
    colour = raw.get("colour", "")
    return colour if isinstance(colour, str) else ""


@dataclass(frozen=True, slots=True)
class DerbySetup:
    """Who plays in which seat order, the horses in row order (row 1 nearest the fence card)."""

    players: tuple[Player, ...]
    horses: tuple[Horse, ...]
    mode: Mode = "tracking"
    seed: int | None = None

    def __post_init__(self) -> None:
        data = load()
        if not data.min_players <= len(self.players) <= data.max_players:
            raise InvalidAction(
                "derby/setup_player_count", min=data.min_players, max=data.max_players
            )
        if len({inputs.identity(p.name) for p in self.players}) != len(self.players):
            raise InvalidAction("derby/setup_duplicate_player")
        counter_keys = [p.colour for p in self.players]
        if len(set(counter_keys)) != len(counter_keys) or any(
            data.counter_colour(k) is None for k in counter_keys
        ):
            raise InvalidAction("derby/setup_counter_colours")
        if len(self.horses) != data.horse_count:
            raise InvalidAction("derby/setup_horse_count", count=data.horse_count)
        colours = sorted(h.colour for h in self.horses)
        if colours != sorted(c.key for c in data.horse_colours):
            raise InvalidAction("derby/setup_horse_colours")
        if len({inputs.identity(h.name) for h in self.horses}) != len(self.horses):
            raise InvalidAction("derby/setup_duplicate_horse")
        if self.mode not in MODES:
            raise InvalidAction("derby/setup_mode")
        if self.mode == "simulation" and not isinstance(self.seed, int):
            raise InvalidAction("derby/setup_seed")

    @property
    def counters_per_player(self) -> int:
        return load().counters[len(self.players)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [{"name": p.name, "colour": p.colour} for p in self.players],
            "horses": [{"name": h.name, "colour": h.colour} for h in self.horses],
            "mode": self.mode,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, raw: object) -> DerbySetup:
        if not isinstance(raw, Mapping):
            raise InvalidAction("derby/setup_malformed", field="setup")
        inputs.only_fields(raw, SETUP_FIELDS)
        players, horses = raw.get("players"), raw.get("horses")
        if not isinstance(players, list) or not all(isinstance(p, Mapping) for p in players):
            raise InvalidAction("derby/setup_malformed", field="players")
        if not isinstance(horses, list) or not all(isinstance(h, Mapping) for h in horses):
            raise InvalidAction("derby/setup_malformed", field="horses")
        for where, rows in (("players", players), ("horses", horses)):
            for i, row in enumerate(rows):
                inputs.only_fields(row, ("name", "colour"), f"{where}[{i + 1}].")
        seed = raw.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise InvalidAction("derby/setup_seed")
        mode = raw.get("mode", "tracking")
        if mode not in MODES:
            raise InvalidAction("derby/setup_mode")
        return cls(
            players=tuple(
                Player(_name(p, f"players[{i + 1}].name"), _colour(p))
                for i, p in enumerate(players)
            ),
            horses=tuple(
                Horse(_name(h, f"horses[{i + 1}].name"), _colour(h)) for i, h in enumerate(horses)
            ),
            mode=mode,
            seed=seed,
        )

    def in_language(self, lang: str) -> DerbySetup:
        """The horses a setup named by their colour (its default, in either language) named
        so in ``lang``; a name typed stays. Unchanged where that would make two horses share
        a name (one typed as another's colour).

        >>> setup = DerbySetup.default(["A", "B"], lang="ja")
        >>> [h.name for h in setup.in_language("en").horses][:3]
        ['Red', 'Blue', 'Green']
        """
        data = load()
        horses = []
        for horse in self.horses:
            colour = data.horse_colour(horse.colour)
            if colour is not None and horse.name in (colour.en, colour.ja):
                horse = Horse(colour.name(lang), horse.colour)
            horses.append(horse)
        if len({inputs.identity(h.name) for h in horses}) != len(horses):
            return self
        return replace(self, horses=tuple(horses))

    @classmethod
    def default(
        cls,
        player_names: list[str],
        lang: str = "en",
        mode: Mode = "tracking",
        seed: int | None = None,
    ) -> DerbySetup:
        """Players in seat order with counter colours in palette order; horses named by colour."""
        data = load()
        keys = [c.key for c in data.counter_colours]
        return cls(
            # Too many names leave some without a colour; validation then names the count.
            players=tuple(
                Player(name, keys[i] if i < len(keys) else "")
                for i, name in enumerate(player_names)
            ),
            horses=tuple(Horse(c.name(lang), c.key) for c in data.horse_colours),
            mode=mode,
            seed=fresh_seed() if mode == "simulation" and seed is None else seed,
        )


# --- actions -----------------------------------------------------------------------------


def _int_field(raw: Mapping[str, Any], key: str) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction("derby/malformed_action", field=key)
    return value


def _discard_fields(raw: Mapping[str, Any]) -> tuple[tuple[Card, ...], int]:
    cards = raw.get("discard", [])
    if not isinstance(cards, list):
        raise InvalidAction("derby/malformed_action", field="discard")
    count = raw.get("discard_count", 0)
    if not isinstance(count, int) or isinstance(count, bool):
        raise InvalidAction("derby/malformed_action", field="discard_count")
    return tuple(Card.parse(c) for c in cards), count


@dataclass(frozen=True, slots=True)
class Bet:
    """Place one of the player's counters in the slot (horse, current fence)."""

    player: int
    horse: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "bet", "player": self.player, "horse": self.horse}


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a speed card on a horse in the current column, then discard and draw.

    ``discard`` lists the exact cards thrown away (simulation, where hands are known);
    ``discard_count`` says only how many (tracking, where hands are private).
    """

    player: int
    horse: int
    card: Card
    discard: tuple[Card, ...] = ()
    discard_count: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "play",
            "player": self.player,
            "horse": self.horse,
            "card": self.card.code(),
        }
        if self.discard:
            out["discard"] = [c.code() for c in self.discard]
        if self.discard_count:
            out["discard_count"] = self.discard_count
        return out


@dataclass(frozen=True, slots=True)
class Pass:
    """No playable card: the player passes (and may still discard and draw)."""

    player: int
    discard: tuple[Card, ...] = ()
    discard_count: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "pass", "player": self.player}
        if self.discard:
            out["discard"] = [c.code() for c in self.discard]
        if self.discard_count:
            out["discard_count"] = self.discard_count
        return out


@dataclass(frozen=True, slots=True)
class NoCardsLeft:
    """The referee declares every speed card played (tracking mode): the race ends now.

    ``confirm``: the referee has checked the table although the tracker still counts cards
    in the draw pile (a discard left unrecorded makes it count too many); without it such a
    declaration is refused (``derby/no_cards_left_pile``), so a slip cannot end the race.
    """

    confirm: bool = False

    def to_dict(self) -> dict[str, Any]:
        # the flag as given (a caller's "no" is refused by the parser, never read as true)
        return {
            "type": "no_cards_left",
            **({} if self.confirm is False else {"confirm": self.confirm}),
        }


Action = Bet | PlayCard | Pass | NoCardsLeft
ACTION_FIELDS = {
    "bet": ("type", "player", "horse"),
    "play": ("type", "player", "horse", "card", "discard", "discard_count"),
    "pass": ("type", "player", "discard", "discard_count"),
    "no_cards_left": ("type", "confirm"),
}


def action_from_dict(raw: object) -> Action:
    """Parse a stored or submitted action; malformed input names the field, and a field the
    action does not have is refused (never dropped).

    >>> action_from_dict({"type": "no_cards_left", "player": 0, "horse": 5})
    Traceback (most recent call last):
    aids.core.errors.InvalidAction: input/unknown_field: 'horse' ...
    """
    if not isinstance(raw, Mapping):
        raise InvalidAction("derby/malformed_action", field="action")
    kind = raw.get("type")
    if isinstance(kind, str) and kind in ACTION_FIELDS:
        inputs.only_fields(raw, ACTION_FIELDS[kind])
    if kind == "bet":
        return Bet(_int_field(raw, "player"), _int_field(raw, "horse"))
    if kind == "play":
        cards, count = _discard_fields(raw)
        return PlayCard(
            _int_field(raw, "player"),
            _int_field(raw, "horse"),
            Card.parse(raw.get("card")),
            cards,
            count,
        )
    if kind == "pass":
        cards, count = _discard_fields(raw)
        return Pass(_int_field(raw, "player"), cards, count)
    if kind == "no_cards_left":
        confirm = raw.get("confirm", False)
        if not isinstance(confirm, bool):
            raise InvalidAction("derby/malformed_action", field="confirm")
        return NoCardsLeft(confirm)
    raise InvalidAction("derby/malformed_action", field="type")


# --- state -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Counter:
    """A betting counter in slot (horse, fence)."""

    player: int
    horse: int
    fence: int


Column = tuple[tuple[Card, ...], ...]  # one stack per horse row, bottom → top


@dataclass(frozen=True, slots=True)
class DerbyState:
    """Everything the rules need; a new one per accepted action."""

    setup: DerbySetup
    fence: int  # current fence 1..5; fences + 1 once fence 5 is resolved
    columns: tuple[Column, ...]  # per fence, per horse row
    fallen: tuple[int | None, ...]  # per horse row: the fence it fell at
    counters: tuple[Counter, ...]
    turn: int  # seat index of the player to act
    bet_made: bool  # the player to act has already bet this turn
    played: frozenset[Card]
    discarded: int  # cards discarded so far (all of fallen horses)
    pile: int  # draw pile: exact in simulation, from recorded discards in tracking
    ended: EndReason | None = None
    deck: tuple[Card, ...] = ()  # simulation: the draw pile, top first
    hands: tuple[tuple[Card, ...], ...] = ()  # simulation: each player's hand
    moves: int = field(default=0)  # actions accepted so far
    rules: int = RULES_VERSIONS[-1]  # the rules version the table is recorded under

    @property
    def running(self) -> tuple[int, ...]:
        return tuple(i for i, f in enumerate(self.fallen) if f is None)

    def counters_left(self, player: int) -> int:
        used = sum(1 for c in self.counters if c.player == player)
        return self.setup.counters_per_player - used

    def top_card(self, fence: int, horse: int) -> Card | None:
        stack = self.columns[fence - 1][horse]
        return stack[-1] if stack else None
