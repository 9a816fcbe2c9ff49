"""The Derby's numbers from ``seeds/derby.toml``, loaded and validated once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from aids.core.errors import DataError
from aids.games.palette import Colour
from aids.paths import SEEDS


@dataclass(frozen=True, slots=True)
class DerbyData:
    horse_count: int
    card_values: tuple[int, ...]
    hand_size: int
    fences: int
    betting_fences: tuple[int, ...]
    finishers: int
    min_players: int
    max_players: int
    counters: dict[int, int]
    payout: dict[int, int]
    horse_colours: tuple[Colour, ...]
    counter_colours: tuple[Colour, ...]
    neutral: Colour  # the black cards' colour

    @property
    def deck_size(self) -> int:
        return (self.horse_count + 1) * len(self.card_values)

    def horse_colour(self, key: str) -> Colour | None:
        return next((c for c in self.horse_colours if c.key == key), None)

    def card_colour(self, key: str) -> Colour | None:
        """A horse colour or the neutral (black) colour of a speed card."""
        return self.neutral if key == self.neutral.key else self.horse_colour(key)

    def counter_colour(self, key: str) -> Colour | None:
        return next((c for c in self.counter_colours if c.key == key), None)


@cache
def load() -> DerbyData:
    with open(SEEDS / "derby.toml", "rb") as fh:
        raw = tomllib.load(fh)
    colours = tuple(Colour(**c) for c in raw["horse_colours"])
    counters = tuple(Colour(**c) for c in raw["counter_colours"])
    data = DerbyData(
        horse_count=raw["deck"]["horse_count"],
        card_values=tuple(raw["deck"]["card_values"]),
        hand_size=raw["deck"]["hand_size"],
        fences=raw["race"]["fences"],
        betting_fences=tuple(raw["race"]["betting_fences"]),
        finishers=raw["race"]["finishers"],
        min_players=raw["players"]["min"],
        max_players=raw["players"]["max"],
        counters={int(k): v for k, v in raw["players"]["counters"].items()},
        payout={int(k): v for k, v in raw["payout"].items()},
        horse_colours=colours,
        counter_colours=counters,
        neutral=Colour(**raw["neutral_colour"]),
    )
    # The seed must agree with itself: a broken data file fails loudly here, not mid-race.
    checks = {
        "one colour per horse": len(colours) == data.horse_count,
        "horse colours are distinct": len({c.key for c in colours}) == data.horse_count,
        "the neutral colour is not a horse colour": data.neutral.key
        not in {c.key for c in colours},
        "a counter colour per player": len(counters) >= data.max_players,
        "horses - fences = finishers": data.horse_count - data.fences == data.finishers,
        "a payout for each betting fence": set(data.payout) == set(data.betting_fences),
        "counters for each player count": set(data.counters)
        == set(range(data.min_players, data.max_players + 1)),
    }
    for rule, ok in checks.items():
        if not ok:
            raise DataError("seeds/invalid", file="derby.toml", detail=rule)
    return data
