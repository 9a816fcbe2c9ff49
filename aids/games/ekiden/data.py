"""The Ekiden's numbers from ``seeds/ekiden.toml``, loaded and checked once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from aids.core.errors import DataError
from aids.games.palette import Colour
from aids.paths import SEEDS


@dataclass(frozen=True, slots=True)
class EkidenData:
    min_teams: int
    max_teams: int
    runners: int
    legs: int
    outbound: tuple[int, ...]
    return_legs: tuple[int, ...]
    course_pairs: tuple[tuple[int, int], ...]
    road_columns: int
    power: tuple[int, int]
    up: tuple[int, int]
    down: tuple[int, int]
    rank_labels: dict[int, tuple[int, ...]]
    outbound_bonus: int
    return_bonus: int
    anchor_bonus: int
    anchor_leg: int
    front_runner_bonus: int
    commander_next_leg: int
    colours: tuple[Colour, ...]

    def colour(self, key: str) -> Colour | None:
        return next((c for c in self.colours if c.key == key), None)

    @property
    def road_half(self) -> int:
        """Printed columns on either side of the start column (13 of 27)."""
        return self.road_columns // 2


@cache
def load() -> EkidenData:
    with open(SEEDS / "ekiden.toml", "rb") as fh:
        raw = tomllib.load(fh)
    skills = raw["skills"]
    data = EkidenData(
        min_teams=raw["teams"]["min"],
        max_teams=raw["teams"]["max"],
        runners=raw["teams"]["runners"],
        legs=raw["race"]["legs"],
        outbound=tuple(raw["race"]["outbound"]),
        return_legs=tuple(raw["race"]["return"]),
        course_pairs=tuple((a, b) for a, b in raw["race"]["course_pairs"]),
        road_columns=raw["race"]["road_columns"],
        power=(raw["runner"]["power"][0], raw["runner"]["power"][1]),
        up=(raw["runner"]["up"][0], raw["runner"]["up"][1]),
        down=(raw["runner"]["down"][0], raw["runner"]["down"][1]),
        rank_labels={int(k): tuple(v) for k, v in raw["rank_labels"].items()},
        outbound_bonus=skills["outbound_bonus"],
        return_bonus=skills["return_bonus"],
        anchor_bonus=skills["anchor_bonus"],
        anchor_leg=skills["anchor_leg"],
        front_runner_bonus=skills["front_runner_bonus"],
        commander_next_leg=skills["commander_next_leg"],
        colours=tuple(Colour(**c) for c in raw["colours"]),
    )
    legs = set(range(1, data.legs + 1))
    checks = {
        "outbound and return legs split the race": set(data.outbound) | set(data.return_legs)
        == legs
        and not set(data.outbound) & set(data.return_legs),
        "course cards pair every leg once": sorted(x for p in data.course_pairs for x in p)
        == sorted(legs),
        "a rank table for each team count": set(data.rank_labels)
        == set(range(data.min_teams, data.max_teams + 1)),
        "one rank label per team": all(len(v) == k for k, v in data.rank_labels.items()),
        "a colour per team": len({c.key for c in data.colours}) >= data.max_teams,
        "one runner per leg": data.runners == data.legs,
        "an odd number of road columns": data.road_columns % 2 == 1,
    }
    for rule, ok in checks.items():
        if not ok:
            raise DataError("seeds/invalid", file="ekiden.toml", detail=rule)
    return data
