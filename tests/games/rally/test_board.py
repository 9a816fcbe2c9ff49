"""The map file: every fault gets its own error naming the item; distances on the graph."""

from __future__ import annotations

import json
from typing import Any

import pytest

from aids.core.errors import InvalidAction
from aids.games.rally.board import RallyMap
from tests.games.rally.helpers import STRIP, map_dict


def fault(raw: Any) -> InvalidAction:
    with pytest.raises(InvalidAction) as err:
        RallyMap.from_dict(raw)
    return err.value


def with_roads(*extra: dict[str, Any]) -> dict[str, Any]:
    raw = map_dict()
    return raw | {"roads": raw["roads"] + list(extra)}


def test_an_unknown_town_in_a_segment_is_named() -> None:
    err = fault(with_roads({"a": "sendai", "b": "morioka", "km": 180}))
    assert err.code == "rally/map_unknown_town"
    assert "morioka" in err.message("en") and "morioka" in err.message("ja")


@pytest.mark.parametrize("km", [0, -5, 2.5, "20", True])
def test_zero_negative_or_non_integer_km_is_refused(km: Any) -> None:
    err = fault(with_roads({"a": "sendai", "b": "aizu", "km": km}))
    assert err.code == "rally/map_km"
    assert "sendai–aizu" in err.message("en")


def test_duplicate_town_ids_are_refused() -> None:
    raw = map_dict()
    raw["towns"].append(dict(raw["towns"][0]))
    err = fault(raw)
    assert err.code == "rally/map_duplicate" and "sukagawa" in err.message("ja")


def test_a_road_given_twice_is_refused() -> None:
    assert fault(with_roads({"a": "motomiya", "b": "koriyama", "km": 5})).code == (
        "rally/map_duplicate"
    )


def test_a_town_no_road_reaches_is_named() -> None:
    raw = map_dict()
    raw["towns"].append({"id": "hachijo", "en": "Hachijo", "ja": "八丈", "lat": 33.1, "lon": 139.8})
    err = fault(raw)
    assert err.code == "rally/map_unreached" and "hachijo" in err.message("en")


def test_an_island_of_towns_cut_off_from_the_rest_is_named() -> None:
    raw = map_dict(ferries=[])
    err = fault(raw)
    assert err.code == "rally/map_unreached"
    assert any(t in err.message("en") for t in ("muroran", "sapporo"))


def test_a_ferry_that_does_not_join_two_ports_is_refused() -> None:
    assert fault(map_dict(ferries=[{"a": "aomori", "b": "sapporo"}])).code == "rally/map_ferry"
    assert fault(map_dict(ferries=[{"a": "aomori", "b": "aomori"}])).code == "rally/map_ferry"
    assert fault(map_dict(ferries=[{"a": "aomori", "b": "oma"}])).code == "rally/map_ferry"


def test_a_road_from_a_town_to_itself_is_refused() -> None:
    assert fault(with_roads({"a": "aizu", "b": "aizu", "km": 3})).code == "rally/map_loop"


def test_a_bad_town_id_is_refused() -> None:
    raw = map_dict()
    raw["towns"][0]["id"] = "Sukagawa City"
    assert fault(raw).code == "rally/map_town_id"


def test_a_course_to_an_unknown_town_or_to_itself_is_refused() -> None:
    course = {"id": "x", "en": "X", "ja": "X", "start": "koriyama", "goal": "naha"}
    assert fault(map_dict(courses=[course])).code == "rally/map_unknown_town"
    assert fault(map_dict(courses=[course | {"goal": "koriyama"}])).code == "rally/course_same"


def test_a_map_file_is_read_as_toml_or_json() -> None:
    as_json = json.dumps(map_dict()).encode()
    assert RallyMap.from_file_bytes(as_json, "board.json") == STRIP
    with pytest.raises(InvalidAction) as err:
        RallyMap.from_file_bytes(b"[[towns]\n", "board.toml")
    assert err.value.code == "rally/map_syntax"


def test_a_map_survives_its_dict_form() -> None:
    assert RallyMap.from_dict(STRIP.to_dict()) == STRIP


def test_distances_are_shortest_road_paths() -> None:
    assert STRIP.road_km("koriyama", "fukushima-nishi") == 40
    assert STRIP.road_km("sukagawa", "sendai") == 15 + 40 + 40
    assert STRIP.road_km("aomori", "muroran") is None  # no road across the strait


def test_a_ferry_given_twice_is_refused() -> None:
    twice = [{"a": "aomori", "b": "muroran"}, {"a": "muroran", "b": "aomori"}]
    assert fault(map_dict(ferries=twice)).code == "rally/map_duplicate"
