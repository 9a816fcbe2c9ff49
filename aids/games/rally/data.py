"""Japan Rally's numbers from ``seeds/rally.toml``, loaded and checked once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Literal

from aids.core.errors import DataError
from aids.core.i18n import t
from aids.games.palette import Colour
from aids.paths import SEEDS

CardKind = Literal["travel", "top", "attack", "defence"]


@dataclass(frozen=True, slots=True)
class CardType:
    """One kind of card in the deck: ``20`` km, ``top``, ``rain``, ``jam_clear``…"""

    key: str
    kind: CardKind
    count: int
    km: int = 0
    removes: str = ""  # a defence: the status it ends
    turns: int = 0  # police: the turns missed


@dataclass(frozen=True, slots=True)
class CardName:
    """A card as a message names it, in the reader's language (``30 km``, ``Rain``/``雨``)."""

    key: str

    def localized(self, lang: str) -> str:
        card = load().card(self.key)
        if card is not None and card.kind == "travel":
            return f"{card.km} km"
        return t(f"rally.cards.{self.key}", lang)


@dataclass(frozen=True, slots=True)
class Preset:
    """A machine's numbers kept under a name: actions per turn, hand size, cards drawn."""

    key: str
    en: str
    ja: str
    actions: int
    hand: int
    draw: int

    def name(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


@dataclass(frozen=True, slots=True)
class RallyData:
    min_players: int
    max_players: int
    actions: tuple[int, int]
    hand: tuple[int, int]
    draw: tuple[int, int]
    presets: tuple[Preset, ...]
    cards: tuple[CardType, ...]
    total: int
    points: tuple[int, ...]
    colours: tuple[Colour, ...]

    def card(self, key: str) -> CardType | None:
        return next((c for c in self.cards if c.key == key), None)

    def keys(self, kind: CardKind) -> tuple[str, ...]:
        return tuple(c.key for c in self.cards if c.kind == kind)

    def colour(self, key: str) -> Colour | None:
        return next((c for c in self.colours if c.key == key), None)

    @property
    def police_turns(self) -> int:
        police = self.card("police")
        return police.turns if police else 0


def _pair(raw: list[int]) -> tuple[int, int]:
    return (raw[0], raw[1])


@cache
def load() -> RallyData:
    with open(SEEDS / "rally.toml", "rb") as fh:
        raw = tomllib.load(fh)
    data = RallyData(
        min_players=raw["players"]["min"],
        max_players=raw["players"]["max"],
        actions=_pair(raw["machine"]["actions"]),
        hand=_pair(raw["machine"]["hand"]),
        draw=_pair(raw["machine"]["draw"]),
        presets=tuple(Preset(**p) for p in raw["presets"]),
        cards=tuple(CardType(**c) for c in raw["cards"]),
        total=raw["deck"]["total"],
        points=tuple(raw["teams"]["points"]),
        colours=tuple(Colour(**c) for c in raw["colours"]),
    )
    kinds = {c.key: c.kind for c in data.cards}
    checks = {
        "the card counts add up to the deck": sum(c.count for c in data.cards) == data.total,
        "card keys are unique": len(kinds) == len(data.cards),
        "travel cards have km": all(c.km > 0 for c in data.cards if c.kind == "travel"),
        "the statuses are jam, rain, engine and police": set(data.keys("attack"))
        == {"jam", "rain", "engine", "police"},
        "each defence removes an attack": all(
            kinds.get(c.removes) == "attack" for c in data.cards if c.kind == "defence"
        ),
        "police makes a car miss turns": data.police_turns > 0,
        "team points for every place": len(data.points) == data.max_players,
        "a colour per player": len({c.key for c in data.colours}) >= data.max_players,
        "presets within the machine bounds": all(
            data.actions[0] <= p.actions <= data.actions[1]
            and data.hand[0] <= p.hand <= data.hand[1]
            and data.draw[0] <= p.draw <= data.draw[1]
            for p in data.presets
        ),
    }
    for rule, ok in checks.items():
        if not ok:
            raise DataError("seeds/invalid", file="rally.toml", detail=rule)
    return data
