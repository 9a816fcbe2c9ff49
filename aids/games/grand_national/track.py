"""The race track: lap length, lanes and landmark positions, checked on load.

A track is a value (``Track``) kept whole in a table's setup, so a table replays on the track
it was run on. Positions are lengths from the start line within a lap; a horse's distance is
counted from the start over both laps.

>>> t = sample_track()
>>> t.landmark(t.bechers), t.landmark(t.lap + t.melling_road)
('fence', 'melling_road')
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.games.grand_national.data import load
from aids.paths import SEEDS

SAMPLE_FILE = "gn_track.toml"
NAME_MAX = 40
LANDMARKS = ("fences", "bechers", "water", "melling_road", "elbow", "horseshoes")


@dataclass(frozen=True, slots=True)
class Track:
    en: str
    ja: str
    sample: bool
    lap: int
    lanes: int
    fences: tuple[int, ...]
    bechers: int
    water: int
    melling_road: int
    elbow: int
    horseshoes: tuple[int, ...]

    def name(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    @property
    def finish(self) -> int:
        """The distance at which a horse has run the race (two laps)."""
        return self.lap * load().laps

    def lap_of(self, distance: int) -> int:
        return min(distance // self.lap + 1, load().laps)

    def landmark(self, distance: int) -> str | None:
        """``fence``, ``water``, ``horseshoe`` or ``melling_road`` at a distance (or None)."""
        if distance >= self.finish:
            return None
        at = distance % self.lap
        if at in self.fences:
            return "fence"
        if at == self.water:
            return "water"
        if at in self.horseshoes:
            return "horseshoe"
        if at == self.melling_road:
            return "melling_road"
        return None

    @property
    def too_free_until(self) -> int:
        """Running too free is checked up to and including Melling Road on the last lap."""
        return self.lap * (load().laps - 1) + self.melling_road

    @property
    def bechers_last_lap(self) -> int:
        return self.lap * (load().laps - 1) + self.bechers

    def to_dict(self) -> dict[str, Any]:
        return {
            "track": {"name_en": self.en, "name_ja": self.ja, "sample": self.sample,
                      "lap": self.lap, "lanes": self.lanes},
            "landmarks": {"fences": list(self.fences), "bechers": self.bechers,
                          "water": self.water, "melling_road": self.melling_road,
                          "elbow": self.elbow, "horseshoes": list(self.horseshoes)},
        }  # fmt: skip

    @classmethod
    def from_dict(cls, raw: object) -> Track:
        """Parse and check a track file; each fault names its item (``gn/track_*``)."""
        data = _table(raw, "track file")
        inputs.only_fields(data, ("track", "landmarks"))
        head, marks = _table(data.get("track"), "track"), _table(data.get("landmarks"), "landmarks")
        inputs.only_fields(head, ("name_en", "name_ja", "sample", "lap", "lanes"), "track.")
        inputs.only_fields(marks, LANDMARKS, "landmarks.")
        lap = _number(head, "lap", 10, 500)
        lanes = _number(head, "lanes", 4, 12)
        fences = _positions(marks, "fences", lap)
        horseshoes = _positions(marks, "horseshoes", lap)
        bechers = _number(marks, "bechers", 1, lap - 1)
        if bechers not in fences:
            raise InvalidAction("gn/track_bechers", at=bechers)
        single = {k: _number(marks, k, 1, lap - 1) for k in ("water", "melling_road", "elbow")}
        taken: dict[int, str] = {}
        for name, spots in (("fences", fences), ("horseshoes", horseshoes),
                            ("water", (single["water"],)),
                            ("melling_road", (single["melling_road"],))):  # fmt: skip
            for spot in spots:
                if spot in taken:
                    raise InvalidAction("gn/track_clash", at=spot, a=taken[spot], b=name)
                taken[spot] = name
        return cls(
            en=inputs.text(head.get("name_en", "Track"), "track.name_en", max_len=NAME_MAX),
            ja=inputs.text(head.get("name_ja", "コース"), "track.name_ja", max_len=NAME_MAX),
            sample=head.get("sample") is True,
            lap=lap,
            lanes=lanes,
            fences=fences,
            bechers=bechers,
            water=single["water"],
            melling_road=single["melling_road"],
            elbow=single["elbow"],
            horseshoes=horseshoes,
        )

    @classmethod
    def from_file_bytes(cls, data: bytes, filename: str) -> Track:
        raw = inputs.file_document(data, filename, "gn/track_syntax")
        return cls.from_dict(raw)


def _table(raw: object, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise InvalidAction("gn/track_malformed", item=where)
    return raw


def _number(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidAction("gn/track_number", item=key, low=low, high=high,
                            value=inputs.shown(value))  # fmt: skip
    return value


def _positions(data: Mapping[str, Any], key: str, lap: int) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not value or len(value) > lap:
        raise InvalidAction("gn/track_malformed", item=key)
    for spot in value:
        if not isinstance(spot, int) or isinstance(spot, bool) or not 1 <= spot < lap:
            raise InvalidAction("gn/track_number", item=key, low=1, high=lap - 1,
                                value=inputs.shown(spot))  # fmt: skip
    if len(set(value)) != len(value):
        raise InvalidAction("gn/track_clash", at=value[0], a=key, b=key)
    return tuple(sorted(value))


@cache
def sample_track() -> Track:
    """The sample track shipped in ``seeds/`` (not the printed board)."""
    with open(SEEDS / SAMPLE_FILE, "rb") as fh:
        return Track.from_dict(tomllib.load(fh))
