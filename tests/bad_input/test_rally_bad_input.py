"""Japan Rally's bad inputs: malformed and illegal actions, setups and map files, each refused
with its own code and a catalogued ja/en message, the stored rows byte-for-byte unchanged."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from aids.games.base import Role
from aids.games.rally.board import sample_map
from aids.tables import TableService
from tests.bad_input.cases import Case, case
from tests.bad_input.test_bad_input import refused

PLAYERS = [
    {"name": n, "colour": c, "machine": {"actions": 3, "hand": 5, "draw": 2}}
    for n, c in (("Aki", "red"), ("Ben", "blue"), ("Chie", "green"))
]


def rally_setup(**changes: Any) -> dict[str, Any]:
    return {"players": copy.deepcopy(PLAYERS), "course": {"start": "koriyama",
            "goal": "aomori"}, "mode": "tracking"} | changes  # fmt: skip


@pytest.fixture
def rally(service: TableService) -> tuple[TableService, str, str]:
    """A 3-car rally from Koriyama: Aki has drawn and may act (step 1)."""
    info, key = service.create("rally", "Rally", rally_setup())
    service.record(info.public_id, key, 0, {"type": "draw", "seat": 0})
    return service, info.public_id, key


def travel(cards: Any, to: Any = "nihonmatsu", seat: Any = 0) -> dict[str, Any]:
    return {"type": "travel", "seat": seat, "cards": cards, "to": to}


RALLY_BAD_ACTIONS: list[Case] = [
    case("none", None, "rally/malformed"),
    case("a list", ["travel"], "rally/malformed"),
    case("unknown type", {"type": "teleport", "seat": 0}, "rally/malformed"),
    case("seat missing", {"type": "draw"}, "rally/malformed"),
    case("seat str", {"type": "draw", "seat": "0"}, "rally/malformed"),
    case("seat bool", {"type": "draw", "seat": True}, "rally/malformed"),
    case("seat out of range", {"type": "draw", "seat": 9}, "rally/seat"),
    case("another's turn", {"type": "draw", "seat": 1}, "rally/not_your_turn"),
    case("draw twice", {"type": "draw", "seat": 0}, "rally/drawn"),
    case("cards str", travel("20"), "rally/malformed"),
    case("cards too many", travel(["20"] * 50), "rally/malformed"),
    case("card 60", travel(["60"]), "rally/unknown_card"),
    case("card int", travel([20]), "rally/unknown_card"),
    case("card fullwidth", travel(["２０"]), "rally/unknown_card"),
    case("card upper", travel(["TOP", "20"]), "rally/unknown_card"),
    case("no cards", travel([]), "rally/travel_cards"),
    case("rain in a movement", travel(["20", "rain"]), "rally/travel_cards"),
    case("top alone", travel(["top"], "koriyama"), "rally/top_alone"),
    case("two tops", travel(["20", "top", "top"]), "rally/top_twice"),
    case("four cards, three actions", travel(["20"] * 4, "sendai"), "rally/no_actions"),
    case("30 km past Nihonmatsu", travel(["30"], "fukushima-nishi"), "rally/out_of_reach"),
    case("across the strait by road", travel(["50", "50", "top"], "muroran"),
         "rally/out_of_reach"),
    case("town unknown", travel(["20"], "atlantis"), "rally/unknown_town"),
    case("town not str", travel(["20"], 7), "rally/malformed"),
    case("town huge", travel(["20"], "x" * 5000), "rally/unknown_town"),
    case("attack self", {"type": "attack", "seat": 0, "card": "rain", "target": 0},
         "rally/attack_self"),
    case("attack no target", {"type": "attack", "seat": 0, "card": "rain"}, "rally/malformed"),
    case("attack target 9", {"type": "attack", "seat": 0, "card": "rain", "target": 9},
         "rally/seat"),
    case("attack with a defence", {"type": "attack", "seat": 0, "card": "repair", "target": 1},
         "rally/not_attack"),
    case("attack card unknown", {"type": "attack", "seat": 0, "card": "tank", "target": 1},
         "rally/unknown_card"),
    case("defend with an attack", {"type": "defend", "seat": 0, "card": "rain", "target": 1},
         "rally/not_defence"),
    case("clear sky, nothing to clear",
         {"type": "defend", "seat": 0, "card": "clear_sky", "target": 1},
         "rally/nothing_to_remove"),
    case("repair, nothing to repair", {"type": "defend", "seat": 0, "card": "repair",
                                       "target": 0}, "rally/nothing_to_remove"),
    case("jam cleared, no jam", {"type": "defend", "seat": 0, "card": "jam_clear",
                                 "town": "koriyama"}, "rally/no_jam"),
    case("jam cleared on a car", {"type": "defend", "seat": 0, "card": "jam_clear",
                                  "target": 1}, "rally/defence_town"),
    case("clear sky on a town", {"type": "defend", "seat": 0, "card": "clear_sky",
                                 "town": "koriyama"}, "rally/defence_target"),
    case("defence town not str", {"type": "defend", "seat": 0, "card": "jam_clear",
                                  "town": 3}, "rally/malformed"),
    case("ferry from an inland town", {"type": "ferry", "seat": 0, "to": "muroran"},
         "rally/ferry_port"),
    case("ferry without a port", {"type": "ferry", "seat": 0}, "rally/malformed"),
    case("discard listed in tracking", {"type": "end_turn", "seat": 0, "discard": ["20"]},
         "rally/discard_tracking"),
    case("discard not a list", {"type": "end_turn", "seat": 0, "discard": "20"},
         "rally/malformed"),
]  # fmt: skip


@pytest.mark.parametrize("bad", RALLY_BAD_ACTIONS, ids=str)
def test_service_refuses_a_bad_rally_action(rally, db_path, bad: Case) -> None:  # type: ignore[no-untyped-def]
    service, pid, key = rally
    refused(bad.codes, lambda: service.record(pid, key, 1, bad.value), db_path)


RALLY_STEPS: dict[str, tuple[list[dict[str, Any]], dict[str, Any], str]] = {
    # name: (what to record first, the refused action, its code)
    "a second movement": (
        [travel(["20"])], travel(["20"], "fukushima-nishi"), "rally/one_move"),
    "a second rain": (
        [{"type": "attack", "seat": 0, "card": "rain", "target": 1}],
        {"type": "attack", "seat": 0, "card": "rain", "target": 1}, "rally/status_held"),
    "a second jam at one town": (
        [{"type": "attack", "seat": 0, "card": "jam", "target": 1}],
        {"type": "attack", "seat": 0, "card": "jam", "target": 2}, "rally/status_held"),
    "two cards with rain": (
        [{"type": "attack", "seat": 0, "card": "rain", "target": 1},
         {"type": "end_turn", "seat": 0}, {"type": "draw", "seat": 1}],
        travel(["20", "20"], "fukushima-nishi", seat=1), "rally/rain"),
    "travel with engine failure": (
        [{"type": "attack", "seat": 0, "card": "engine", "target": 1},
         {"type": "end_turn", "seat": 0}, {"type": "draw", "seat": 1}],
        travel(["20"], seat=1), "rally/engine_failure"),
    "travel out of a jam": (
        [{"type": "attack", "seat": 0, "card": "jam", "target": 1},
         {"type": "end_turn", "seat": 0}, {"type": "draw", "seat": 1}],
        travel(["20"], seat=1), "rally/jammed"),
    "an action before the draw": (
        [{"type": "end_turn", "seat": 0}], travel(["20"], seat=1), "rally/draw_first"),
    "a fourth card": (
        [{"type": "attack", "seat": 0, "card": "rain", "target": 1},
         {"type": "attack", "seat": 0, "card": "engine", "target": 1},
         {"type": "attack", "seat": 0, "card": "police", "target": 2}],
        {"type": "attack", "seat": 0, "card": "engine", "target": 2}, "rally/no_actions"),
    "the ferry after a card": (
        [travel(["50", "50", "top"], "fukushima")],
        {"type": "ferry", "seat": 0, "to": "muroran"}, "rally/ferry_port"),
    "anything after the end": (
        [{"type": "end_race"}], {"type": "draw", "seat": 0}, "rally/over"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(RALLY_STEPS))
def test_service_refuses_an_illegal_rally_step(rally, db_path, name: str) -> None:  # type: ignore[no-untyped-def]
    service, pid, key = rally
    before, bad, code = RALLY_STEPS[name]
    for action in before:
        service.record(pid, key, service.snapshot(pid).seq, action)
    seq = service.snapshot(pid).seq
    refused((code,), lambda: service.record(pid, key, seq, bad), db_path)


def test_service_refuses_a_seat_playing_another_car(rally, db_path) -> None:  # type: ignore[no-untyped-def]
    service, pid, key = rally
    ben = service.rotate_key(pid, key, Role.seat_of(1))
    seq = service.snapshot(pid).seq
    for action in (travel(["20"]), {"type": "end_race"}):
        refused(("table/wrong_actor",), lambda a=action: service.record(pid, ben, seq, a), db_path)


def _map(**changes: Any) -> dict[str, Any]:
    return copy.deepcopy(sample_map().to_dict()) | changes


def _with_road(road: dict[str, Any]) -> dict[str, Any]:
    raw = _map()
    raw["roads"].append(road)
    return raw


_lonely = _map()
_lonely["towns"].append({"id": "chichijima", "en": "Chichijima", "ja": "父島", "lat": 27.1,
                         "lon": 142.2})  # fmt: skip
_dupe = _map()
_dupe["towns"].append(dict(_dupe["towns"][3]))

RALLY_BAD_SETUPS: list[Case] = [
    case("one player", rally_setup(players=PLAYERS[:1]), "rally/player_count"),
    case("eight players", rally_setup(players=[p | {"name": f"P{i}"} for i, p in
                                               enumerate(PLAYERS * 3)][:8]),
         "rally/player_count"),
    case("same colour", rally_setup(players=[PLAYERS[0], PLAYERS[1] | {"colour": "red"}]),
         "rally/colours"),
    case("look-alike names", rally_setup(players=[PLAYERS[0], PLAYERS[1] | {"name": "ＡＫＩ"}]),
         "input/duplicate"),
    case("machine actions 0", rally_setup(players=[PLAYERS[0], PLAYERS[1] | {
        "machine": {"actions": 0, "hand": 5, "draw": 2}}]), "rally/machine"),
    case("machine hand 99", rally_setup(players=[PLAYERS[0], PLAYERS[1] | {
        "machine": {"actions": 3, "hand": 99, "draw": 2}}]), "rally/machine"),
    case("machine draw str", rally_setup(players=[PLAYERS[0], PLAYERS[1] | {
        "machine": {"actions": 3, "hand": 5, "draw": "2"}}]), "rally/malformed"),
    case("machine missing", rally_setup(players=[PLAYERS[0], {"name": "Ben", "colour": "blue"}]),
         "rally/malformed"),
    case("start unknown", rally_setup(course={"start": "atlantis", "goal": "aomori"}),
         "rally/unknown_town"),
    case("start is goal", rally_setup(course={"start": "aomori", "goal": "aomori"}),
         "rally/course_same"),
    case("one team for all", rally_setup(teams=["East"], players=[p | {"team": 0}
                                                                  for p in PLAYERS]),
         "rally/teams"),
    case("a player without a team", rally_setup(teams=["East", "West"], players=[
        PLAYERS[0] | {"team": 0}, PLAYERS[1] | {"team": 1}, PLAYERS[2]]), "rally/teams"),
    case("team number past the teams", rally_setup(teams=["East", "West"], players=[
        PLAYERS[0] | {"team": 0}, PLAYERS[1] | {"team": 5}, PLAYERS[2] | {"team": 1}]),
         "rally/teams"),
    case("mode unknown", rally_setup(mode="cheat"), "rally/malformed"),
    case("simulation without seed", rally_setup(mode="simulation"), "rally/malformed"),
    case("map: road to an unknown town", rally_setup(map=_with_road(
        {"a": "sendai", "b": "naha", "km": 30})), "rally/map_unknown_town"),
    case("map: zero km", rally_setup(map=_with_road({"a": "sendai", "b": "aomori", "km": 0})),
         "rally/map_km"),
    case("map: negative km", rally_setup(map=_with_road(
        {"a": "sendai", "b": "aomori", "km": -40})), "rally/map_km"),
    case("map: duplicate town", rally_setup(map=_dupe), "rally/map_duplicate"),
    case("map: a town no road reaches", rally_setup(map=_lonely), "rally/map_unreached"),
    case("map: a ferry to an inland town", rally_setup(map=_map(
        ferries=[{"a": "aomori", "b": "sapporo"}])), "rally/map_ferry"),
    case("map: no ferry leaves Hokkaido cut off", rally_setup(map=_map(ferries=[])),
         "rally/map_unreached"),
    case("map: towns not a list", rally_setup(map=_map(towns="tokyo")), "rally/map_malformed"),
    case("map: name invisible", rally_setup(map=_map(map={"name_en": "Japan\u200b"})),
         "input/invisible"),
]  # fmt: skip


@pytest.mark.parametrize("bad", RALLY_BAD_SETUPS, ids=str)
def test_service_refuses_a_bad_rally_setup(service, db_path, bad: Case) -> None:  # type: ignore[no-untyped-def]
    refused(bad.codes, lambda: service.create("rally", "Rally", bad.value), db_path)
