"""The rally's map: towns, roads with km, ferries and named courses, checked on load.

A map is a value (``RallyMap``) kept whole in a table's setup, so a table replays on the map
it was played on even after the shipped sample changes. The roads form a graph; a move is a
shortest-path question on it, with one twist from the rules: a jammed town may end a move but
never be passed through.

>>> m = sample_map()
>>> m.road_km("koriyama", "fukushima-nishi")
40
>>> sorted(t for t in m.reachable("koriyama", 30) if t != "koriyama")[:3]
['motomiya', 'nihonmatsu', 'sukagawa']
"""

from __future__ import annotations

import heapq
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.paths import SEEDS

TOWN_ID = re.compile(r"\A[a-z0-9][a-z0-9-]{0,23}\Z")
NAME_MAX = 40
MAX_TOWNS = 400
MAX_ROADS = 1200
MAX_KM = 2000
SAMPLE_FILE = "rally_japan.toml"
UNREACHED = MAX_KM * MAX_ROADS + 1


@dataclass(frozen=True, slots=True)
class Town:
    id: str
    en: str
    ja: str
    lat: float
    lon: float
    port: bool = False

    def name(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    def localized(self, lang: str) -> str:
        """The town as an error message names it, in the reader's language."""
        return self.name(lang)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "en": self.en, "ja": self.ja, "lat": self.lat, "lon": self.lon,
        }  # fmt: skip
        if self.port:
            out["port"] = True
        return out


@dataclass(frozen=True, slots=True)
class Road:
    a: str
    b: str
    km: int

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "km": self.km}


@dataclass(frozen=True, slots=True)
class Course:
    id: str
    en: str
    ja: str
    start: str
    goal: str

    def name(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "en": self.en, "ja": self.ja, "start": self.start, "goal": self.goal}


@dataclass(frozen=True)
class RallyMap:
    """A checked map. Build it with ``RallyMap.from_dict`` (or ``sample_map()``)."""

    en: str
    ja: str
    sample: bool
    towns: tuple[Town, ...]
    roads: tuple[Road, ...]
    ferries: tuple[tuple[str, str], ...]
    courses: tuple[Course, ...]
    _by_id: dict[str, Town] = field(init=False, repr=False, compare=False, hash=False)
    _roads: dict[str, tuple[tuple[str, int], ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )
    _ferries: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False, hash=False)
    _to_goal: dict[str, dict[str, tuple[int, int]]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        roads: dict[str, list[tuple[str, int]]] = {t.id: [] for t in self.towns}
        for r in self.roads:
            roads[r.a].append((r.b, r.km))
            roads[r.b].append((r.a, r.km))
        ferries: dict[str, list[str]] = {}
        for a, b in self.ferries:
            ferries.setdefault(a, []).append(b)
            ferries.setdefault(b, []).append(a)
        set_ = object.__setattr__
        set_(self, "_by_id", {t.id: t for t in self.towns})
        set_(self, "_roads", {k: tuple(sorted(v)) for k, v in roads.items()})
        set_(self, "_ferries", {k: tuple(sorted(v)) for k, v in ferries.items()})
        set_(self, "_to_goal", {})

    def name(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    # --- lookups ---------------------------------------------------------------------------

    def town(self, town_id: str) -> Town:
        return self._by_id[town_id]

    def has(self, town_id: object) -> bool:
        return isinstance(town_id, str) and town_id in self._by_id

    def town_name(self, town_id: str, lang: str) -> str:
        town = self._by_id.get(town_id)
        return town.name(lang) if town else town_id

    def neighbours(self, town_id: str) -> tuple[tuple[str, int], ...]:
        """Towns one road away, with the road's km."""
        return self._roads.get(town_id, ())

    def ferry_from(self, town_id: str) -> tuple[str, ...]:
        """The ports a ferry joins ``town_id`` to (none for a town that is not a port)."""
        return self._ferries.get(town_id, ())

    def course(self, course_id: str) -> Course | None:
        return next((c for c in self.courses if c.id == course_id), None)

    # --- distances -------------------------------------------------------------------------

    def reachable(self, start: str, km: int, jams: Iterable[str] = frozenset()) -> dict[str, int]:
        """Every town a car at ``start`` can stop at with ``km`` to spend, with the road km.

        Roads only (the ferry is never travel). A jammed town may be reached but not passed:
        its roads onward are closed (the engine closes the goal's too: a car that reaches it
        has arrived). ``start`` itself is included at 0 km.
        """
        blocked = frozenset(jams)
        best = {start: 0}
        heap = [(0, start)]
        while heap:
            dist, town = heapq.heappop(heap)
            if dist > best[town] or (town in blocked and town != start):
                continue
            for nxt, step in self._roads[town]:
                total = dist + step
                if total <= km and total < best.get(nxt, UNREACHED):
                    best[nxt] = total
                    heapq.heappush(heap, (total, nxt))
        return best

    def road_km(self, a: str, b: str) -> int | None:
        """The shortest road distance from ``a`` to ``b``, or None across the water."""
        return self.reachable(a, MAX_KM * MAX_ROADS).get(b)

    def to_goal(self, goal: str) -> dict[str, tuple[int, int]]:
        """For every town, (road km, ferry crossings) to ``goal`` along the best way there.

        [ruling] A ferry counts 0 km; of two towns as far by road, the one with fewer
        crossings still to make is nearer. Computed once per goal.
        """
        cached = self._to_goal.get(goal)
        if cached is not None:
            return cached
        best: dict[str, tuple[int, int]] = {goal: (0, 0)}
        heap: list[tuple[int, int, str]] = [(0, 0, goal)]
        while heap:
            km, crossings, town = heapq.heappop(heap)
            if (km, crossings) > best[town]:
                continue
            steps = [(n, km + s, crossings) for n, s in self._roads[town]]
            steps += [(n, km, crossings + 1) for n in self._ferries.get(town, ())]
            for nxt, k, c in steps:
                if (k, c) < best.get(nxt, (UNREACHED, 0)):
                    best[nxt] = (k, c)
                    heapq.heappush(heap, (k, c, nxt))
        self._to_goal[goal] = best
        return best

    def route(self, start: str, goal: str) -> tuple[tuple[str, int, bool], ...]:
        """The shortest way from ``start`` to ``goal``: each town with the road km driven so
        far, and whether it was reached by ferry (the route card on a log sheet).

        >>> [(t, km) for t, km, _ in sample_map().route("koriyama", "fukushima-nishi")]
        [('koriyama', 0), ('motomiya', 5), ('nihonmatsu', 20), ('fukushima-nishi', 40)]
        """
        to_goal = self.to_goal(goal)
        path = [(start, 0, False)]
        town, driven = start, 0
        while town != goal:
            here = to_goal[town]
            by_road = [(n, s) for n, s in self._roads[town] if to_goal[n][0] + s == here[0]]
            by_road = [(n, s) for n, s in by_road if to_goal[n][1] == here[1]]
            if by_road:
                town, step = min(by_road)
                driven += step
                path.append((town, driven, False))
            else:  # no road continues the best way: it is the ferry
                town = next(n for n in self._ferries[town] if to_goal[n] == (here[0], here[1] - 1))
                path.append((town, driven, True))
        return tuple(path)

    # --- the file form ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "map": {"name_en": self.en, "name_ja": self.ja, "sample": self.sample},
            "towns": [t.to_dict() for t in self.towns],
            "roads": [r.to_dict() for r in self.roads],
            "ferries": [{"a": a, "b": b} for a, b in self.ferries],
            "courses": [c.to_dict() for c in self.courses],
        }

    @classmethod
    def from_dict(cls, raw: object) -> RallyMap:
        """Parse and check a map; each fault names its item (``rally/map_*``)."""
        data = _table(raw, "map file")
        inputs.only_fields(data, ("map", "towns", "roads", "ferries", "courses"))
        head = _table(data.get("map", {}), "map")
        inputs.only_fields(head, ("name_en", "name_ja", "sample"), "map.")
        towns = tuple(_town(t, i) for i, t in enumerate(_list(data, "towns", MAX_TOWNS)))
        ids = [t.id for t in towns]
        seen: set[str] = set()
        for town_id in ids:
            if town_id in seen:
                raise InvalidAction("rally/map_duplicate", item=town_id)
            seen.add(town_id)
        roads = tuple(_road(r, i, seen) for i, r in enumerate(_list(data, "roads", MAX_ROADS)))
        pairs: set[frozenset[str]] = set()
        for road in roads:
            pair = frozenset((road.a, road.b))
            if pair in pairs:
                raise InvalidAction("rally/map_duplicate", item=f"{road.a}–{road.b}")
            pairs.add(pair)
        ports = {t.id for t in towns if t.port}
        ferries = tuple(
            _ferry(f, i, ports) for i, f in enumerate(_list(data, "ferries", 20, required=False))
        )
        if len({frozenset(f) for f in ferries}) != len(ferries):
            raise InvalidAction("rally/map_duplicate", item="ferries")
        courses = tuple(
            _course(c, i, seen) for i, c in enumerate(_list(data, "courses", 50, required=False))
        )
        if len({c.id for c in courses}) != len(courses):
            raise InvalidAction("rally/map_duplicate", item="courses")
        built = cls(
            en=inputs.text(head.get("name_en", "Map"), "map.name_en", max_len=NAME_MAX),
            ja=inputs.text(head.get("name_ja", "地図"), "map.name_ja", max_len=NAME_MAX),
            sample=head.get("sample") is True,
            towns=towns,
            roads=roads,
            ferries=ferries,
            courses=courses,
        )
        built._check_connected()
        return built

    def _check_connected(self) -> None:
        """Every town has a road, and roads plus ferries join every town to every other."""
        for town in self.towns:
            if not self._roads[town.id]:
                raise InvalidAction("rally/map_unreached", town=town.id)
        first = self.towns[0].id
        seen = {first}
        todo = [first]
        while todo:
            here = todo.pop()
            for nxt in [n for n, _ in self._roads[here]] + list(self._ferries.get(here, ())):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        lost = next((t.id for t in self.towns if t.id not in seen), None)
        if lost is not None:
            raise InvalidAction("rally/map_unreached", town=lost)

    @classmethod
    def from_file_bytes(cls, data: bytes, filename: str) -> RallyMap:
        """A map file as uploaded: TOML (``.toml``) or JSON (anything else)."""
        raw = inputs.file_document(data, filename, "rally/map_syntax")
        return cls.from_dict(raw)


def _table(raw: object, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise InvalidAction("rally/map_malformed", item=where)
    return raw


def _list(data: Mapping[str, Any], key: str, most: int, *, required: bool = True) -> list[Any]:
    value = data.get(key, None if required else [])
    if not isinstance(value, list) or (required and not value) or len(value) > most:
        raise InvalidAction("rally/map_malformed", item=key)
    return value


def _town_ref(raw: object, known: set[str], where: str) -> str:
    if not isinstance(raw, str) or raw not in known:
        raise InvalidAction("rally/map_unknown_town", item=where, town=inputs.shown(raw))
    return raw


def _town(raw: object, i: int) -> Town:
    where = f"towns[{i + 1}]"
    data = _table(raw, where)
    inputs.only_fields(data, ("id", "en", "ja", "lat", "lon", "port"), f"{where}.")
    town_id = data.get("id")
    if not isinstance(town_id, str) or not TOWN_ID.match(town_id):
        raise InvalidAction("rally/map_town_id", item=where, town=inputs.shown(town_id))
    lat, lon = data.get("lat"), data.get("lon")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (lat, lon)):
        raise InvalidAction("rally/map_malformed", item=f"{town_id}.lat/lon")
    assert isinstance(lat, int | float) and isinstance(lon, int | float)
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise InvalidAction("rally/map_malformed", item=f"{town_id}.lat/lon")
    port = data.get("port", False)
    if not isinstance(port, bool):
        raise InvalidAction("rally/map_malformed", item=f"{town_id}.port")
    return Town(
        id=town_id,
        en=inputs.text(data.get("en"), f"{town_id}.en", max_len=NAME_MAX),
        ja=inputs.text(data.get("ja"), f"{town_id}.ja", max_len=NAME_MAX),
        lat=float(lat),
        lon=float(lon),
        port=port,
    )


def _road(raw: object, i: int, known: set[str]) -> Road:
    where = f"roads[{i + 1}]"
    data = _table(raw, where)
    inputs.only_fields(data, ("a", "b", "km"), f"{where}.")
    a = _town_ref(data.get("a"), known, where)
    b = _town_ref(data.get("b"), known, where)
    km = data.get("km")
    if not isinstance(km, int) or isinstance(km, bool) or not 1 <= km <= MAX_KM:
        raise InvalidAction("rally/map_km", item=f"{a}–{b}", km=inputs.shown(km), max=MAX_KM)
    if a == b:
        raise InvalidAction("rally/map_loop", item=where, town=a)
    return Road(a, b, km)


def _ferry(raw: object, i: int, ports: set[str]) -> tuple[str, str]:
    where = f"ferries[{i + 1}]"
    data = _table(raw, where)
    inputs.only_fields(data, ("a", "b"), f"{where}.")
    a, b = data.get("a"), data.get("b")
    if not (isinstance(a, str) and isinstance(b, str) and a in ports and b in ports and a != b):
        raise InvalidAction("rally/map_ferry", item=where, a=inputs.shown(a), b=inputs.shown(b))
    return (a, b)


def _course(raw: object, i: int, known: set[str]) -> Course:
    where = f"courses[{i + 1}]"
    data = _table(raw, where)
    inputs.only_fields(data, ("id", "en", "ja", "start", "goal"), f"{where}.")
    course_id = data.get("id")
    if not isinstance(course_id, str) or not TOWN_ID.match(course_id):
        raise InvalidAction("rally/map_malformed", item=f"{where}.id")
    start = _town_ref(data.get("start"), known, where)
    goal = _town_ref(data.get("goal"), known, where)
    if start == goal:
        raise InvalidAction("rally/course_same", town=start)
    return Course(
        id=course_id,
        en=inputs.text(data.get("en"), f"{where}.en", max_len=NAME_MAX),
        ja=inputs.text(data.get("ja"), f"{where}.ja", max_len=NAME_MAX),
        start=start,
        goal=goal,
    )


@cache
def sample_map() -> RallyMap:
    """The sample map of Japan shipped in ``seeds/`` (approximate distances, not a board)."""
    with open(SEEDS / SAMPLE_FILE, "rb") as fh:
        return RallyMap.from_dict(tomllib.load(fh))
