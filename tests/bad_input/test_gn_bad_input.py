"""Grand National's bad inputs: malformed and illegal actions, setups and track files, each
refused with its own code and a catalogued ja/en message, the stored rows unchanged."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from aids.games.base import Role
from aids.tables import TableService
from tests.bad_input.cases import Case, case
from tests.bad_input.test_bad_input import refused
from tests.games.grand_national.helpers import setup

SETUP = setup().to_dict()


@pytest.fixture
def market(service: TableService) -> tuple[TableService, str, str]:
    """A 3-stable table in the market: blind bets written, going good, lanes spun."""
    info, key = service.create("gn", "GN", SETUP)
    pid = info.public_id
    for seat in range(3):
        own = service.rotate_key(pid, key, Role.seat_of(seat))
        service.record(pid, own, service.snapshot(pid).seq,
                       {"type": "blind_bet", "seat": seat, "horse": None, "kind": None,
                        "stake": 0})  # fmt: skip
    for step in [{"type": "going", "going": "good"}] + [
        {"type": "lane_spin", "lane": lane, "colour": "red"} for lane in range(1, 5)
    ]:
        service.record(pid, key, service.snapshot(pid).seq, step)
    return service, pid, key


GN_BAD_MARKET: list[Case] = [
    case("none", None, "gn/malformed"),
    case("unknown type", {"type": "gallop"}, "gn/malformed"),
    case("bet stake str", {"type": "bet", "seat": 0, "horse": 0, "kind": "win", "stake": "5"},
         "gn/malformed"),
    case("bet kind place", {"type": "bet", "seat": 0, "horse": 0, "kind": "place",
                            "stake": 5}, "gn/bet_kind"),
    case("bet stake 0", {"type": "bet", "seat": 0, "horse": 0, "kind": "win", "stake": 0},
         "gn/stake"),
    case("bet more than cash (by the referee's key)", {"type": "bet", "seat": 2, "horse": 0,
         "kind": "win", "stake": 80001}, "gn/cash_sealed"),
    case("bet on horse 12", {"type": "bet", "seat": 0, "horse": 12, "kind": "win",
                             "stake": 5}, "gn/horse"),
    case("bet by seat 7", {"type": "bet", "seat": 7, "horse": 0, "kind": "win", "stake": 5},
         "gn/seat"),
    case("odds 0/1", {"type": "odds", "horse": 0, "win": [0, 1], "show": [3, 1]},
         "gn/odds_range"),
    case("odds as text", {"type": "odds", "horse": 0, "win": "12/1", "show": [3, 1]},
         "gn/malformed"),
    case("odds three numbers", {"type": "odds", "horse": 0, "win": [12, 1, 1],
                                "show": [3, 1]}, "gn/malformed"),
    case("handicap 8", {"type": "handicap", "horse": 0, "mark": 8}, "gn/handicap_range"),
    case("handicap -1", {"type": "handicap", "horse": 0, "mark": -1}, "gn/handicap_range"),
    case("a move before the start", {"type": "move", "horse": 0, "forward": 7, "lane": 1},
         "gn/not_now"),
    case("a spin before the start", {"type": "spin", "colour": "red"}, "gn/not_now"),
    case("a blind bet by the referee's key", {"type": "blind_bet", "seat": 0, "horse": 0,
                                              "kind": "win", "stake": 100}, "table/wrong_actor"),
    case("the going again", {"type": "going", "going": "soft"}, "gn/not_now"),
    case("going unknown", {"type": "going", "going": "muddy"}, "gn/going"),
    case("lane 5", {"type": "lane_spin", "lane": 5, "colour": "red"}, "gn/not_now"),
    case("card effect unknown", {"type": "card", "horse": 0, "effect": "teleport"},
         "gn/effect"),
    case("card value str", {"type": "card", "horse": 0, "effect": "advance", "value": "3"},
         "gn/malformed"),
    case("card value null", {"type": "card", "horse": 0, "effect": "advance", "value": None},
         "gn/malformed"),
]  # fmt: skip


@pytest.mark.parametrize("bad", GN_BAD_MARKET, ids=str)
def test_service_refuses_a_bad_gn_market_action(market, db_path, bad: Case) -> None:  # type: ignore[no-untyped-def]
    service, pid, key = market
    seq = service.snapshot(pid).seq
    refused(bad.codes, lambda: service.record(pid, key, seq, bad.value), db_path)


GN_BAD_RACE: list[Case] = [
    case("the wrong horse", {"type": "move", "horse": 4, "forward": 6, "lane": 2},
         "gn/not_this_horse"),
    case("handicap only", {"type": "move", "horse": 0, "forward": 6, "lane": 1}, "gn/speed"),
    case("nine speed points", {"type": "move", "horse": 0, "forward": 15, "lane": 1},
         "gn/speed"),
    case("backwards", {"type": "move", "horse": 0, "forward": -2, "lane": 1}, "gn/forward"),
    case("lane 9", {"type": "move", "horse": 0, "forward": 7, "lane": 9}, "gn/lane"),
    case("blocked not bool", {"type": "move", "horse": 0, "forward": 7, "lane": 1,
                              "blocked": "yes"}, "gn/malformed"),
    case("a spin not due", {"type": "spin", "colour": "red"}, "gn/no_spin_now"),
    case("advance 0", {"type": "card", "horse": 0, "effect": "advance", "value": 0},
         "gn/card_value"),
    case("advance moved past the card", {"type": "card", "horse": 0, "effect": "advance",
                                         "value": 3, "moved": 5}, "gn/card_moved"),
    case("a bet after the start", {"type": "bet", "seat": 0, "horse": 0, "kind": "win",
                                   "stake": 5}, "gn/market_closed"),
    case("odds after the start", {"type": "odds", "horse": 0, "win": [5, 1], "show": [2, 1]},
         "gn/market_closed"),
    case("start again", {"type": "start"}, "gn/market_closed"),
]  # fmt: skip


@pytest.mark.parametrize("bad", GN_BAD_RACE, ids=str)
def test_service_refuses_a_bad_gn_race_action(market, db_path, bad: Case) -> None:  # type: ignore[no-untyped-def]
    service, pid, key = market
    service.record(pid, key, service.snapshot(pid).seq, {"type": "start"})
    seq = service.snapshot(pid).seq
    refused(bad.codes, lambda: service.record(pid, key, seq, bad.value), db_path)


def test_service_refuses_a_blind_bet_over_10000_by_another_or_late(service, db_path) -> None:  # type: ignore[no-untyped-def]
    info, key = service.create("gn", "GN", SETUP)
    pid = info.public_id
    aki = service.rotate_key(pid, key, Role.seat_of(0))
    ben = service.rotate_key(pid, key, Role.seat_of(1))
    over = {"type": "blind_bet", "seat": 0, "horse": 0, "kind": "win", "stake": 10001}
    seq = service.snapshot(pid).seq
    refused(("gn/blind_max",), lambda: service.record(pid, aki, seq, over), db_path)
    mine = over | {"stake": 100}
    refused(("table/wrong_actor",), lambda: service.record(pid, ben, seq, mine), db_path)
    refused(("table/wrong_actor",), lambda: service.record(pid, key, seq, mine), db_path)
    service.record(pid, aki, seq, mine)
    seq = service.snapshot(pid).seq
    refused(("gn/blind_once",), lambda: service.record(pid, aki, seq, mine), db_path)


def _setup(**changes: Any) -> dict[str, Any]:
    return copy.deepcopy(SETUP) | changes


def _horse(stable: int, slot: int, **changes: Any) -> dict[str, Any]:
    raw = _setup()
    raw["stables"][stable]["horses"][slot] |= changes
    return raw


def _track(**landmarks: Any) -> dict[str, Any]:
    raw = _setup()
    raw["track"]["landmarks"] |= landmarks
    return raw


GN_BAD_SETUPS: list[Case] = [
    case("one stable", _setup(stables=SETUP["stables"][:1]), "gn/stable_count"),
    case("seven stables", _setup(stables=SETUP["stables"] * 3), "gn/stable_count"),
    case("shared colour", _setup(stables=[SETUP["stables"][0],
                                          SETUP["stables"][1] | {"colour": "red"}]),
         "gn/colours"),
    case("three horses", _setup(stables=[SETUP["stables"][0] | {
        "horses": SETUP["stables"][0]["horses"][:3]}, SETUP["stables"][1]]), "gn/horse_count"),
    case("price 70K", _horse(0, 0, price=70000), "gn/price"),
    case("slot 1 from the cheap stack", _horse(0, 0, price=10000), "gn/stack"),
    case("slot 3 from the dear stack", _horse(0, 2, price=60000), "gn/stack"),
    case("handicap 9", _horse(0, 1, handicap=9), "gn/handicap_range"),
    case("handicap str", _horse(0, 1, handicap="3"), "gn/malformed"),
    case("look-alike horse names", _horse(1, 0, name="ＲＥＤ ＲＵＭ"), "input/duplicate"),
    case("horse name invisible", _horse(1, 0, name="Red\u200bRum"), "input/invisible"),
    case("bookmaker 5", _setup(bookmaker=5), "gn/bookmaker"),
    case("order unknown", _setup(order="random"), "gn/malformed"),
    case("spinner twice red", _setup(spinner=["red", "red", "blue", "green"]), "gn/spinner"),
    case("spinner without a colour in play", _setup(spinner=["red", "blue"]), "gn/spinner"),
    case("spinner not a list", _setup(spinner="red,blue"), "gn/malformed"),
    case("track: Becher's not a fence", _track(bechers=16), "gn/track_bechers"),
    case("track: a fence past the lap", _track(fences=[5, 60]), "gn/track_number"),
    case("track: water on a fence", _track(water=10), "gn/track_clash"),
    case("track: no fences", _track(fences=[]), "gn/track_malformed"),
    case("track: lap 5", _setup(track={"track": {"lap": 5, "lanes": 6},
                                       "landmarks": SETUP["track"]["landmarks"]}),
         "gn/track_number"),
]  # fmt: skip


@pytest.mark.parametrize("bad", GN_BAD_SETUPS, ids=str)
def test_service_refuses_a_bad_gn_setup(service, db_path, bad: Case) -> None:  # type: ignore[no-untyped-def]
    refused(bad.codes, lambda: service.create("gn", "GN", bad.value), db_path)
